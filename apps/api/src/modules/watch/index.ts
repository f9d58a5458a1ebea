/*
 * Wiring of the watch (#31) for buildApp: `mount` adds its routes (inside /api/v1), `attach` from
 * main.ts starts the round poller on ROLE=all|worker. A round's observer is built from discovery's DNS
 * settings (servers, concurrency, timeout, retries, queries per second) and the snapshot settings
 * (timeout, body cap, redirects), through the SSRF guard (lib/outbound.ts); the domains at once and the
 * per-destination HTTP limits come from the environment (config WATCH_*, buildApp passes them).
 */
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Logger } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import { type Poller, startPoller } from '../../lib/poller';
import type { App } from '../../lib/routes';
import type { ConfigsService } from '../configs/index';
import {
  type CtCertificateSink,
  createRdapBootstrapCache,
  createRdapClient,
  createResolver,
  discoverySettings,
} from '../discovery/index';
import { createEventsRepo } from '../events/index';
import { createObserver, type Observer } from './observer';
import { createWatchWorker, type ObservedTransition } from './watch.jobs';
import { createWatchRepo } from './watch.repo';
import { watchRoutes } from './watch.routes';
import { createWatchService } from './watch.service';

export interface WatchOptions {
  /** Domains observed at once (DNS and HTTP of one domain in sequence); env WATCH_CONCURRENCY. */
  concurrency: number;
  /** HTTP requests at once and per second to one destination address; env WATCH_DESTINATION_CONCURRENCY, WATCH_DESTINATION_RATE. */
  perDestination: { concurrency: number; ratePerSecond: number };
  /** How often a worker looks for due domains (a round observes every due one); env WATCH_TICK_SECONDS. */
  tickSeconds: number;
  /** Tests and bench: the port both HTTP schemes connect to. */
  httpPort?: number;
}
export const DEFAULT_WATCH_OPTIONS: WatchOptions = {
  concurrency: 64,
  perDestination: { concurrency: 4, ratePerSecond: 10 },
  tickSeconds: 60,
};

export interface WatchDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  log: Pick<Logger, 'warn' | 'info'>;
  outbound: OutboundPolicy;
  options?: Partial<WatchOptions>;
  onTransition?: (t: ObservedTransition) => void;
}

export function createWatch(deps: WatchDeps) {
  const { db, configs } = deps;
  const options = { ...DEFAULT_WATCH_OPTIONS, ...deps.options };
  const repo = createWatchRepo(db);
  const bootstrapCache = createRdapBootstrapCache({ outbound: deps.outbound });
  const listeners: ((t: ObservedTransition) => void)[] = deps.onTransition ? [deps.onTransition] : [];

  async function observer(): Promise<{ observer: Observer; close(): void }> {
    const s = await discoverySettings(configs);
    const resolver = createResolver({ ...s.resolver, outbound: deps.outbound });
    const rdap =
      Object.keys(s.rdap.servers).length || s.rdap.bootstrapUrl
        ? createRdapClient({ ...s.rdap, outbound: deps.outbound, bootstrapCache })
        : null;
    return {
      observer: createObserver({
        resolver,
        outbound: deps.outbound,
        concurrency: options.concurrency,
        http: {
          timeoutMs: (await configs.get('snapshot_timeout_seconds')) * 1000,
          maxBytes: (await configs.get('snapshot_max_body_kb')) * 1024,
          maxRedirects: await configs.get('snapshot_max_redirects'),
          ...(options.httpPort ? { port: options.httpPort } : {}),
        },
        perDestination: options.perDestination,
        rdap,
      }),
      close: () => resolver.close(),
    };
  }

  const worker = createWatchWorker({
    db,
    repo,
    events: createEventsRepo(db),
    observer,
    log: deps.log,
    onTransition: (t) => {
      for (const l of listeners) l(t);
    },
  });
  const service = createWatchService({ db, audit: deps.audit, repo });
  /** For discovery.onCertificates: CT certificates naming a watched domain are kept (watch_ct_certs). */
  const ctCertificates: CtCertificateSink = {
    wanted: () => repo.anyTarget(),
    record: (tx, entries) => repo.recordCtCerts(tx, entries),
  };
  const pollers: Poller[] = [];

  return {
    repo,
    worker,
    service,
    ctCertificates,
    /** The limits in force (defaults, then the environment's). */
    options,
    /** One round now (tests, bench): every due domain, or at most `limit`. */
    round: (limit?: number) => worker.round(() => false, limit),
    onTransition(l: (t: ObservedTransition) => void) {
      listeners.push(l);
    },
    mount(app: App) {
      watchRoutes(app, { watch: service });
    },
    /** `background: false` (tests): no poller (call round). */
    attach(opts: { work: boolean; background?: boolean }) {
      if (!opts.work || opts.background === false) return;
      pollers.push(
        startPoller({
          intervalMs: options.tickSeconds * 1000,
          run: async (stopped) => {
            // Without DNS servers there is nothing to observe with.
            if (!(await discoverySettings(configs)).resolver.servers.length) return;
            await worker.round(stopped);
          },
          log: deps.log,
          failure: 'watch round failed',
        }),
      );
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
    },
  };
}
export type Watch = ReturnType<typeof createWatch>;
