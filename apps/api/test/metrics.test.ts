import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/client';
import { METRICS_TOKEN_MSG } from '../src/plugins/metrics';
import { setupApp, type TestContext } from './helpers';
import { attachJobs } from './imports-kit';

const TOKEN = randomBytes(24).toString('hex');

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(ctx: TestContext): Promise<Sample[]> {
  const r = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode).toBe(200);
  return parse(r.body);
}

describe('metrics off (default) and readiness', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await setupApp();
  });

  it('/metrics is 404 like an unknown path, also with a token', async () => {
    expect(ctx.app.metrics).toBeNull();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const r = await ctx.app.inject({ url: '/metrics', headers });
      expect(r.statusCode).toBe(404);
      const unknown = await ctx.app.inject({ url: '/api/v1/no-such-thing' });
      expect(r.json()).toEqual(unknown.json());
    }
  });

  it('readiness: 200 with every check ok; liveness unchanged', async () => {
    const r = await ctx.app.inject({ url: '/api/v1/ready' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
    const h = await ctx.app.inject({ url: '/api/v1/health' });
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ status: 'ok' });
  });

  it('readiness: 503 when a migration is missing or the database has one the code does not know', async () => {
    const pool = ctx.database.pool;
    const { rows } = await pool.query<{ id: number; hash: string; created_at: number }>(
      'SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
    );
    const last = rows[0];
    if (!last) throw new Error('no migrations applied');
    await pool.query('DELETE FROM drizzle.__drizzle_migrations WHERE id = $1', [last.id]);
    let r = await ctx.app.inject({ url: '/api/v1/ready' });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending', storage: 'ok' } });

    await pool.query('INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)', [
      last.id,
      last.hash,
      last.created_at,
    ]);
    expect((await ctx.app.inject({ url: '/api/v1/ready' })).statusCode).toBe(200);

    await pool.query(`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('newer', $1)`, [
      Number(last.created_at) + 1000,
    ]);
    r = await ctx.app.inject({ url: '/api/v1/ready' });
    expect(r.statusCode).toBe(503);
    expect(r.json().checks.migrations).toBe('ahead');
    await pool.query(`DELETE FROM drizzle.__drizzle_migrations WHERE hash = 'newer'`);
    expect((await ctx.app.inject({ url: '/api/v1/ready' })).statusCode).toBe(200);
  });

  it('readiness: 503 when the files directory is not usable, 200 again once it is', async () => {
    const dir = path.join(ctx.config.dataDir, 'files');
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a directory');
    try {
      const r = await ctx.app.inject({ url: '/api/v1/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: 'ok', storage: 'failed' } });
    } finally {
      rmSync(dir, { force: true });
      mkdirSync(dir, { recursive: true });
    }
    expect((await ctx.app.inject({ url: '/api/v1/ready' })).statusCode).toBe(200);
  });

  it('readiness: 503 with the database closed (liveness says unavailable too); metrics still answer', async () => {
    const database = createDatabase(ctx.url, { warn() {} });
    const config = { ...ctx.config, metrics: { host: '127.0.0.1', token: TOKEN } };
    const app = await buildApp({ config, database, logger: false });
    try {
      expect((await app.inject({ url: '/api/v1/ready' })).statusCode).toBe(200);
      await database.close();
      const r = await app.inject({ url: '/api/v1/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({
        status: 'not_ready',
        checks: { database: 'failed', migrations: 'failed', storage: 'ok' },
      });
      expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(503);
      const m = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(m.statusCode).toBe(200);
      const s = parse(m.body);
      expect(value(s, 'forpost_metrics_database_ok')).toBe(0);
      expect(value(s, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(s.some((x) => x.name === 'forpost_mail_messages')).toBe(false);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

describe('metrics with METRICS_TOKEN (and METRICS_PORT: the token is asked on both)', () => {
  let ctx: TestContext;
  let boss: PgBoss;
  beforeAll(async () => {
    ctx = await setupApp({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0' });
    boss = await attachJobs(ctx, false);
  });

  it('401 in the standard shape without the token or with a wrong one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer ']) {
      const r = await ctx.app.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(r.json()).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: METRICS_TOKEN_MSG });
    }
    const own = ctx.app.metrics?.address();
    if (!own) throw new Error('no metrics listener');
    const r = await fetch(`http://${own.host}:${own.port}/metrics`);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: METRICS_TOKEN_MSG });
    const ok = await fetch(`http://${own.host}:${own.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it('200 text exposition with the token: default process metrics and the database pool', async () => {
    const r = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = parse(r.body);
    expect(value(s, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value(s, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(value(s, 'forpost_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(s, 'forpost_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(value(s, 'forpost_db_pool_waiting')).toBe(0);
    expect(value(s, 'forpost_metrics_database_ok')).toBe(1);
  });

  it('the HTTP histogram is by route pattern and status code, never the raw URL', async () => {
    await ctx.app.inject({ url: '/api/v1/health' });
    await ctx.app.inject({ url: '/api/v1/health' });
    await ctx.app.inject({ url: '/api/v1/tags/12345' }); // not signed in: 401
    await ctx.app.inject({ url: '/api/v1/no-such-route-67890' });
    const r = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    const s = parse(r.body);
    const count = (route: string, status: string) =>
      value(s, 'forpost_http_request_duration_seconds_count', { method: 'GET', route, status_code: status });
    expect(count('/api/v1/health', '200')).toBe(2);
    expect(count('/api/v1/tags/:id', '401')).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    expect(
      value(s, 'forpost_http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/api/v1/health',
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(2);
    expect(r.body).not.toContain('12345');
    expect(r.body).not.toContain('67890');
  });

  it('pg-boss queues: depth (queued/active) and outcomes (completed/failed) per queue', async () => {
    const q = 'metrics-test';
    await boss.createQueue(q, { name: q, retryLimit: 0 });
    let s = await scrape(ctx);
    expect(value(s, 'forpost_jobs_queued', { queue: q })).toBe(0);
    expect(value(s, 'forpost_jobs_queued', { queue: 'imports-run' })).toBe(0);

    for (let i = 0; i < 4; i++) await boss.send(q, { i });
    s = await scrape(ctx);
    expect(value(s, 'forpost_jobs_queued', { queue: q })).toBe(4);
    expect(value(s, 'forpost_jobs_active', { queue: q })).toBe(0);

    const jobs = await boss.fetch(q, { batchSize: 3 });
    expect(jobs).toHaveLength(3);
    const [a, b] = jobs;
    if (!a || !b) throw new Error('no jobs');
    await boss.complete(q, a.id);
    await boss.fail(q, b.id, { message: 'test' });
    s = await scrape(ctx);
    expect(value(s, 'forpost_jobs_queued', { queue: q })).toBe(1);
    expect(value(s, 'forpost_jobs_active', { queue: q })).toBe(1);
    expect(value(s, 'forpost_jobs_finished', { queue: q, outcome: 'completed' })).toBe(1);
    expect(value(s, 'forpost_jobs_finished', { queue: q, outcome: 'failed' })).toBe(1);
    expect(value(s, 'forpost_jobs_finished', { queue: q, outcome: 'cancelled' })).toBe(0);
  });

  it('imports/exports in progress with their rows per second; mail sends by status', async () => {
    let s = await scrape(ctx);
    expect(value(s, 'forpost_transfer_jobs', { kind: 'import', status: 'running' })).toBe(0);
    expect(value(s, 'forpost_transfer_rows_per_second', { kind: 'export' })).toBe(0);

    const pool = ctx.database.pool;
    await pool.query(
      `INSERT INTO imports (module, file_name, file_size, format, headers, mapping, status, rows_read, started_at)
       VALUES ('leaks_catalogue', 'a.csv', 1, 'csv', '[]', '[]', 'running', 1000, now() - interval '10 seconds'),
              ('leaks_catalogue', 'b.csv', 1, 'csv', '[]', '[]', 'queued', 0, NULL)`,
    );
    const c = await pool.query<{ id: number }>(`INSERT INTO companies (name) VALUES ('Метрики') RETURNING id`);
    const rep = await pool.query<{ id: number }>(
      `INSERT INTO reports (company_id, name, period_from, period_to, modules)
       VALUES ($1, 'Отчёт', '2026-01-01', '2026-01-31', '{}') RETURNING id`,
      [c.rows[0]?.id],
    );
    await pool.query(
      `INSERT INTO report_sends (report_id, recipients, status) VALUES ($1, '{a@x.test}', 'sent'), ($1, '{a@x.test}', 'sent'), ($1, '{b@x.test}', 'failed')`,
      [rep.rows[0]?.id],
    );

    s = await scrape(ctx);
    expect(value(s, 'forpost_transfer_jobs', { kind: 'import', status: 'running' })).toBe(1);
    expect(value(s, 'forpost_transfer_jobs', { kind: 'import', status: 'queued' })).toBe(1);
    const rate = value(s, 'forpost_transfer_rows_per_second', { kind: 'import' }) ?? 0;
    expect(rate).toBeGreaterThan(50);
    expect(rate).toBeLessThanOrEqual(100);
    expect(value(s, 'forpost_mail_messages', { kind: 'report', status: 'sent' })).toBe(2);
    expect(value(s, 'forpost_mail_messages', { kind: 'report', status: 'failed' })).toBe(1);
  });
});

describe('metrics with METRICS_PORT only', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await setupApp({ METRICS_PORT: '0' });
  });

  it('answers on its own listener (127.0.0.1 by default) without a token; the main port says 404', async () => {
    const own = ctx.app.metrics?.address();
    if (!own) throw new Error('no metrics listener');
    expect(own.host).toBe('127.0.0.1');
    await ctx.app.inject({ url: '/api/v1/health' });
    const r = await fetch(`http://127.0.0.1:${own.port}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const s = parse(await r.text());
    expect(value(s, 'forpost_http_request_duration_seconds_count', { route: '/api/v1/health', status_code: '200' })).toBe(1);
    expect(value(s, 'forpost_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    // pg-boss never started on this database: no queue series, the rest still answers.
    expect(s.some((x) => x.name === 'forpost_jobs_queued')).toBe(false);
    expect(value(s, 'forpost_metrics_database_ok')).toBe(1);

    const other = await fetch(`http://127.0.0.1:${own.port}/api/v1/health`);
    expect(other.status).toBe(404);
    expect((await ctx.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });

  it('METRICS_TOKEN shorter than 16 characters is refused at start', async () => {
    const { loadConfig } = await import('../src/config');
    expect(() => loadConfig({ ...process.env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
