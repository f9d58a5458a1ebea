/*
 * The CT monitor: for each configured log, reads the entries after the saved position (followLog), matches
 * every name against each company's assets (createMatcher: own domains excluded; permutations, keywords,
 * similarity threshold) and raises domain events with source «CT». Each batch's events and the log's next
 * index commit in one transaction, so a restart resumes exactly where the last batch ended; the batch's new
 * events then get their snapshot probe queued. One pass at a
 * time across all processes (a session advisory lock, db/jobs-kit withSessionLock); ROLE=all|worker run it.
 */
import { isDomain } from '@forpost/contract/validation';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { withSessionLock } from '../../db/jobs-kit';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import type { ConfigsService } from '../configs/index';
import type { AssetsRepo } from './assets.repo';
import { type CtClient, createCtClient } from './ct/client';
import { followLog } from './ct/follow';
import { type AssetMatcher, createMatcher } from './ct/match';
import type { CtEntry } from './ct/parse';
import type { CtStateRepo } from './ct-monitor.repo';
import type { EventRaiser, Finding } from './discovery.events';
import { discoverySettings } from './discovery.service';
import { generatePermutations } from './permutations';

/** pg_advisory_lock key of the CT monitor (one pass in the cluster at a time). */
const CT_LOCK = 0x43540001;
const BATCH_SIZE = 256;
const CT_TIMEOUT_MS = 15_000;
/** A log seen for the first time is read from this many entries before its current end. */
export const CT_INITIAL_BACKLOG = 10_000;

/**
 * Where the certificates of a batch go besides the matcher (the watch, #31: certificates naming a
 * watched domain). `record` runs in the batch's transaction; `wanted` says whether to follow the logs
 * for it when no company has assets.
 */
export interface CtCertificateSink {
  wanted(): Promise<boolean>;
  record(tx: Db, entries: readonly CtEntry[]): Promise<number>;
}

interface CompanyMatcher {
  companyId: number;
  matcher: AssetMatcher;
}

/** The domains module's input of a certificate name that matched an asset. */
export function ctInput(e: CtEntry, name: string, hit: { asset: string; score: number }): Record<string, unknown> {
  return {
    domain: name,
    asset: hit.asset,
    similarity: Math.max(0, Math.min(100, Math.round(hit.score * 100))),
    ct_issuer: e.issuer.slice(0, 1000) || undefined,
    ct_not_before: e.notBefore,
    ct_not_after: e.notAfter,
    ct_names: e.names.join(', ').slice(0, 10_000),
  };
}

export function createCtMonitor(deps: {
  db: Db;
  pool: pg.Pool;
  configs: Pick<ConfigsService, 'get'>;
  assets: AssetsRepo;
  state: CtStateRepo;
  raise: () => EventRaiser;
  /** Queues the snapshot probe of new events (called after their transaction commits). */
  snapshot: (eventIds: number[]) => Promise<void>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** The client of a log URL (tests may wrap it); default: RFC 6962 over HTTP. */
  client?: (url: string) => CtClient;
  /** The SSRF guard of the default client's requests (lib/outbound.ts). */
  outbound: OutboundPolicy;
  /** The sink registered now (discovery onCertificates), if any. */
  certificates?: () => CtCertificateSink | null;
}) {
  const { db, state } = deps;
  const clientOf = deps.client ?? ((url: string) => createCtClient({ url, timeoutMs: CT_TIMEOUT_MS, outbound: deps.outbound }));

  async function matchers(threshold: number): Promise<CompanyMatcher[]> {
    const out: CompanyMatcher[] = [];
    for (const companyId of await deps.assets.companiesWithAssets()) {
      const assets = await deps.assets.enabled(companyId);
      const domains = assets.filter((a) => a.kind === 'domain');
      const permutations = new Set<string>();
      for (const d of domains) for (const c of generatePermutations(d.unicode)) permutations.add(c.domain);
      out.push({
        companyId,
        matcher: createMatcher({
          domains: domains.map((d) => d.value),
          permutations,
          keywords: assets.filter((a) => a.kind === 'keyword').map((a) => a.unicode),
          threshold,
        }),
      });
    }
    return out;
  }

  /**
   * Findings of a batch: one per certificate and company — the matching name with the fewest labels
   * (`www.x.ru` and `x.ru` in one certificate are one finding; all names are in `ct_names`).
   */
  function findingsOf(entries: readonly CtEntry[], ms: readonly CompanyMatcher[]): Finding[] {
    const out: Finding[] = [];
    const labels = (n: string) => n.split('.').length;
    for (const e of entries) {
      const names = e.names.filter(isDomain).sort((a, b) => labels(a) - labels(b) || a.localeCompare(b));
      for (const m of ms)
        for (const name of names) {
          const hit = m.matcher.match(name);
          if (!hit) continue;
          out.push({ companyId: m.companyId, input: ctInput(e, name, hit) });
          break;
        }
    }
    return out;
  }

  /** Follows one log from its saved position until caught up; returns entries read and events raised. */
  async function followOne(url: string, ms: CompanyMatcher[], signal: AbortSignal) {
    const client = clientOf(url);
    let from = await state.nextIndex(url);
    if (from === null) {
      const { treeSize } = await client.getSth();
      from = await state.begin(url, Math.max(0, treeSize - CT_INITIAL_BACKLOG), treeSize);
    }
    const raise = deps.raise();
    let created = 0;
    let at = from;
    const res = await followLog({
      client,
      from,
      batchSize: BATCH_SIZE,
      signal,
      onBatch: async (entries, nextIndex) => {
        const findings = findingsOf(entries, ms);
        const sink = deps.certificates?.();
        const ids = await db.transaction(async (tx) => {
          if (sink) await sink.record(tx, entries);
          const r = await raise(tx, findings, 'CT', null);
          created += r.created;
          if (!(await state.advance(url, at, nextIndex, null, tx)))
            throw new Error(`Позиция журнала CT ${url} изменена другим процессом`);
          return r.ids;
        });
        at = nextIndex;
        if (ids.length) await deps.snapshot(ids);
      },
    });
    return { ...res, created };
  }

  /** One pass over every configured log (nothing when discovery is off or another process holds the pass). */
  async function pass(stopped: () => boolean = () => false): Promise<{ processed: number; created: number } | null> {
    const s = await discoverySettings(deps.configs);
    if (!s.enabled || !s.ctLogs.length) return null;
    const done = await withSessionLock(deps.pool, CT_LOCK, async () => {
      const ms = await matchers(s.ctThreshold);
      const total = { processed: 0, created: 0 };
      if (!ms.length && !(await deps.certificates?.()?.wanted())) return total;
      const abort = new AbortController();
      const watch = setInterval(() => stopped() && abort.abort(), 200);
      try {
        for (const url of s.ctLogs) {
          if (stopped()) break;
          try {
            const r = await followOne(url, ms, abort.signal);
            total.processed += r.processed;
            total.created += r.created;
          } catch (e) {
            deps.log.warn({ err: errInfo(e), url }, 'CT log follow failed');
          }
        }
      } finally {
        clearInterval(watch);
      }
      return total;
    });
    return done ?? null;
  }

  return { pass };
}
export type CtMonitor = ReturnType<typeof createCtMonitor>;
