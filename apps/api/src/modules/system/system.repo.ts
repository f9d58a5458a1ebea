/*
 * SQL of the health and readiness checks. They run on a pool client of their own with a per-query
 * timeout (node-postgres `query_timeout`, which Drizzle does not pass): a check must answer within
 * its time, and a broken connection is discarded, not returned to the pool.
 */
import type pg from 'pg';

async function onClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await fn(client);
  } catch (e) {
    broken = e as Error;
    throw e;
  } finally {
    client.release(broken);
  }
}

export function createSystemRepo(pool: pg.Pool) {
  return {
    /** `SELECT 1`; throws when the database does not answer in time. */
    async ping(timeoutMs: number): Promise<void> {
      await onClient(pool, (client) => client.query({ text: 'SELECT 1', query_timeout: timeoutMs } as never));
    },

    /** The `created_at` of every applied migration; null when nothing was ever applied (no migrations table). */
    async appliedMigrations(timeoutMs: number): Promise<number[] | null> {
      return onClient(pool, async (client) => {
        try {
          const r = await client.query<{ created_at: number | string }>({
            text: 'SELECT created_at FROM drizzle.__drizzle_migrations',
            query_timeout: timeoutMs,
          } as never);
          return r.rows.map((row) => Number(row.created_at));
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code === '42P01' || code === '3F000') return null;
          throw e;
        }
      });
    },
  };
}
