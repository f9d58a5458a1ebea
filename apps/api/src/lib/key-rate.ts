import type { Db } from '../db/client';
import { hitWindow } from './key-rate.repo';

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
  return {
    async hit(keyId: number): Promise<RateHit> {
      const now = Date.now();
      const prune = now - lastPrune >= PRUNE_EVERY_MS;
      if (prune) lastPrune = now;
      const row = await hitWindow(db, keyId, RATE_WINDOW_SECONDS, prune);
      if (!row) throw new Error('rate counter: no row');
      return { n: Number(row.n), resetSeconds: Math.max(1, Number(row.reset)) };
    },
  };
}
export type KeyRateCounter = ReturnType<typeof createKeyRateCounter>;
