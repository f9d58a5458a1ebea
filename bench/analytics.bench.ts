/*
 * Home dashboard speed on 1 000 000 events (10 companies, 16 modules, one year): the six analytics
 * endpoints for 90 days over HTTP against the real app (rollups), compared in the same run with the
 * same aggregates computed by a raw GROUP BY over `events`.
 *
 *   node --import tsx bench/analytics.bench.ts   (EVENTS=200000 for a quicker run; RUNS, BASE_RUNS)
 *
 * Goal: p95 ≤ 50 ms per endpoint and ≥ 20× faster than the GROUP BY. Prints the figures; asserts nothing.
 * First the per-request floor (a pool round trip, GET /health by two clients, an authenticated empty
 * chart), then per endpoint: HTTP p50/p95 as deployed (rollups + the answer cache, which checks the
 * rollups' generation on every request), the GROUP BY baseline and the ratio, then the same request
 * with the answer cache off (every request reads the rollups) and the endpoint's rollup read alone.
 * The HTTP client is node:http with a kept-alive connection (bench/http-client.ts explains why).
 * Last, the six charts again while events are written (20/s) and folded every 5 s, as in production.
 * BENCH_DIR=/some/dir keeps the database and reuses its events next time (development only).
 */
import '@forpost/contract/zod-setup';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ANALYTICS_TZ, addDays, DASHBOARD_CHARTS, type DashboardChart, dayIn } from '@forpost/contract/analytics';
import { MODULE_CODES } from '@forpost/contract/modules';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase } from '../apps/api/src/db/client';
import { startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';
import {
  COUNT_COLUMNS,
  type CountColumn,
  createAnalyticsRepo,
  type DayGroup,
} from '../apps/api/src/modules/analytics/analytics.repo';
import { seedEventReference } from '../apps/api/src/modules/events/refs/refs';
import { startCollector } from './collector';
import { createHttpClient } from './http-client';
import { startHttpLoad } from './http-load';

const TOTAL = Number(process.env.EVENTS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 500);
const BASE_RUNS = Number(process.env.BASE_RUNS ?? 10);
/** Untimed requests before each timed series (JIT, connection, caches of the server). */
const WARMUP = Number(process.env.WARMUP ?? 300);
const COMPANIES = 10;
const CHUNK = 100_000;
const SECRET = randomBytes(32).toString('hex');
const ADMIN = {
  email: 'bench@forpost.local',
  password: 'Bench-Admin-2026!Password',
};

const quiet = { info() {}, warn() {}, error: console.error };
const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)}  ${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} мс`;

/** The same figure each endpoint shows, straight from `events` (groups and modules as the endpoint). */
const BASELINE: Record<
  DashboardChart,
  {
    group: DayGroup[];
    only?: CountColumn[];
    modules?: string[];
    status?: boolean;
    total: string;
    /** The rollup read of the endpoint, when it is `daySeriesSql` (else `countsSql` with group/only). */
    series?: CountColumn | 'status';
  }
> = {
  newevents: { group: ['day', 'module'], only: ['total'], total: 'total', series: 'total' },
  criticalevents: {
    group: ['day', 'module'],
    only: ['p_critical'],
    total: 'p_critical',
    series: 'p_critical',
  },
  priorityevents: {
    group: ['module'],
    only: ['total', 'p_none', 'p_low', 'p_medium', 'p_high', 'p_critical'],
    total: 'total',
  },
  connotationevents: {
    group: ['day'],
    only: ['c_positive', 'c_negative', 'c_neutral', 'c_undefined'],
    modules: ['media'],
    total: 'total',
  },
  domainevents: {
    group: ['day'],
    modules: ['domains'],
    status: true,
    total: 'n',
    series: 'status',
  },
  accountevents: {
    group: ['day'],
    modules: ['accounts'],
    status: true,
    total: 'n',
    series: 'status',
  },
};

async function main() {
  // BENCH_DIR (development only): keep the database there and reuse its events on the next run.
  const keep = process.env.BENCH_DIR;
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'forpost-bench-analytics-'));
  const reuse = Boolean(keep && existsSync(path.join(dir, 'postgres', 'PG_VERSION')));
  const port = 57000 + Math.floor(Math.random() * 2000);
  log(`встроенный PostgreSQL в ${dir}${reuse ? ' (события прошлого прогона)' : ''}`);
  const embedded = await startEmbedded({ dataDir: dir, port, log: quiet });
  try {
    await runMigrations(embedded.url);
    const database = createDatabase(embedded.url, quiet, 10);
    const { pool } = database;
    const analytics = createAnalyticsRepo(database.db);
    const companyIds: number[] = [];
    if (reuse) {
      companyIds.push(...(await pool.query('SELECT id FROM companies ORDER BY id')).rows.map((r: { id: number }) => r.id));
      await analytics.rebuild(ANALYTICS_TZ);
    } else {
      await ensureFirstAdmin(database.db, ADMIN.email, ADMIN.password);
      await seedEventReference(database.db);
      for (let i = 0; i < COMPANIES; i++) {
        companyIds.push(
          (await pool.query('INSERT INTO companies (name) VALUES ($1) RETURNING id', [`Компания ${i + 1}`])).rows[0].id,
        );
      }
      const ref = async (table: string, codes: string[]) => {
        const r = await pool.query(`SELECT module, code, id FROM ${table}`);
        const by = new Map(r.rows.map((x: { module: string; code: string; id: number }) => [`${x.module}:${x.code}`, x.id]));
        return MODULE_CODES.flatMap((m) => codes.map((c) => by.get(`${m}:${c}`) as number));
      };
      const statuses = await ref('event_statuses', ['new', 'in_progress', 'awaiting', 'resolved', 'false_positive']);
      const priorities = await ref('event_priorities', ['low', 'medium', 'high', 'critical']);

      // Events over the last year; the triggers write the count deltas as in production (one statement per chunk).
      const t0 = performance.now();
      for (let from = 1; from <= TOTAL; from += CHUNK) {
        const to = Math.min(TOTAL, from + CHUNK - 1);
        await pool.query(
          `INSERT INTO events (company_id, module, title, status_id, priority_id, source, ml_state, fingerprint, data, search, created_at, updated_at)
         SELECT c[1 + x.r1 % cardinality(c)], m[1 + mi], 'событие ' || g, s[1 + mi * 5 + x.r2 % 5],
                CASE WHEN x.r3 % 6 = 0 THEN NULL ELSE p[1 + mi * 4 + x.r3 % 4] END, 'Other', 'Done', md5(g::text),
                CASE WHEN m[1 + mi] = 'media' THEN jsonb_build_object('connotation', (ARRAY['Positive','Negative','Neutral','Undefined'])[1 + x.r4 % 4]) ELSE '{}'::jsonb END,
                ''::tsvector, now() - (x.r5 % 31536000) * interval '1 second', now()
         FROM generate_series($1::int, $2::int) g,
              LATERAL (SELECT ('x' || substr(h, 1, 7))::bit(28)::int AS r1, ('x' || substr(h, 8, 7))::bit(28)::int AS r2,
                              ('x' || substr(h, 15, 7))::bit(28)::int AS r3, ('x' || substr(h, 22, 7))::bit(28)::int AS r4,
                              ('x' || substr(h2, 1, 7))::bit(28)::int AS r5, ('x' || substr(h2, 8, 7))::bit(28)::int % 16 AS mi
                       FROM (SELECT md5('e' || g) AS h, md5('m' || g) AS h2) hh) x,
              (SELECT $3::int[] AS c, $4::text[] AS m, $5::int[] AS s, $6::int[] AS p) a`,
          [from, to, companyIds, MODULE_CODES, statuses, priorities],
        );
        if (to % 200_000 === 0 || to === TOTAL) log(`загружено ${to.toLocaleString('ru-RU')} событий`);
      }
      log(`загрузка: ${((performance.now() - t0) / 1000).toFixed(1)} с (с триггерами счётчиков)`);
    }
    const tf = performance.now();
    let folded = 0;
    for (let n = await analytics.fold(); n > 0; n = await analytics.fold()) folded += n;
    await pool.query('VACUUM ANALYZE event_count_deltas');
    await pool.query('VACUUM ANALYZE events');
    await pool.query('VACUUM ANALYZE event_day_counts');
    await pool.query('VACUUM ANALYZE event_day_status_counts');
    await pool.query('VACUUM ANALYZE event_module_day_counts');
    await pool.query('VACUUM ANALYZE event_module_day_status_counts');
    await pool.query('CHECKPOINT'); // the load's dirty pages written now, not during the measurements
    const rollupRows = (await pool.query('SELECT count(*)::int AS n FROM event_day_counts')).rows[0].n;
    const allRows = (await pool.query('SELECT count(*)::int AS n FROM event_module_day_counts')).rows[0].n;
    log(
      `свёртка ${folded.toLocaleString('ru-RU')} дельт: ${((performance.now() - tf) / 1000).toFixed(1)} с; строк в event_day_counts: ${rollupRows.toLocaleString('ru-RU')}, в event_module_day_counts: ${allRows.toLocaleString('ru-RU')}`,
    );

    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: embedded.url,
      SECRET,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      CONSOLE_DIST: path.join(dir, 'no-console'),
    });
    // Two instances of the app on the same database: as deployed (answer cache on) and with the
    // answer cache off (ANALYTICS_CACHE_ENTRIES=0: every request reads the rollups).
    const app = await buildApp({ config, database, logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const cold = await buildApp({ config: { ...config, analyticsCacheEntries: 0 }, database, logger: false });
    const coldAddress = await cold.listen({ port: 0, host: '127.0.0.1' });
    const client = createHttpClient(address);
    await client.login(ADMIN.email, ADMIN.password);
    const coldClient = createHttpClient(coldAddress, client.cookie()); // the same session: one database
    const load = startHttpLoad();
    /** Timed requests from the child process (warmed first: the server's code paths and the connection). */
    const http = (base: string, p: string) => load.times({ base, cookie: client.cookie(), path: p, runs: RUNS, warmup: WARMUP });

    const to = dayIn(new Date());
    const from = addDays(to, -89);
    const rows: string[] = [];
    /** The goal's case — the six charts over all companies: met when p95 ≤ 50 ms and ≥ 20× the GROUP BY. */
    const goal: { chart: string; met: boolean; url: string; bp95: number }[] = [];

    const line = (t: number[]) => `p50 ${ms(pct(t, 50)).padStart(8)} p95 ${ms(pct(t, 95)).padStart(8)}`;
    const inProcess = async (fn: () => Promise<unknown>) => {
      const t: number[] = [];
      for (let i = 0; i < RUNS + WARMUP; i++) {
        const a = performance.now();
        await fn();
        if (i >= WARMUP) t.push(performance.now() - a);
      }
      return t;
    };
    const scopes: {
      name: string;
      query: string;
      companies: 'all' | number[];
    }[] = [
      { name: 'все компании', query: '', companies: 'all' },
      {
        name: 'одна компания',
        query: `&company_id=${companyIds[0]}`,
        companies: [companyIds[0] as number],
      },
    ];
    for (const scope of scopes) {
      for (const chart of Object.keys(DASHBOARD_CHARTS) as DashboardChart[]) {
        const url = `/api/v1/modules/analytics/dashboard/${DASHBOARD_CHARTS[chart].path}?from=${from}&to=${to}${scope.query}`;
        const total = (await client.json<{ total: number }>(url)).total;
        const coldTotal = (await coldClient.json<{ total: number }>(url)).total;
        const times = await http(address, url);
        const coldTimes = await http(coldAddress, url);
        const b = BASELINE[chart];
        const base: number[] = [];
        let baseTotal = 0;
        for (let i = 0; i < BASE_RUNS; i++) {
          const t = performance.now();
          const f = {
            from,
            to,
            tz: ANALYTICS_TZ,
            companies: scope.companies,
            modules: b.modules ?? [...MODULE_CODES],
          };
          const r: Record<string, unknown>[] = b.status
            ? await analytics.statusCountsFromEvents(f)
            : await analytics.countsFromEvents(f, b.group);
          baseTotal = r.reduce((a, x) => a + Number(x[b.total]), 0);
          base.push(performance.now() - t);
        }
        // The rollup SQL alone, as the endpoint runs it (no HTTP, session or JSON): the database's share.
        const roll: number[] = [];
        const rf = {
          from,
          to,
          companies: scope.companies,
          modules: b.modules ?? [...MODULE_CODES],
        };
        for (let i = 0; i < RUNS; i++) {
          const t = performance.now();
          await analytics.prepared(
            b.series
              ? analytics.daySeriesSql(rf, b.series, 'all')
              : analytics.countsSql(rf, b.group, b.only ?? COUNT_COLUMNS, 'offset', 'all'),
          );
          roll.push(performance.now() - t);
        }
        const p95 = pct(times, 95);
        const bp95 = pct(base, 95);
        const rp95 = pct(roll, 95);
        const cp95 = pct(coldTimes, 95);
        const same = total === baseTotal && coldTotal === baseTotal ? '' : ` (!) ${total}/${coldTotal} ≠ ${baseTotal}`;
        if (scope.companies === 'all') goal.push({ chart, met: p95 <= 50 && bp95 / p95 >= 20 && !same, url, bp95 });
        rows.push(
          `${`${chart} (${scope.name})`.padEnd(34)} HTTP p50 ${ms(pct(times, 50)).padStart(7)} p95 ${ms(p95).padStart(7)} │ GROUP BY p95 ${ms(bp95).padStart(9)} │ ×${(bp95 / p95).toFixed(0).padStart(4)} │ без кэша ответов p95 ${ms(cp95).padStart(7)} ×${(bp95 / cp95).toFixed(0).padStart(4)} │ SQL свёртки p95 ${ms(rp95).padStart(7)} ×${(bp95 / rp95).toFixed(0).padStart(4)} │ событий ${total.toLocaleString('ru-RU')}${same}`,
        );
      }
    }
    // The per-request floor, measured after the charts (the server is warm): a database round trip
    // alone; the public health check (HTTP + one `SELECT 1`) by global fetch inside this process and
    // by the child's client; an authenticated dashboard request whose answer is empty (media chart
    // limited to another module: session check, routing, validation, JSON — no rollup SQL).
    const floors = [
      `${'SELECT 1 (пул, без HTTP)'.padEnd(44)} ${line(await inProcess(() => pool.query('SELECT 1')))}`,
      `${'GET /health, fetch в процессе бенчмарка'.padEnd(44)} ${line(
        await inProcess(async () => (await fetch(`${address}/api/v1/health`)).json()),
      )}`,
      `${'GET /health, клиент-процесс'.padEnd(44)} ${line(await http(address, '/api/v1/health'))}`,
      `${'GET пустой график (HTTP + сессия)'.padEnd(44)} ${line(
        await http(address, `/api/v1/modules/analytics/dashboard/media/connotationevents?from=${from}&to=${to}&modules=domains`),
      )}`,
    ];
    log(
      `${TOTAL.toLocaleString('ru-RU')} событий, ${COMPANIES} компаний, период 90 дней (${from} — ${to}), ${RUNS} запросов на точку:`,
    );
    process.stdout.write('  Нижняя граница одного запроса:\n');
    for (const r of floors) process.stdout.write(`    ${r}\n`);
    for (const r of rows) process.stdout.write(`  ${r}\n`);
    const missed = goal.filter((g) => !g.met).map((g) => g.chart);
    process.stdout.write(
      `  Цель (все компании, p95 ≤ 50 мс и ≥ 20× GROUP BY, цифры совпадают): ${goal.length - missed.length} из ${goal.length}${missed.length ? ` — не достигнута: ${missed.join(', ')}` : ''}\n`,
    );
    // The same six charts while events are being written, as in production: one event every 50 ms
    // (20/s, random company and module, created now — inside the period) and the fold every 5 s, as
    // the worker does. Deltas are pending most of the time: the answer cache adds them to its rollup
    // rows, read together with the generation.
    let lastFold = performance.now();
    const stop = startCollector(pool, companyIds, async () => {
      if (performance.now() - lastFold > 5000) {
        while ((await analytics.fold()) > 0) {}
        lastFold = performance.now();
      }
    });
    const underWrites: string[] = [];
    let metWriting = 0;
    for (const g of goal) {
      const t = await http(address, g.url);
      const p95 = pct(t, 95);
      if (p95 <= 50 && g.bp95 / p95 >= 20) metWriting++;
      underWrites.push(
        `${g.chart.padEnd(34)} HTTP p50 ${ms(pct(t, 50)).padStart(7)} p95 ${ms(p95).padStart(7)} │ GROUP BY p95 (без записи) ${ms(g.bp95).padStart(9)} │ ×${(g.bp95 / p95).toFixed(0).padStart(4)}`,
      );
    }
    const { written } = await stop();
    const hitStats = app.services.analytics.cacheStats();
    process.stdout.write(`  Во время записи (20 событий/с, фолд каждые 5 с; записано ${written.toLocaleString('ru-RU')}):\n`);
    for (const r of underWrites) process.stdout.write(`    ${r}\n`);
    process.stdout.write(
      `  Цель во время записи: ${metWriting} из ${goal.length}; кэш ответов за прогон: попаданий ${hitStats.hits.toLocaleString('ru-RU')}, промахов ${hitStats.misses.toLocaleString('ru-RU')}\n`,
    );

    client.close();
    coldClient.close();
    load.close();
    await app.close();
    await cold.close();
    await database.close();
  } finally {
    await embedded.stop();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
