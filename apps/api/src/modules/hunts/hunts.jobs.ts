/*
 * The hunts' background side: a pg-boss job per byte range (`hunt-range`, data `{ id: rangeId }` — never a
 * line or a password), the takeover of a range whose worker died (jobs-kit's stalled-record sweep over
 * hunt_ranges: status running, heartbeat older than the takeover time, nobody holds LOCK_HUNT), and the
 * failure of a hunt after the last retry of one of its ranges.
 */
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { attachRecordJobs, inClientTransaction, onClient, takeOverStalled } from '../../db/jobs-kit';
import type { Logger } from '../../lib/logger';
import { HUNT_MSG, type HuntsService, LOCK_HUNT } from './hunts.service';

export const HUNT_QUEUE = 'hunt-range';
const HUNT_MAINTENANCE = 'hunt-maintenance';
const SEND = { retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 };

export function createHuntJobs(p: { pool: pg.Pool; svc: () => HuntsService; log: Pick<Logger, 'warn'> }) {
  let boss: PgBoss | null = null;
  const sweep = (b: PgBoss) =>
    takeOverStalled(p.pool, b, { table: 'hunt_ranges', lock: LOCK_HUNT, queue: HUNT_QUEUE, sendOptions: SEND });
  return {
    /** Queues one job per range (the jobs exist exactly when the ranges are committed: sent after). */
    async enqueue(rangeIds: number[]) {
      const b = boss;
      if (!b) return; // no queue attached (tests run ranges themselves; the sweep sends lost queued ones)
      await inClientTransaction(p.pool, async (client) => {
        for (const id of rangeIds) await b.send(HUNT_QUEUE, { id }, { ...SEND, db: onClient(client) });
      });
    },
    async attach(b: PgBoss, opts: { work: boolean }) {
      boss = b;
      await attachRecordJobs(b, opts, {
        queue: HUNT_QUEUE,
        failure: 'hunt range job failed',
        idKey: 'rangeId',
        run: (id) => p.svc().runRange(id),
        fail: async (rangeId, message) => {
          const r = await p.svc().repo.range(rangeId);
          if (r) await p.svc().fail(r.hunt_id, message);
        },
        failedMessage: HUNT_MSG.failed,
        maintenance: {
          queue: HUNT_MAINTENANCE,
          expireInSeconds: 300,
          pollingIntervalSeconds: 5,
          cron: '* * * * *',
          run: async () => {
            await sweep(b);
          },
        },
        sweep,
        log: p.log,
      });
    },
    sweep,
  };
}
