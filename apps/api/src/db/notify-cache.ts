/*
 * Values read from the database, kept in this process for a few seconds and dropped on every instance
 * the moment the database announces a change of what they were read from. Two caches are built on it:
 * who a credential is (modules/auth/access-cache.ts) and the first pages of the event lists
 * (modules/events/list-cache.ts); docs/decisions.md, «Путь запроса: кто вызывает — из памяти процесса»
 * and «Путь запроса: одна и та же страница списка».
 *
 * Never staler than a change, on any instance:
 *   - triggers announce every change of the tables a value is read from by NOTIFY on the cache's
 *     channels, whatever code path or process made it; every instance LISTENs and drops everything;
 *   - while that LISTEN connection is down nothing is cached (every call reads the database), and on
 *     reconnecting everything is dropped (notifications may have been missed);
 *   - this process's own successful writes drop the caches before their answer leaves
 *     (plugins/access.ts), so the next request of the same client never races its own notification;
 *   - a value read while a notification arrived is not stored (it may predate the change), nor
 *     shared with the callers that asked after it (they read again);
 *   - an entry lives at most `ttlMs` and never past the value's own end (`expiresAt`).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../lib/logger';
import { type ChangeListener, connectionOf, createChangeListener } from './change-listener';

const SYNC_PREFIX = 'sync:';

export interface NotifyCache<T> {
  /**
   * The value of `key`: cached, or `load()`ed and kept until the value's end (`expiresAt`) or the
   * TTL, whichever is sooner. A null/undefined value is not kept.
   */
  through<V extends T>(key: string, load: () => Promise<V | null | undefined>): Promise<V | null>;
  /** Drops every entry (a change on this instance). */
  clear(): void;
  /**
   * Resolves once every change committed before the call has been announced to this instance
   * (a notification of its own, delivered after theirs; PostgreSQL delivers in commit order) and
   * LISTEN is up, or when there is no cache. For a caller that changed the data outside this
   * instance and must see it now (tests, scripts).
   */
  sync(): Promise<void>;
  readonly size: number;
  close(): Promise<void>;
}

export function createNotifyCache<T>(deps: {
  /** The application's pool: its connection settings open the LISTEN connection. */
  pool: pg.Pool;
  log: Pick<Logger, 'warn'>;
  /** The channels whose notifications drop everything (the first also carries sync()'s probes). */
  channels: readonly [string, ...string[]];
  /** How long an entry is trusted at most (a safety net, NOTIFY is the real signal; 0: no cache). */
  ttlMs: number;
  /** Most held at once, by weight (`weigh`, 1 per entry by default); past it the oldest go. */
  maxWeight: number;
  /** How much of `maxWeight` a value takes under its key (a list page: its size). */
  weigh?: (value: T, key: string) => number;
  /** When a value stops being true by itself (ms since the epoch; null: never). */
  expiresAt: (value: T) => number | null;
}): NotifyCache<T> {
  const { ttlMs, maxWeight } = deps;
  const weigh = deps.weigh ?? (() => 1);
  const entries = new Map<string, { value: unknown; until: number; weight: number }>();
  let held = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    held -= e.weight;
    entries.delete(key);
  };
  /** Reads in flight: the callers asking for the same key meanwhile wait for the one read. */
  const reading = new Map<string, Promise<unknown>>();
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
    held = 0;
    // a read begun before a change is not shared with the callers that come after it
    reading.clear();
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
          channel: deps.channels,
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
      if (hit) drop(key);
      // Right after a change every client asks again at once: one read answers them all.
      const inFlight = reading.get(key);
      if (inFlight) return inFlight as never;
      const gen = generation;
      const read = (async () => {
        const value = await load();
        if (value == null) return null;
        const until = Math.min(now + ttlMs, deps.expiresAt(value) ?? Number.POSITIVE_INFINITY);
        // Stored only if no change was announced while it was read, and LISTEN is still up.
        const weight = Math.max(1, weigh(value, key));
        if (gen === generation && listener.ready && until > Date.now() && weight <= maxWeight) {
          drop(key);
          entries.set(key, { value, until, weight });
          held += weight;
          while (held > maxWeight) drop(entries.keys().next().value as string);
        }
        return value;
      })();
      reading.set(key, read);
      try {
        return await read;
      } finally {
        if (reading.get(key) === read) reading.delete(key);
      }
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
        await deps.pool.query('SELECT pg_notify($1, $2)', [deps.channels[0], token]);
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
