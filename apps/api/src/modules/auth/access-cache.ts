/*
 * Who a credential is — a session's user and memberships, an API key's owner and roles — kept in
 * this process for a few seconds, so that a burst of requests with one cookie or key does not read
 * the same rows once per request (one statement of the two a list request costs: bench/README,
 * http.bench; docs/decisions.md, «Путь запроса: кто вызывает — из памяти процесса»).
 *
 * How it stays true is db/notify-cache.ts's: the database announces every change that can narrow
 * access — a session revoked or cut short, any change of a user, a membership, a company or an API
 * key — on ACCESS_CHANNEL from triggers (migration 0034_access_notify); every instance drops what it
 * holds. An entry lives at most ACCESS_CACHE_MS (5 s) and never past the credential's own expiry.
 */
import type pg from 'pg';
import { createNotifyCache, type NotifyCache } from '../../db/notify-cache';
import type { Logger } from '../../lib/logger';

export { deepFreeze } from '../../db/notify-cache';

/** The channel the access triggers notify (migration 0034_access_notify). */
export const ACCESS_CHANNEL = 'forpost_access';
/** Most credentials held at once; past it the oldest go. */
export const ACCESS_CACHE_ENTRIES = 10_000;

/** A cached credential: it is never kept past its own end (ms since the epoch; null: no end of its own). */
export interface Expiring {
  readonly expiresAtMs: number | null;
}

export type AccessCache = NotifyCache<Expiring>;

/** `ttlMs`: ACCESS_CACHE_MS (0: no cache). */
export function createAccessCache(deps: { pool: pg.Pool; log: Pick<Logger, 'warn'>; ttlMs: number }): AccessCache {
  return createNotifyCache<Expiring>({
    ...deps,
    channels: [ACCESS_CHANNEL],
    maxWeight: ACCESS_CACHE_ENTRIES,
    expiresAt: (v) => v.expiresAtMs,
  });
}
