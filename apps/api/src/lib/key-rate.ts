import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeyRateWindows } from '../db/schema/index';

/** Length of a rate-limit window (the limit is per minute). */
const RATE_WINDOW_SECONDS = 60;
/** How often one instance drops the windows that can no longer count (in the same statement as a hit). */
const PRUNE_EVERY_MS = 60_000;

export interface RateHit {
  /** Requests of this key in the current window, this one included. */
  n: number;
  /** Seconds until the window ends (1…60). */
  resetSeconds: number;
}

/**
 * Per-key request counter in PostgreSQL, so every server instance counts against the same limit:
 * one row per key and fixed window (its start taken from the database clock, the same for all
 * instances), bumped by an upsert. One round trip per hit; about once a minute the hit also
 * deletes the windows before the previous one (a data-modifying CTE of the same statement).
 */
export function createKeyRateCounter(db: Db) {
  let lastPrune = 0;
  const t = apiKeyRateWindows;
  return {
    async hit(keyId: number): Promise<RateHit> {
      const now = Date.now();
      const prune = now - lastPrune >= PRUNE_EVERY_MS;
      if (prune) lastPrune = now;
      const win = sql`to_timestamp(floor(extract(epoch FROM now()) / ${RATE_WINDOW_SECONDS}) * ${RATE_WINDOW_SECONDS})`;
      const pruned = prune
        ? sql`, pruned AS (DELETE FROM ${t} WHERE ${t.windowStart} < (SELECT ws FROM w) - make_interval(secs => ${RATE_WINDOW_SECONDS}))`
        : sql``;
      const r = await db.execute<{ n: number; reset: number }>(sql`
        WITH w AS (SELECT ${win} AS ws)${pruned}
        INSERT INTO ${t} AS r (key_id, window_start, n)
        SELECT ${keyId}, ws, 1 FROM w
        ON CONFLICT (key_id, window_start) DO UPDATE SET n = r.n + 1
        RETURNING r.n,
          ceil(extract(epoch FROM r.window_start + make_interval(secs => ${RATE_WINDOW_SECONDS}) - now()))::int AS reset`);
      const row = r.rows[0];
      if (!row) throw new Error('rate counter: no row');
      return { n: Number(row.n), resetSeconds: Math.max(1, Number(row.reset)) };
    },
  };
}
export type KeyRateCounter = ReturnType<typeof createKeyRateCounter>;
