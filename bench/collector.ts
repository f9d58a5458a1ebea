/*
 * A collector's write load for the read benchmarks (issue #18: «write throughput while reading»):
 * 20 events a second on schedule (whatever each insert took), a random company and module, created
 * now — so on the first page of every list and inside every chart's period. One INSERT per event,
 * as the API writes one; the table's triggers (search lexicon, SLA, rollup deltas) run as in
 * production. `every` runs between two events (the analytics bench folds the deltas there).
 */
import { performance } from 'node:perf_hooks';
import { MODULE_CODES } from '@forpost/contract/modules';
import type pg from 'pg';

export function startCollector(pool: pg.Pool, companyIds: number[], every?: () => Promise<void>) {
  let writing = true;
  let written = 0;
  const started = performance.now();
  const done = (async () => {
    let next = performance.now();
    while (writing) {
      await pool.query(
        `INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, data, search, created_at, updated_at)
         SELECT $1, $2::text, 'запись во время замера: мошенники', s.id, 'Other', 'Done', md5(random()::text), '{}'::jsonb,
                to_tsvector('russian', 'запись во время замера мошенники'), now(), now()
         FROM event_statuses s WHERE s.module = $2::text AND s.code = 'new'`,
        [companyIds[written % companyIds.length], MODULE_CODES[(written * 7) % MODULE_CODES.length]],
      );
      written++;
      await every?.();
      next += 50;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  })();
  /** Stops the writes; resolves to how many were written and at what rate. */
  return async (): Promise<{ written: number; perSecond: number }> => {
    writing = false;
    await done;
    return { written, perSecond: written / ((performance.now() - started) / 1000) };
  };
}
