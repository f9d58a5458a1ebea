/*
 * The watch worker's priority rule under concurrency (no database: a fake repository whose priority
 * lookup answers later, as a busy database does). Several records of one round run at once; each
 * must raise its event's priority. The first version cached the lookup with `??=` around an await:
 * a second record replaced the cache while the first waited, and the first then found nothing in it —
 * the rule silently skipped (found by mailings-transitions.test.ts, where two domains gain MX in one round).
 */
import { BLANK_WATCH_STATE, DEFAULT_WATCH_RULES, type WatchState } from '@forpost/contract/watch';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
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
