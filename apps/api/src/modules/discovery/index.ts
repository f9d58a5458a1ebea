/*
 * Wiring of discovery (#17) for buildApp: `mount` after the event engine (events are raised through its
 * reference lists, guards and whitelist), `attach` from main.ts once pg-boss is up (every role queues runs;
 * ROLE=all|worker also runs them, enqueues the scheduled ones and follows the CT logs).
 */
import { DISCOVERY_MSG } from '@forpost/contract/discovery';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import { type Poller, startPoller } from '../../lib/poller';
import type { App } from '../../lib/routes';
import type { CompaniesRepo } from '../companies/index';
import type { ConfigsService } from '../configs/index';
import type { CreateGuards, Refs, WhitelistKindFor } from '../events/index';
import { createCardVault, createEventsRepo } from '../events/index';
import type { SnapshotsService } from '../snapshots/index';
import { createAssetsRepo } from './assets.repo';
import { createAssetsService } from './assets.service';
import { type CtCertificateSink, createCtMonitor } from './ct-monitor.jobs';
import { createCtStateRepo } from './ct-monitor.repo';
import { createEventRaiser, type EventRaiser } from './discovery.events';
import { discoveryRoutes } from './discovery.routes';
import { discoverySettings } from './discovery.service';
import { createRunExecutor } from './runs.jobs';
import { createRunsRepo } from './runs.repo';
import { createRunsService } from './runs.service';
import { createSourcesService } from './sources.service';

const RUN_QUEUE = 'discovery-run';
/** A run may take long (tens of thousands of names at the configured rate). */
const RUN_JOB = { retryLimit: 1, retryDelay: 60, expireInSeconds: 4 * 3600 };
/** The schedule's tick: due companies get a run, queued runs without a job get one, silent runs fail. */
const TICK_MS = 30_000;
/** The CT monitor's poller checks this often whether its interval (a setting) has passed. */
const CT_TICK_MS = 5_000;

export interface DiscoveryDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  secret: string;
  /** Discovered events always get the SSRF-guarded snapshot probe (screenshot, title), not only with `snapshot_on_create`. */
  snapshots: Pick<SnapshotsService, 'enqueue'>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** The SSRF guard of resolvers, RDAP servers and CT logs (lib/outbound.ts). */
  outbound: OutboundPolicy;
  companies: CompaniesRepo;
}

export function createDiscovery(deps: DiscoveryDeps) {
  const { db } = deps;
  const assetsRepo = createAssetsRepo(db);
  const runsRepo = createRunsRepo(db);
  const assets = createAssetsService({ db, audit: deps.audit, repo: assetsRepo, companies: deps.companies });
  let raiser: EventRaiser | undefined;
  const raise = () => {
    if (!raiser) throw new Error('discovery is not mounted (call mount after the event engine)');
    return raiser;
  };
  let boss: PgBoss | null = null;
  const pollers: Poller[] = [];

  async function enqueue(runId: number) {
    if (!boss) return; // the worker's tick queues it
    const jobId = await boss.send(RUN_QUEUE, { run_id: runId }, { ...RUN_JOB, singletonKey: `run-${runId}` });
    if (jobId) await runsRepo.setJob(runId, jobId);
  }

  /** Queues the snapshot of each new discovered event (deduplicated with the `snapshot_on_create` sweep). */
  async function snapshot(eventIds: number[]) {
    for (const id of eventIds) {
      try {
        await deps.snapshots.enqueue(id, { auto: true });
      } catch (e) {
        deps.log.warn({ err: errInfo(e), eventId: id }, 'discovery: snapshot not queued');
      }
    }
  }

  const runs = createRunsService({
    db,
    audit: deps.audit,
    companies: deps.companies,
    runs: runsRepo,
    assets: assetsRepo,
    enqueue,
  });
  const sources = createSourcesService({ configs: deps.configs, assets: assetsRepo, outbound: deps.outbound });
  const execute = createRunExecutor({
    db,
    configs: deps.configs,
    runs: runsRepo,
    assets: assetsRepo,
    raise,
    snapshot,
    log: deps.log,
    outbound: deps.outbound,
  });
  let certificates: CtCertificateSink | null = null;
  const ct = createCtMonitor({
    certificates: () => certificates,
    db,
    pool: deps.pool,
    configs: deps.configs,
    assets: assetsRepo,
    state: createCtStateRepo(db),
    raise,
    snapshot,
    log: deps.log,
    outbound: deps.outbound,
  });

  /** Fails silent runs; with discovery on, gives due companies a scheduled run; queues runs without a job. */
  async function tick(): Promise<void> {
    await runsRepo.failStale(DISCOVERY_MSG.interrupted);
    const s = await discoverySettings(deps.configs);
    if (s.enabled)
      for (const companyId of await runsRepo.dueCompanies(s.scheduleHours)) {
        const id = await runsRepo.insert({ companyId, trigger: 'schedule', createdBy: null });
        if (id !== null) await enqueue(id);
      }
    for (const id of await runsRepo.unqueued()) await enqueue(id);
  }

  let ctLast = 0;
  return {
    /** Registers where the CT monitor also hands every certificate it reads (the watch, #31). */
    onCertificates(sink: CtCertificateSink | null) {
      certificates = sink;
    },
    assets,
    runs,
    /** Runs one discovery run now (the job's body). */
    execute,
    ct,
    tick,
    mount(app: App, engine: { refs: Refs; guards: CreateGuards; whitelistKindFor: WhitelistKindFor }) {
      raiser = createEventRaiser({
        events: createEventsRepo(db),
        refs: engine.refs,
        vault: createCardVault(deps.secret),
        guards: engine.guards,
        whitelistKindFor: engine.whitelistKindFor,
      });
      return discoveryRoutes(app, { assets, runs, sources });
    },
    /** `background: false` (tests): run jobs but start no schedule tick or CT poller (call tick / ct.pass). */
    async attach(b: PgBoss, opts: { work: boolean; background?: boolean }) {
      boss = b;
      await b.createQueue(RUN_QUEUE, { name: RUN_QUEUE, ...RUN_JOB });
      if (!opts.work) return;
      await b.work<{ run_id: number }>(RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
        if (job) await execute(job.data.run_id);
      });
      if (opts.background === false) return;
      pollers.push(startPoller({ intervalMs: TICK_MS, run: tick, log: deps.log, failure: 'discovery schedule tick failed' }));
      pollers.push(
        startPoller({
          intervalMs: CT_TICK_MS,
          run: async (stopped) => {
            const s = await discoverySettings(deps.configs);
            if (Date.now() - ctLast < s.ctIntervalMs) return;
            ctLast = Date.now();
            await ct.pass(stopped);
          },
          log: deps.log,
          failure: 'CT monitor pass failed',
        }),
      );
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
      boss = null;
    },
  };
}
export type Discovery = ReturnType<typeof createDiscovery>;
export type { CtEntry } from './ct/parse';
/* What the domain watch shares with discovery: settings, DNS, RDAP, the per-destination limits, CT certificates. */
export type { CtCertificateSink } from './ct-monitor.jobs';
export { discoverySettings } from './discovery.service';
export {
  type Clock,
  createSemaphore,
  createTokenBucket,
  realClock,
  type Semaphore,
  type TokenBucket,
} from './rate-limit';
export { createRdapBootstrapCache, createRdapClient, parseRdapBootstrap, type RdapInfo } from './rdap';
export { createResolver, type Resolution, type Resolver } from './resolver';
