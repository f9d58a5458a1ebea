/*
 * The discovery run job: the permutations of every enabled domain asset of the company → DNS
 * (resolveMany) → for each registered candidate that is not a wildcard echo: RDAP (bounded) → a domain
 * event with source «Discovery» (discovery.events.ts). Progress is written to the run row as it goes;
 * each batch of events commits together with the counters that count it, then the batch's new events get
 * their snapshot probe queued. RDAP lookups that gave no data are counted by reason and logged at the end.
 *
 * Cancellation: the run's row carries `cancel_requested_at` (set by the API, maybe on another machine); the
 * worker reads it every CANCEL_POLL_MS while the run goes on. Once set, the resolver is aborted (no new
 * queries; those in flight are dropped), RDAP lookups stop, the registered candidates already found are
 * still written (without RDAP) and the run ends as «cancelled» with the counters of what was checked.
 */
import {
  DISCOVERY_MSG,
  type DiscoverySource,
  RUN_ISSUE_EXAMPLES,
  type RunIssue,
  type RunIssueReason,
  type RunIssues,
} from '@forpost/contract/discovery';
import { isRealDate } from '@forpost/contract/modules/fields';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import type { ConfigsService } from '../configs/index';
import type { AssetsRepo } from './assets.repo';
import type { EventRaiser, Finding } from './discovery.events';
import { discoverySettings } from './discovery.service';
import { generatePermutations } from './permutations';
import { createRdapBootstrapCache, createRdapClient, type RdapFailure, type RdapInfo, rdapStatusRu } from './rdap';
import { createResolver, type Resolution } from './resolver';
import type { RunProgress, RunsRepo } from './runs.repo';

/** Registered candidates written per transaction. */
const BATCH = 25;
/** RDAP lookups at once, and at most this many per run (registration data is a bonus, not the finding). */
const RDAP_CONCURRENCY = 4;
const RDAP_MAX_PER_RUN = 2000;
/** Progress without a batch is saved at most this often. */
const SAVE_MS = 1000;
/** The run's row is read this often for a stop asked through the API. */
export const CANCEL_POLL_MS = 500;

class RunFailure extends Error {}
class RunCancelled extends Error {}

/** `fn` over `items` with at most `limit` at once, results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Counts by reason with the first RUN_ISSUE_EXAMPLES names of each. */
function issueCounter() {
  const m = new Map<RunIssueReason, RunIssue>();
  return {
    add(reason: RunIssueReason, name: string) {
      let i = m.get(reason);
      if (!i) {
        i = { reason, count: 0, examples: [] };
        m.set(reason, i);
      }
      i.count++;
      if (i.examples.length < RUN_ISSUE_EXAMPLES) i.examples.push(name);
    },
    list: (): RunIssue[] => [...m.values()].sort((a, b) => b.count - a.count).map((i) => ({ ...i, examples: [...i.examples] })),
    get size() {
      return m.size;
    },
    total: () => [...m.values()].reduce((a, i) => a + i.count, 0),
  };
}

/** The run's reason of a DNS check that gave no answer. */
function dnsReason(r: Resolution): RunIssueReason {
  if (r.status === 'timeout') return 'dns_timeout';
  if (r.status === 'servfail') return 'dns_servfail';
  if (r.error === 'refused') return 'dns_refused';
  if (r.error === 'network') return 'dns_network';
  return 'dns_other';
}

interface Candidate {
  unicode: string;
  fuzzer: string;
  asset: string;
}

/** The domains module's input of a registered candidate. */
export function findingInput(runId: number, c: Candidate, r: Resolution, info: RdapInfo | null): Record<string, unknown> {
  const input: Record<string, unknown> = {
    domain: c.unicode,
    fuzzer: c.fuzzer,
    asset: c.asset,
    mx: r.mx.length > 0,
    discovery_run: runId,
  };
  const ip = r.a[0] ?? r.aaaa[0];
  if (ip) input.ip = ip;
  if (r.ns.length) input.ns = r.ns.join(', ').slice(0, 2000);
  if (info?.registrar) input.registrar = info.registrar.trim().slice(0, 500);
  const day = info?.created?.slice(0, 10);
  if (day && isRealDate(day)) input.registered_at = day;
  if (info?.status.length) input.registration_status = [...new Set(info.status.map(rdapStatusRu))].join(', ').slice(0, 1000);
  return input;
}

export function createRunExecutor(deps: {
  db: Db;
  configs: Pick<ConfigsService, 'get'>;
  runs: RunsRepo;
  assets: AssetsRepo;
  raise: () => EventRaiser;
  /** Queues the snapshot probe of new events (called after their transaction commits). */
  snapshot: (eventIds: number[]) => Promise<void>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** The SSRF guard of the resolvers and RDAP servers (lib/outbound.ts). */
  outbound: OutboundPolicy;
}) {
  const { db, runs, outbound } = deps;
  // The RDAP bootstrap file, kept for the process's runs (fetched at most once a day).
  const bootstrapCache = createRdapBootstrapCache({ outbound });

  /** Aborts `ctl` once the run's stop is asked for; stop() ends the watching. */
  function watchCancel(runId: number, ctl: AbortController) {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const check = async () => {
      try {
        if (await runs.cancelRequested(runId)) ctl.abort(new RunCancelled());
      } catch (e) {
        deps.log.warn({ err: errInfo(e), runId }, 'discovery run: cancel check failed');
      }
      if (!done && !ctl.signal.aborted) timer = setTimeout(check, CANCEL_POLL_MS);
    };
    timer = setTimeout(check, CANCEL_POLL_MS);
    return () => {
      done = true;
      clearTimeout(timer);
    };
  }

  /** 'cancelled' when the run was stopped through the API (its findings so far are written). */
  async function work(
    runId: number,
    companyId: number,
    authorId: number | null,
    p: RunProgress,
    cancel: AbortSignal,
  ): Promise<'done' | 'cancelled'> {
    const s = await discoverySettings(deps.configs);
    if (!s.resolver.servers.length) throw new RunFailure(DISCOVERY_MSG.noResolvers);
    const enabled = await deps.assets.enabled(companyId);
    const domains = enabled.filter((a) => a.kind === 'domain');
    if (!domains.length) throw new RunFailure(DISCOVERY_MSG.noDomains);
    // The company's own combo words go with the default dictionary (brand + word: vtb-lk, lkvtb).
    const extraWords = enabled.filter((a) => a.kind === 'word').map((a) => a.unicode);
    const own = new Set(domains.map((d) => d.value));
    const candidates = new Map<string, Candidate>();
    for (const d of domains)
      for (const c of generatePermutations(d.unicode, { extraWords }))
        if (!own.has(c.domain) && !candidates.has(c.domain))
          candidates.set(c.domain, { unicode: c.unicode, fuzzer: c.fuzzer, asset: d.unicode });
    p.candidates = candidates.size;
    const unicodeOf = (ascii: string) => candidates.get(ascii)?.unicode ?? ascii;
    // Why names went unchecked, stored on the run with the progress (names only, never server addresses).
    const dnsIssues = issueCounter();
    const rdapIssues = issueCounter();
    const missing: DiscoverySource[] = [];
    if (!Object.keys(s.rdap.servers).length && !s.rdap.bootstrapUrl) missing.push('rdap');
    let rdapAsked = 0;
    const issues = (): RunIssues => ({ dns: dnsIssues.list(), rdap_asked: rdapAsked, rdap: rdapIssues.list(), missing });
    const save = (tx?: Db) => runs.progress(runId, { ...p, issues: issues() }, tx);
    await save();

    const raise = deps.raise();
    // Lookups without data, by reason: also logged once at the end.
    const rdapFailed = new Map<RdapFailure, number>();
    const rdapExamples: string[] = [];
    const rdap =
      Object.keys(s.rdap.servers).length || s.rdap.bootstrapUrl
        ? createRdapClient({
            ...s.rdap,
            outbound,
            bootstrapCache,
            onFailure: (f) => {
              rdapFailed.set(f.reason, (rdapFailed.get(f.reason) ?? 0) + 1);
              rdapIssues.add(`rdap_${f.reason}`, unicodeOf(f.domain));
              if (rdapExamples.length < 5)
                rdapExamples.push(f.status ? `${f.domain}: ${f.reason} ${f.status}` : `${f.domain}: ${f.reason}`);
            },
          })
        : null;
    let rdapLeft = RDAP_MAX_PER_RUN;
    let pending: Resolution[] = [];
    let saved = Date.now();
    const flush = async () => {
      const batch = pending;
      pending = [];
      const infos = await mapLimit(batch, RDAP_CONCURRENCY, async (r) => {
        // A cancelled run still writes what it found, without the registration data.
        if (!rdap || cancel.aborted || rdapLeft-- <= 0) return null;
        rdapAsked++;
        return rdap.lookup(r.name, cancel).catch(() => null);
      });
      const findings: Finding[] = batch.map((r, i) => ({
        companyId,
        input: findingInput(runId, candidates.get(r.name) as Candidate, r, infos[i] ?? null),
      }));
      const created = await db.transaction(async (tx) => {
        const r = await raise(tx, findings, 'Discovery', authorId);
        p.newEvents += r.created;
        await save(tx);
        return r.ids;
      });
      if (created.length) await deps.snapshot(created);
      saved = Date.now();
    };
    const resolver = createResolver({ ...s.resolver, outbound });
    let cancelled = false;
    try {
      if (cancel.aborted) throw cancel.reason;
      await resolver.resolveMany(
        candidates.keys(),
        async (r) => {
          if (r.status === 'registered' || r.status === 'nxdomain') p.resolved++;
          else {
            p.errors++;
            dnsIssues.add(dnsReason(r), unicodeOf(r.name));
          }
          if (r.status === 'registered' && !r.wildcard && candidates.has(r.name)) {
            p.registered++;
            pending.push(r);
          }
          if (pending.length >= BATCH) await flush();
          else if (Date.now() - saved >= SAVE_MS) {
            saved = Date.now();
            await save();
          }
        },
        cancel,
      );
      if (pending.length) await flush();
    } catch (e) {
      if (!(e instanceof RunCancelled)) throw e;
      cancelled = true;
    } finally {
      resolver.close();
      if (rdapFailed.size) {
        const failed = [...rdapFailed.values()].reduce((a, b) => a + b, 0);
        deps.log.warn(
          { runId, rdap: { asked: rdapAsked, failed, reasons: Object.fromEntries(rdapFailed), examples: rdapExamples } },
          'discovery run: RDAP lookups without registration data',
        );
      }
    }
    // A cancelled run keeps what it found: the registered names not yet written are written now.
    if (pending.length) await flush();
    await save();
    return cancelled ? 'cancelled' : 'done';
  }

  /** Runs one discovery run to its end (done, cancelled through the API, or failed with a Russian reason). */
  return async function execute(runId: number): Promise<void> {
    const run = await runs.claim(runId);
    if (!run) return; // finished, or held by a live worker
    const p: RunProgress = { candidates: 0, resolved: 0, registered: 0, newEvents: 0, errors: 0 };
    const ctl = new AbortController();
    const unwatch = watchCancel(run.id, ctl);
    try {
      // Asked to stop between the claim and the first look: the worker does not start.
      if (run.cancelRequestedAt) ctl.abort(new RunCancelled());
      const end = await work(run.id, run.companyId, run.createdBy, p, ctl.signal);
      unwatch();
      await runs.finish(run.id, end, null);
      if (end === 'cancelled') deps.log.info({ runId: run.id, progress: p }, 'discovery run cancelled');
    } catch (e) {
      unwatch();
      const message = e instanceof RunFailure ? e.message : `Поиск не завершён: ${(e as Error).message}`.slice(0, 1000);
      if (!(e instanceof RunFailure)) deps.log.warn({ err: errInfo(e), runId }, 'discovery run failed');
      await runs.progress(run.id, p).catch(() => undefined);
      await runs.finish(run.id, 'failed', message);
    }
  };
}
