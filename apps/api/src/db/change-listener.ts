import pg from 'pg';
import type { Logger } from '../lib/logger';
import { errInfo } from '../lib/logger';

export interface ChangeListener {
  /** Starts listening if needed; true once LISTEN is active (false while the database is unreachable). */
  ensure(): Promise<boolean>;
  readonly ready: boolean;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;

/** Connection settings of a pool, for one extra dedicated connection. */
export function connectionOf(pool: pg.Pool): pg.ClientConfig {
  const o = pool.options as pg.PoolConfig;
  return {
    connectionString: o.connectionString,
    host: o.host,
    port: o.port,
    user: o.user,
    password: o.password,
    database: o.database,
    ssl: o.ssl,
    connectionTimeoutMillis: o.connectionTimeoutMillis ?? 5000,
  };
}

/**
 * A dedicated connection LISTENing on `channel` — one name or several (NOTIFY is delivered to every
 * instance on the database, in commit order across the channels of one connection).
 * `onChange(payload, channel)` per notification; `onReset()` whenever the connection is lost, since
 * notifications may have been missed meanwhile. Reconnects with backoff, never throws.
 */
export function createChangeListener(opts: {
  connection: pg.ClientConfig;
  channel: string | readonly string[];
  onChange: (payload: string, channel: string) => void;
  onReset: () => void;
  log: Pick<Logger, 'warn'>;
}): ChangeListener {
  const channels: readonly string[] = typeof opts.channel === 'string' ? [opts.channel] : opts.channel;
  for (const ch of channels) if (!/^[a-z_][a-z0-9_]*$/.test(ch)) throw new Error(`bad channel name ${ch}`);
  const label = channels.join(',');
  let client: pg.Client | null = null;
  let ready = false;
  let closed = false;
  let starting: Promise<boolean> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let backoff = 500;

  function lost(c: pg.Client, err?: Error) {
    if (client !== c) return;
    client = null;
    if (err) opts.log.warn({ err: errInfo(err) }, `LISTEN ${label}: connection lost`);
    if (ready) {
      ready = false;
      opts.onReset();
    }
    c.end().catch(() => {});
    schedule();
  }

  function schedule() {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void ensure();
    }, backoff);
    retry.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }

  async function connect(): Promise<boolean> {
    const c = new pg.Client({ ...opts.connection, application_name: `forpost-listen-${label}`.slice(0, 63), keepAlive: true });
    client = c;
    c.on('notification', (m) => {
      if (channels.includes(m.channel)) opts.onChange(m.payload ?? '', m.channel);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const ch of channels) await c.query(`LISTEN ${ch}`);
    } catch (err) {
      lost(c, err as Error);
      return false;
    }
    if (closed || client !== c) {
      await c.end().catch(() => {});
      return false;
    }
    ready = true;
    backoff = 500;
    // Anything cached before LISTEN was active may already be stale.
    opts.onReset();
    return true;
  }

  function ensure(): Promise<boolean> {
    if (ready) return Promise.resolve(true);
    if (closed || retry) return Promise.resolve(false);
    starting ??= connect().finally(() => {
      starting = null;
    });
    return starting;
  }

  return {
    ensure,
    get ready() {
      return ready;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      await starting?.catch(() => false);
      const c = client;
      client = null;
      ready = false;
      await c?.end().catch(() => {});
    },
  };
}
