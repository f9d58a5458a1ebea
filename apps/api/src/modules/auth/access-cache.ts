/*
 * Who a credential is — a session's user and memberships, an API key's owner and roles — kept in
 * this process for a few seconds, so that a burst of requests with one cookie or key does not read
 * the same rows once per request (one statement of the two a list request costs: bench/README,
 * http.bench; docs/decisions.md, «Путь запроса: кто вызывает — из памяти процесса»).
 *
 * Never staler than a change, on any instance:
 *   - the database announces every change that can narrow access — a session revoked or cut short,
 *     any change of a user, a membership, a company or an API key — by NOTIFY on ACCESS_CHANNEL
 *     from triggers (migration 0034_access_notify), whatever code path or process made it; every
 *     instance LISTENs and drops everything it holds;
 *   - while that LISTEN connection is down nothing is cached (every request reads the database), and
 *     on reconnecting everything is dropped (notifications may have been missed);
 *   - this process's own successful writes drop the cache before their answer leaves (plugins/access.ts),
 *     so the next request of the same client never races its own notification;
 *   - a value read while a notification arrived is not stored (it may predate the change);
 *   - an entry lives at most ACCESS_CACHE_MS (5 s) and never past the credential's own expiry.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../../lib/logger';
import { type ChangeListener, connectionOf, createChangeListener } from '../configs/change-listener';

/** The channel the access triggers notify (migration 0034_access_notify). */
export const ACCESS_CHANNEL = 'forpost_access';
const SYNC_PREFIX = 'sync:';
/** Most credentials held at once; past it the oldest go. */
export const ACCESS_CACHE_ENTRIES = 10_000;

/** A cached credential: it is never kept past its own end. */
export interface Expiring {
  readonly expiresAtMs: number | null;
}

export interface AccessCache {
  /**
   * The value of `key`: cached, or `load()`ed and kept until its `expiresAtMs` (ms since the epoch;
   * null: no expiry of its own) or the TTL, whichever is sooner. A null/undefined value (no such
   * credential) is not kept.
   */
  through<T extends Expiring>(key: string, load: () => Promise<T | null | undefined>): Promise<T | null>;
  /** Drops every entry (a change of access on this instance). */
  clear(): void;
  /**
   * Resolves once every change committed before the call has been announced to this instance
   * (a notification of its own, delivered after theirs; PostgreSQL delivers in commit order) and
   * LISTEN is up, or when there is no cache. For a caller that changed access outside this
   * instance and must see it now (tests, scripts).
   */
  sync(): Promise<void>;
  readonly size: number;
  close(): Promise<void>;
}

export function createAccessCache(deps: {
  /** The application's pool: its connection settings open the LISTEN connection. */
  pool: pg.Pool;
  log: Pick<Logger, 'warn'>;
  /** How long an entry is trusted at most (ACCESS_CACHE_MS; a safety net, NOTIFY is the real signal; 0: no cache). */
  ttlMs: number;
  maxEntries?: number;
}): AccessCache {
  const ttlMs = deps.ttlMs;
  const maxEntries = deps.maxEntries ?? ACCESS_CACHE_ENTRIES;
  const entries = new Map<string, { value: unknown; until: number }>();
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
  };
  const waiting = new Map<string, () => void>();
  const onChange = (payload: string) => {
    // A probe of sync() (of this instance or another) announces no change.
    if (payload.startsWith(SYNC_PREFIX)) waiting.get(payload)?.();
    else clear();
  };
  const onReset = () => {
    clear();
    for (const resolve of waiting.values()) resolve();
  };
  const listener: ChangeListener | null =
    ttlMs > 0
      ? createChangeListener({
          connection: connectionOf(deps.pool),
          channel: ACCESS_CHANNEL,
          onChange,
          onReset,
          log: deps.log,
        })
      : null;

  return {
    async through(key, load) {
      if (!listener?.ready) {
        void listener?.ensure();
        return (await load()) ?? null;
      }
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.until > now) return hit.value as never;
      if (hit) entries.delete(key);
      const gen = generation;
      const value = await load();
      if (value == null) return null;
      const until = Math.min(now + ttlMs, value.expiresAtMs ?? Number.POSITIVE_INFINITY);
      // Stored only if no change was announced while it was read, and LISTEN is still up.
      if (gen === generation && listener.ready && until > Date.now()) {
        entries.set(key, { value, until });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return value;
    },
    clear,
    async sync() {
      if (!listener || !(await listener.ensure())) return;
      const token = `${SYNC_PREFIX}${randomUUID()}`;
      let timer: NodeJS.Timeout | undefined;
      // (the connection lost meanwhile resolves it too: on reconnecting nothing older is left either)
      const seen = new Promise<void>((resolve) => {
        waiting.set(token, resolve);
        timer = setTimeout(resolve, 5000);
      });
      try {
        await deps.pool.query('SELECT pg_notify($1, $2)', [ACCESS_CHANNEL, token]);
        await seen;
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    get size() {
      return entries.size;
    },
    async close() {
      clear();
      await listener?.close();
    },
  };
}

/**
 * `v` and everything in it made read-only: a cached value is shared by the requests that hit it, so
 * a request that changed it would change the others' (strict mode turns such a write into an error).
 */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
