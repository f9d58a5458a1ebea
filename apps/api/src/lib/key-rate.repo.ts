/* SQL of the per-key request counter (key-rate.ts): one upsert per hit. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeyRateWindows } from '../db/schema/index';

/**
 * Counts a hit of `keyId` in the current fixed window of `seconds` (its start from the database clock)
 * and returns the window's count and the seconds until it ends; with `prune`, the same statement drops
 * the windows before the previous one (a data-modifying CTE).
 */
export async function hitWindow(
  db: Db,
  keyId: number,
  seconds: number,
  prune: boolean,
): Promise<{ n: number; reset: number } | undefined> {
  const t = apiKeyRateWindows;
  const win = sql`to_timestamp(floor(extract(epoch FROM now()) / ${seconds}) * ${seconds})`;
  const pruned = prune
    ? sql`, pruned AS (DELETE FROM ${t} WHERE ${t.windowStart} < (SELECT ws FROM w) - make_interval(secs => ${seconds}))`
    : sql``;
  const r = await db.execute<{ n: number; reset: number }>(sql`
    WITH w AS (SELECT ${win} AS ws)${pruned}
    INSERT INTO ${t} AS r (key_id, window_start, n)
    SELECT ${keyId}, ws, 1 FROM w
    ON CONFLICT (key_id, window_start) DO UPDATE SET n = r.n + 1
    RETURNING r.n,
      ceil(extract(epoch FROM r.window_start + make_interval(secs => ${seconds}) - now()))::int AS reset`);
  return r.rows[0];
}
