/* SQL of a metrics scrape (plugins/metrics.ts): one multi-statement query on one connection (one round trip). */
import type pg from 'pg';

/** Mailing deliveries and report sends by status; running/queued imports and exports with their row rates. */
const APP_SQL = `
SELECT 'transfer' AS area, 'import' AS kind, status AS label, count(*)::float8 AS n,
       coalesce(sum(rows_read / greatest(extract(epoch FROM now() - started_at), 1)) FILTER (WHERE status = 'running'), 0)::float8 AS rate
  FROM imports WHERE status IN ('queued', 'running') GROUP BY status
UNION ALL
SELECT 'transfer', 'export', status, count(*)::float8,
       coalesce(sum(rows_written / greatest(extract(epoch FROM now() - started_at), 1)) FILTER (WHERE status = 'running'), 0)::float8
  FROM exports WHERE status IN ('queued', 'running') GROUP BY status
UNION ALL
SELECT 'mail', 'mailing', status, count(*)::float8, 0 FROM mailing_deliveries GROUP BY status
UNION ALL
SELECT 'mail', 'report', status, count(*)::float8, 0 FROM report_sends GROUP BY status
UNION ALL
SELECT 'boss', NULL, NULL, (to_regclass('pgboss.job') IS NOT NULL)::int::float8, 0`;

/** Jobs per pg-boss queue and state; a queue with no job still gets its row (zeros). */
const BOSS_SQL = `
SELECT q.name AS queue, j.state::text AS state, count(j.id)::float8 AS n
  FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name
 GROUP BY 1, 2`;

export interface AppRow {
  area: string;
  kind: string | null;
  label: string | null;
  n: number;
  rate: number;
}
export interface BossRow {
  queue: string;
  state: string | null;
  n: number;
}
export interface DbSnapshot {
  app: AppRow[];
  boss: BossRow[];
}

/**
 * The application's and pg-boss's figures (pg-boss's only when `withBoss`: its schema exists), each
 * statement bounded by `timeoutMs` (one implicit transaction: SET LOCAL bounds these statements only).
 */
export async function readScrape(client: pg.PoolClient, withBoss: boolean, timeoutMs: number): Promise<DbSnapshot> {
  const timeout = `SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`;
  const text = [timeout, APP_SQL, ...(withBoss ? [BOSS_SQL] : [])].join(';\n');
  const results = (await client.query(text)) as unknown as pg.QueryResult[];
  return { app: results[1]?.rows as AppRow[], boss: (withBoss ? results[2]?.rows : []) as BossRow[] };
}
