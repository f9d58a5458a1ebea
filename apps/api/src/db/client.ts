import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Logger } from '../lib/logger';
import { errInfo } from '../lib/logger';
import * as schema from './schema/index';

export type Db = NodePgDatabase<typeof schema>;
export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

// Return int8/bigint and numeric as JS numbers where they fit; counts come back as strings otherwise.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * A Db over one checked-out client, for code that runs its own BEGIN … COMMIT on a raw pg client
 * (jobs-kit inClientTransaction): `audit.record(actor, entry, clientDb(client))` writes the entry
 * inside that transaction.
 */
export function clientDb(client: pg.PoolClient): Db {
  return drizzle(client, { schema }) as unknown as Db;
}

/**
 * A pool that survives database restarts: an idle client's error (e.g. the server shut down)
 * is logged, never thrown, and the next query reconnects.
 */
export function createDatabase(url: string, log: Pick<Logger, 'warn'>, max = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'forpost',
  });
  pool.on('error', (err) => log.warn({ err: errInfo(err) }, 'db pool client error'));
  // A checked-out client whose connection dies (server restart, terminated backend) rejects its
  // running query — the caller sees that — and also emits 'error'; with no listener that event
  // would be an uncaught exception ending the process. Idle clients' errors are logged above.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return {
    pool,
    db,
    close: () => pool.end(),
  };
}

/** Errors that mean "the database is not reachable right now" (→ 503, not 500). */
export function isDbUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | undefined;
  if (!e) return false;
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300'].includes(code))
    return true;
  if (code.startsWith('08')) return true;
  const m = e.message ?? '';
  if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(m))
    return true;
  return e.cause ? isDbUnavailable(e.cause) : false;
}
