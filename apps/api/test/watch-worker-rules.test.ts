/*
 * The watch worker's priority rule under concurrency (no database: a fake repository whose priority
 * lookup answers later, as a busy database does). Several records of one round run at once; each
 * must raise its event's priority. The first version cached the lookup with `??=` around an await:
 * a second record replaced the cache while the first waited, and the first then found nothing in it —
 * the rule silently skipped (found by mailings-transitions.test.ts, where two domains gain MX in one round).
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLANK_WATCH_STATE, DEFAULT_WATCH_RULES, type WatchState } from '@forpost/contract/watch';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/client';
import type { Audit } from '../src/lib/audit';
import { createWatch, DEFAULT_WATCH_OPTIONS } from '../src/modules/watch/index';
import { createDestinationLimiter } from '../src/modules/watch/observer';
import { createWatchWorker } from '../src/modules/watch/watch.jobs';
import type { ClaimedTarget, WatchRepo } from '../src/modules/watch/watch.repo';

const parked: WatchState = { ...BLANK_WATCH_STATE, ns: ['ns1.hoster.ru'] };
const withMx: WatchState = { ...parked, mx: ['mx.evil.ru'] };

const target = (eventId: number): ClaimedTarget => ({
  event_id: eventId,
  company_id: 1,
  domain: `d${eventId}.ru`,
  state_id: 1,
  state: parked,
  state_hash: 'h',
  down: false,
  web_misses: 0,
  last_fingerprint: null,
  rules: DEFAULT_WATCH_RULES,
  status_id: 1,
  status_final: false,
  priority_id: null,
  assignee_id: null,
  priority_level: null,
  allowlisted: false,
  observed_at: null,
});

describe('watch worker: the priority rule', () => {
  it('concurrent records of one round each raise their event (the lookup is shared, not lost)', async () => {
    const raised: number[] = [];
    let lookups = 0;
    const repo = {
      async priority() {
        lookups++;
        await new Promise((r) => setTimeout(r, 20));
        return { id: 3, level: 3 };
      },
      async initialStatus() {
        return 1;
      },
      async record() {
        return 1;
      },
      async insertTransitions() {},
      async setPriority(_tx: Db, eventId: number) {
        raised.push(eventId);
      },
    } as unknown as WatchRepo;
    const db = { transaction: (fn: (tx: Db) => Promise<unknown>) => fn({} as Db) } as unknown as Db;
    const worker = createWatchWorker({
      db,
      repo,
      events: { insertHistory: async () => [], findById: async () => undefined, update: async () => {} },
      observer: async () => {
        throw new Error('not used');
      },
      log: { warn() {}, info() {} },
    });
    const kinds = await Promise.all([1, 2, 3, 4].map((id) => worker.record(target(id), withMx)));
    expect(kinds).toEqual([['mx_appeared'], ['mx_appeared'], ['mx_appeared'], ['mx_appeared']]);
    expect(raised.sort()).toEqual([1, 2, 3, 4]);
    expect(lookups).toBe(1);
  });
});

describe('watch limits: operator settings (WATCH_* in the environment)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-watch-'));

  it('defaults 64 domains at once, 4 requests at once and 10 per second to one address; the environment overrides them', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).watch).toEqual(DEFAULT_WATCH_OPTIONS);
    const c = loadConfig({
      DATA_DIR: dataDir,
      WATCH_CONCURRENCY: '8',
      WATCH_DESTINATION_CONCURRENCY: '2',
      WATCH_DESTINATION_RATE: '0.5',
      WATCH_TICK_SECONDS: '5',
    });
    expect(c.watch).toEqual({ concurrency: 8, perDestination: { concurrency: 2, ratePerSecond: 0.5 }, tickSeconds: 5 });
    // buildApp hands them to the watch (app.ts): what a round uses.
    const w = createWatch({
      db: {} as Db,
      audit: {} as Audit,
      configs: { get: async () => 0 } as never,
      log: { warn() {}, info() {} },
      outbound: { allowPrivate: false },
      options: c.watch,
    });
    expect(w.options).toMatchObject(c.watch);
    expect(() => loadConfig({ DATA_DIR: dataDir, WATCH_CONCURRENCY: '0' })).toThrow(/WATCH_CONCURRENCY/);
    expect(() => loadConfig({ DATA_DIR: dataDir, WATCH_DESTINATION_RATE: 'много' })).toThrow(/WATCH_DESTINATION_RATE/);
  });

  it('the per-destination limit holds: never more requests at once to one address than set, others not held', async () => {
    const limit = createDestinationLimiter({ concurrency: 2, ratePerSecond: 10_000 });
    const now = new Map<string, number>();
    const peak = new Map<string, number>();
    const work = (addr: string) =>
      limit(addr, async () => {
        now.set(addr, (now.get(addr) ?? 0) + 1);
        peak.set(addr, Math.max(peak.get(addr) ?? 0, now.get(addr) ?? 0));
        await new Promise((r) => setImmediate(r));
        now.set(addr, (now.get(addr) ?? 0) - 1);
      });
    await Promise.all([
      ...Array.from({ length: 20 }, () => work('10.0.0.1')),
      ...Array.from({ length: 5 }, () => work('10.0.0.2')),
    ]);
    expect(peak.get('10.0.0.1')).toBe(2);
    expect(peak.get('10.0.0.2')).toBe(2);
  });
});
