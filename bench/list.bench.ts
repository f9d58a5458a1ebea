/*
 * List and search speed on 1 000 000 events (3 companies, 16 modules), over HTTP against the real
 * app, compared in the same run with the same SQL forced to a sequential scan.
 *
 *   node --import tsx bench/list.bench.ts   (EVENTS=200000 for a quicker run; EXPLAIN=1 prints the plans;
 *                                            KEEP_DB=1 leaves the database running;
 *                                            BENCH_DATABASE_URL=… measures a database loaded before;
 *                                            ONLY=b,b2 runs only those cases; COMPANIES=10;
 *                                            SEQ_RUNS=3 fewer forced scans on a big table;
 *                                            REINDEX=1 times the search backfill pass first;
 *                                            CASES=search only the text searches;
 *                                            LOAD_ONLY=1 loads BENCH_DIR and stops;
 *                                            FINISH_LOAD=1 ends a stopped load at the size it
 *                                            reached and builds its indexes)
 *
 * 10 000 000 events: `BENCH_DIR=/var/tmp/forpost-10m EVENTS=10000000 COMPANIES=10 SEQ_RUNS=3 node
 * --max-old-space-size=6144 --import tsx bench/list.bench.ts`. BENCH_DIR keeps the embedded database
 * (and the bench's secret) between runs: a load that was stopped resumes where its last batch
 * committed (the generator is deterministic: the rows already in the table are skipped), the index
 * rebuild resumes too, and a finished load is measured again without loading (table `bench_load`).
 *
 * Goal: p95 ≤ 50 ms for (a) the first page of a filtered, sorted list and (b) a text search — rare,
 * frequent (a word in a fifth or a third of the rows), a prefix being typed, with other filters —
 * and ≥ 20× faster than the same query (page and capped count in parallel) with index scans off.
 * (0) is the floor of any request: an authenticated GET that reads almost nothing. EXPLAIN=1
 * prints the plan of every statement the service runs for a case. Prints the figures; asserts nothing.
 */
import '@forpost/contract/zod-setup';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { COUNT_CAP, eventListQuery, SEARCH_COUNT_CAP } from '@forpost/contract/events';
import { MODULES, type ModuleCode } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase } from '../apps/api/src/db/client';
import { startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import * as schema from '../apps/api/src/db/schema/index';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';
import { reindexSearch, SEARCH_BACKFILL } from '../apps/api/src/modules/events/backfill/search-backfill';
import { createEventsRepo } from '../apps/api/src/modules/events/events.repo';
import {
  afterCondition,
  and,
  filterConditions,
  keysetCursor,
  matching,
  orderBy,
  orderedSort,
  resolveText,
  textQueryOf,
} from '../apps/api/src/modules/events/list/events.query';
import { seedEventReference } from '../apps/api/src/modules/events/refs/refs';
import { createCardVault } from '../apps/api/src/modules/events/write/event-data';
import { startCollector } from './collector';
import { eventRows, insertEventRows, loadEventRefs } from './seed-events';

const TOTAL = Number(process.env.EVENTS ?? 1_000_000);
const COMPANIES = Number(process.env.COMPANIES ?? 3);
const BENCH_DIR = process.env.BENCH_DIR ? path.resolve(process.env.BENCH_DIR) : undefined;
const COMPANY_NAMES = [
  'Альфа-Банк',
  'Бета-Финанс',
  'Гамма-Маркет',
  'Дельта-Страхование',
  'Эпсилон-Телеком',
  'Зета-Ритейл',
  'Эта-Логистик',
  'Тета-Энерго',
  'Йота-Фарм',
  'Каппа-Девелопмент',
];
const RUNS = Number(process.env.RUNS ?? 200);
const SEQ_RUNS = Number(process.env.SEQ_RUNS ?? 20);
const BATCH = 5000;
/** The card vault's key: kept in BENCH_DIR with the database it encrypted (card filters must match). */
function benchSecret(): string {
  if (!BENCH_DIR) return randomBytes(32).toString('hex');
  const file = path.join(BENCH_DIR, 'bench-secret');
  mkdirSync(BENCH_DIR, { recursive: true });
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}
const SECRET = benchSecret();
const ADMIN = { email: 'bench@forpost.local', password: 'Bench-Admin-2026!Password' };

const quiet = { info() {}, warn() {}, error: console.error };
const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)}  ${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} мс`;

/**
 * Loads TOTAL generated events (or resumes a stopped load, see the header). The state of a load is the
 * row of `bench_load`: the dropped secondary indexes' definitions, whether every row is in, whether the
 * indexes are back.
 */
async function load(url: string, companyIds: number[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A batch lost to a crash is loaded again on resume (the generator is deterministic).
  await client.query('SET synchronous_commit = off');
  const db = drizzle(client, { schema });
  await client.query(`CREATE TABLE IF NOT EXISTS bench_load (
    total bigint NOT NULL, companies int NOT NULL, indexdefs text[] NOT NULL,
    rows_done boolean NOT NULL DEFAULT false, indexes_done boolean NOT NULL DEFAULT false)`);
  let state = (await client.query('SELECT * FROM bench_load')).rows[0] as
    | { total: string; companies: number; indexdefs: string[]; rows_done: boolean; indexes_done: boolean }
    | undefined;
  if (state && (Number(state.total) !== TOTAL || state.companies !== companyIds.length))
    throw new Error(`в ${BENCH_DIR} загружен другой набор: ${state.total} событий, ${state.companies} компаний`);
  if (state?.indexes_done) {
    await client.end();
    return describeLoaded(url);
  }
  await seedEventReference(db as never);
  const refs = await loadEventRefs(client);
  const tagIds: number[] = [];
  for (const name of ['Фишинг', 'Срочно', 'Клиент', 'Партнёр', 'Повтор', 'VIP', 'Проверено', 'Суд', 'СМИ', 'Утечка']) {
    const had = (await client.query('SELECT id FROM tags WHERE name = $1', [name])).rows[0];
    tagIds.push(
      had?.id ??
        (await client.query('INSERT INTO tags (name, color) VALUES ($1, $2) RETURNING id', [name, '#1677ff'])).rows[0].id,
    );
  }

  if (!state) {
    // Secondary indexes are rebuilt after the load (much faster than maintaining them row by row).
    const idx = await client.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'events' AND indexname <> 'events_pkey'",
    );
    const defs = idx.rows.map((r: { indexdef: string }) => r.indexdef);
    await client.query('INSERT INTO bench_load (total, companies, indexdefs) VALUES ($1, $2, $3)', [
      TOTAL,
      companyIds.length,
      defs,
    ]);
    for (const r of idx.rows) await client.query(`DROP INDEX ${r.indexname}`);
    state = { total: String(TOTAL), companies: companyIds.length, indexdefs: defs, rows_done: false, indexes_done: false };
  }

  const t0 = performance.now();
  let inserted = 0;
  if (!state.rows_done && process.env.FINISH_LOAD) {
    // FINISH_LOAD=1: a load that cannot finish in time is measured at the size it reached (the rows
    // in the table are the generator's first ones); its indexes are built now.
    const n = Number((await client.query('SELECT count(*) AS n FROM events')).rows[0].n);
    log(`загрузка закончена досрочно: ${n.toLocaleString('ru-RU')} событий из ${TOTAL.toLocaleString('ru-RU')}`);
    await client.query('UPDATE bench_load SET rows_done = true');
    state.rows_done = true;
  }
  if (!state.rows_done) {
    // Batches commit whole: the rows in the table are the generator's first ones.
    const skip = Number((await client.query('SELECT count(*) AS n FROM events')).rows[0].n);
    if (skip) log(`продолжаем загрузку: уже ${skip.toLocaleString('ru-RU')} событий`);
    const vault = createCardVault(SECRET);
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      const rows = batch;
      batch = [];
      await insertEventRows(client, rows);
    };
    let pending: Promise<void> = Promise.resolve();
    let tagRng = 1;
    const tags = () => {
      tagRng = (tagRng * 1103515245 + 12345) % 2147483648;
      return tagRng % 10 < 3 ? [tagIds[tagRng % tagIds.length] as number] : [];
    };
    for (const row of eventRows({ seed: 2026, count: TOTAL, companyIds, refs, vault, tags })) {
      inserted++;
      if (inserted <= skip) continue;
      batch.push(row);
      if (batch.length >= BATCH) {
        await pending;
        pending = flush();
        if (inserted % 100_000 < BATCH)
          log(`загружено ${inserted.toLocaleString('ru-RU')} событий (${((performance.now() - t0) / 1000).toFixed(0)} с)`);
      }
    }
    await pending;
    await flush();
    await client.query('UPDATE bench_load SET rows_done = true');
  }
  const loadS = (performance.now() - t0) / 1000;
  log(`загрузка ${inserted.toLocaleString('ru-RU')} событий: ${loadS.toFixed(0)} с; строим индексы…`);
  const t1 = performance.now();
  await client.query("SET maintenance_work_mem = '1GB'");
  for (const def of state.indexdefs) {
    const t = performance.now();
    await client.query(def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
    log(`  ${/INDEX (?:IF NOT EXISTS )?(\S+)/.exec(def)?.[1]}: ${((performance.now() - t) / 1000).toFixed(0)} с`);
  }
  await client.query('VACUUM (ANALYZE) events');
  await client.query('UPDATE bench_load SET indexes_done = true');
  log(`индексы и ANALYZE: ${((performance.now() - t1) / 1000).toFixed(0)} с`);
  await client.end();
  return { ...(await describeLoaded(url)), loadS };
}

interface Case {
  name: string;
  module: ModuleCode;
  query: Record<string, string>;
}

/** Statuses, priorities and sizes (table, each index, the database) of a loaded database. */
async function describeLoaded(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { statuses, priorities } = await loadEventRefs(client);
  const inserted = Number((await client.query('SELECT count(*) AS n FROM events')).rows[0].n);
  await client.query('VACUUM (ANALYZE) events');
  const size = (
    await client.query(
      `SELECT pg_size_pretty(pg_total_relation_size('events')) AS s, pg_size_pretty(pg_relation_size('events')) AS t,
              pg_size_pretty(pg_database_size(current_database())) AS d`,
    )
  ).rows[0];
  const indexes = (
    await client.query(
      `SELECT indexrelid::regclass::text AS name, pg_size_pretty(pg_relation_size(indexrelid)) AS size
         FROM pg_index WHERE indrelid = 'events'::regclass ORDER BY pg_relation_size(indexrelid) DESC`,
    )
  ).rows as { name: string; size: string }[];
  await client.end();
  return {
    inserted,
    loadS: 0,
    size: `${size.t} таблица, ${size.s} с индексами, база ${size.d}`,
    indexes: indexes.map((i) => `${i.name} ${i.size}`).join(', '),
    statuses,
    priorities,
  };
}

async function main() {
  const reuse = process.env.BENCH_DATABASE_URL;
  const dir = BENCH_DIR ?? mkdtempSync(path.join(tmpdir(), 'forpost-bench-'));
  const port = BENCH_DIR ? Number(process.env.BENCH_PG_PORT ?? 57999) : 57000 + Math.floor(Math.random() * 2000);
  if (!reuse) log(`встроенный PostgreSQL в ${dir}`);
  const embedded = reuse ? undefined : await startEmbedded({ dataDir: dir, port, log: quiet });
  const url = reuse ?? (embedded?.url as string);
  try {
    await runMigrations(url);
    const database = createDatabase(url, quiet, 10);
    await ensureFirstAdmin(database.db, ADMIN.email, ADMIN.password);
    // The companies (the first COMPANIES of a database loaded before), created when missing.
    const companyIds: number[] = (
      await database.pool.query('SELECT id FROM companies ORDER BY id LIMIT $1', [COMPANIES])
    ).rows.map((r: { id: number }) => r.id);
    for (let i = companyIds.length; i < COMPANIES && !reuse; i++) {
      const name = COMPANY_NAMES[i] ?? `Компания ${i + 1}`;
      companyIds.push((await database.pool.query('INSERT INTO companies (name) VALUES ($1) RETURNING id', [name])).rows[0].id);
    }
    const loaded = reuse ? await describeLoaded(url) : await load(url, companyIds);
    log(`размер: ${loaded.size}; индексы: ${loaded.indexes}`);
    if (process.env.LOAD_ONLY) {
      // LOAD_ONLY=1: load (or resume loading) BENCH_DIR and stop; measure later with ONLY=….
      await database.close();
      return;
    }

    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: url,
      SECRET,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      CONSOLE_DIST: path.join(dir, 'no-console'),
      // Every case sends one query 200 times: measured is the page read from the database, not the
      // instance's memory of it (modules/events/list-cache.ts; http.bench measures that).
      LIST_CACHE_MS: '0',
      // Measured is the query path: on a busy machine the load shedding (plugins/pressure.ts) answered
      // the sign-in with 503 while the event loop caught up after the index build.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const app = await buildApp({ config, database, logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${address}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const cookie = (login.headers.getSetCookie() as string[]).map((c) => c.split(';')[0]).join('; ');
    if (login.status !== 200) throw new Error(`вход не удался: ${login.status}`);

    if (process.env.REINDEX) {
      // The worker's pass that rebuilds the search vectors of domains and endpoints (search-backfill.ts).
      await database.db.execute(sql`DELETE FROM app_seeds WHERE name = ${SEARCH_BACKFILL}`);
      const t = performance.now();
      const n = await reindexSearch(database.db);
      log(
        `перестройка вектора поиска (доменов и эндпоинтов): ${n} событий переписано за ${((performance.now() - t) / 1000).toFixed(0)} с`,
      );
      await database.pool.query('VACUUM (ANALYZE) events');
    }
    const someDomainId = Number(
      (await database.pool.query(`SELECT id FROM events WHERE module = 'domains' ORDER BY id OFFSET 1000 LIMIT 1`)).rows[0]?.id,
    );
    // An IP and a URL fragment of a domain event, for the search cases (b14) and (b15).
    const sample = (
      await database.pool.query(
        `SELECT data->>'ip' AS ip, data->>'url' AS url FROM events
          WHERE module = 'domains' AND data->>'url' LIKE '%-%/_%' ORDER BY id OFFSET 2000 LIMIT 1`,
      )
    ).rows[0] as { ip: string; url: string } | undefined;
    // `https://vtb-lk123.ru/bonus` → `lk123.ru/bonus`: the middle of a URL, as pasted from a report.
    const urlFragment = sample?.url.slice(sample.url.indexOf('-') + 1) ?? 'lk1.ru/bonus';
    const c1 = companyIds[0] as number;
    const st = (m: ModuleCode, code: string) => String(loaded.statuses.get(`${m}:${code}`));
    const pr = (m: ModuleCode, code: string) => String(loaded.priorities.get(`${m}:${code}`));
    const cases: Case[] = (<Case[]>[
      {
        name: '(a) список: домены компании, статус «Новое» + приоритет «Высокий», -created_at',
        module: 'domains',
        query: {
          company_id: String(c1),
          status: st('domains', 'new'),
          priority: pr('domains', 'high'),
          sort: '-created_at',
          page_size: '20',
        },
      },
      {
        name: '(a2) список: все компании, аккаунты, статус «В работе», -detected_at',
        module: 'accounts',
        query: { status: st('accounts', 'in_progress'), sort: '-detected_at', page_size: '50' },
      },
      {
        name: '(b) поиск: СМИ компании, q="мошенники"',
        module: 'media',
        query: { company_id: String(c1), q: 'мошенники', page_size: '20' },
      },
      {
        name: '(b2) поиск по всем компаниям: домены, q="gazprombank bonus"',
        module: 'domains',
        query: { q: 'gazprombank bonus', page_size: '20' },
      },
      {
        name: '(b3) поиск редкого: домены всех компаний, q="777"',
        module: 'domains',
        query: { q: '777', page_size: '20' },
      },
      {
        name: '(b4) поиск по мере набора: СМИ компании, q="мошен" (префикс, треть строк)',
        module: 'media',
        query: { company_id: String(c1), q: 'мошен', page_size: '20' },
      },
      {
        name: '(b5) частое слово: домены компании, q="банк" (каждая пятая строка)',
        module: 'domains',
        query: { company_id: String(c1), q: 'банк', page_size: '20' },
      },
      {
        name: '(b6) слово средней частоты: домены всех компаний, q="компенсация" (~1 %)',
        module: 'domains',
        query: { q: 'компенсация', page_size: '20' },
      },
      {
        name: '(b7) слово + фильтр: аккаунты всех компаний, статус «В работе», q="стилер", -detected_at',
        module: 'accounts',
        query: { status: st('accounts', 'in_progress'), q: 'стилер', sort: '-detected_at', page_size: '50' },
      },
      {
        name: '(b9) домен по мере набора: домены компании, q="vtb-bonus1" (фраза, последняя цифра — префикс)',
        module: 'domains',
        query: { company_id: String(c1), q: 'vtb-bonus1', page_size: '20' },
      },
      {
        name: '(b10) IP по мере набора: домены всех компаний, q="95.88.5"',
        module: 'domains',
        query: { q: '95.88.5', page_size: '20' },
      },
      {
        name: '(b11) частое слово + буква, которой нет: домены всех компаний, q="vtb-q" (0 совпадений)',
        module: 'domains',
        query: { q: 'vtb-q', page_size: '20' },
      },
      {
        name: '(b12) номер события: домены всех компаний, q="№<id>"',
        module: 'domains',
        query: { q: `№${someDomainId}`, page_size: '20' },
      },
      {
        name: '(b13) домен по мере набора: домены компании, q="vtb-l" (частое слово + префикс после дефиса)',
        module: 'domains',
        query: { company_id: String(c1), q: 'vtb-l', page_size: '20' },
      },
      {
        name: `(b14) IP целиком: домены всех компаний, q="${sample?.ip ?? '95.88.54.16'}"`,
        module: 'domains',
        query: { q: sample?.ip ?? '95.88.54.16', page_size: '20' },
      },
      {
        name: `(b15) часть URL: домены всех компаний, q="${urlFragment}"`,
        module: 'domains',
        query: { q: urlFragment, page_size: '20' },
      },
      {
        name: '(c1) первая страница: домены всех компаний, -created_at',
        module: 'domains',
        query: { sort: '-created_at', page_size: '20' },
      },
      {
        name: '(c2) глубокая страница: то же, страница 10 000 (OFFSET 199 980)',
        module: 'domains',
        query: { sort: '-created_at', page_size: '20', page: '10000' },
      },
    ]).map((c) => ({ ...c, query: { status_counts: 'true', ...c.query } }));
    {
      // (c3) The keyset equivalent of (c2): the page after the event that ends page 9 999, by cursor.
      const [r] = (
        await database.pool.query(
          `SELECT created_at::text AS created_at, id FROM events WHERE module = 'domains'
            ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 199979`,
        )
      ).rows as { created_at: string; id: string }[];
      if (r)
        cases.push({
          name: '(c3) глубокая страница курсором: то же место, after = next_cursor страницы 9 999',
          module: 'domains',
          query: { status_counts: 'true', sort: '-created_at', page_size: '20', after: keysetCursor(r) },
        });
    }
    // Every case asks for the per-status counts, as the console's list page does with every request.

    const results: string[] = [];
    {
      // The floor of any request: an authenticated GET that reads almost nothing (session + user in
      // one round trip, then the profile and the companies).
      const times: number[] = [];
      for (let i = 0; i < RUNS + 10; i++) {
        const t = performance.now();
        const r = await fetch(`${address}/api/v1/me`, { headers: { cookie } });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`/me: ${r.status}`);
        if (i >= 10) times.push(performance.now() - t);
      }
      const line = `(0) пол HTTP: GET /me (вход по cookie + профиль)\n    HTTP p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}`;
      log(line);
      results.push(line);
    }
    const pgSeq = [0, 1, 2].map(() => new pg.Client({ connectionString: url }));
    for (const c of pgSeq) {
      await c.connect();
      await c.query('SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off');
    }
    const vault = createCardVault(SECRET);
    // ONLY=b5,b7 measures only those cases; CASES=search every text search (without (w) and (e), as
    // ONLY without w or e).
    const only =
      process.env.CASES === 'search'
        ? cases.filter((c) => typeof c.query.q === 'string').map((c) => c.name.slice(0, c.name.indexOf(' ')))
        : process.env.ONLY?.split(',').map((x) => `(${x.trim()})`);
    let firstPage95: number | undefined;
    for (const c of cases.filter((x) => !only || only.some((o) => x.name.startsWith(o)))) {
      const qs = new URLSearchParams(c.query).toString();
      const url = `${address}/api/v1/modules/${c.module}/events?${qs}`;
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS + 10; i++) {
        const t = performance.now();
        const r = await fetch(url, { headers: { cookie } });
        const j = (await r.json()) as { total: number; items: unknown[] };
        if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(j)}`);
        if (i >= 10) times.push(performance.now() - t);
        total = j.total;
      }
      // The same query (page + capped count, and the per-status counts when asked), in parallel, with index scans off.
      const m = MODULES[c.module];
      const q = eventListQuery(m).parse(c.query) as Record<string, unknown> & {
        sort: string;
        page: number;
        page_size: number;
        company_id?: number;
        after?: string;
      };
      const cap = q.q ? SEARCH_COUNT_CAP : COUNT_CAP;
      // The module and the companies (the service's `base`), then the other conditions.
      const scope = [sql`e.module = ${c.module}`, ...(q.company_id ? [sql`e.company_id = ${q.company_id}`] : [])];
      const where = and([...scope, ...filterConditions(m, q, vault)]);
      const repos = pgSeq.map((cl) => createEventsRepo(drizzle(cl, { schema }) as never));
      const seq: number[] = [];
      for (let i = 0; i < SEQ_RUNS; i++) {
        const t = performance.now();
        await Promise.all([
          // The page and its count: one statement, as the service sends it.
          repos[0]?.list({
            where,
            order: orderBy(m, q.sort),
            limit: q.page_size,
            offset: q.after ? 0 : (q.page - 1) * q.page_size,
            cap,
            after: q.after ? afterCondition(q.sort, q.after) : undefined,
          }),
          q.status_counts
            ? repos[2]?.statusCounts({
                where: and([...scope, ...filterConditions(m, q, vault, { skipStatus: true })]),
                cap: q.q ? cap : undefined,
              })
            : undefined,
        ]);
        seq.push(performance.now() - t);
      }
      if (process.env.EXPLAIN) {
        // The plan of every statement the service runs for this case (the search plan or list + count).
        const client = pgSeq[0] as pg.Client;
        await client.query('RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan');
        let n = 0;
        const explaining = {
          async query(cfg: string | { text: string; values?: unknown[] }, values?: unknown[]) {
            const text = typeof cfg === 'string' ? cfg : cfg.text;
            const params = values ?? (typeof cfg === 'string' ? undefined : cfg.values);
            const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
            log(`EXPLAIN ${++n}:\n${plan.rows.map((r: Record<string, string>) => `      ${r['QUERY PLAN']}`).join('\n')}`);
            return client.query(cfg as never, params);
          },
        };
        const rx = createEventsRepo(drizzle(explaining as never, { schema }) as never);
        const order = orderBy(m, q.sort);
        const query = typeof q.q === 'string' ? textQueryOf(q.q) : null;
        if (query && orderedSort(q.sort)) {
          const base = and(scope);
          const filter = and(filterConditions(m, q, vault, { skipText: true }));
          const text = matching(await resolveText(query, rx.resolveQuery));
          await rx.searchList({ base, filter, text, order, limit: q.page_size, offset: 0, cap });
          if (q.status_counts)
            await rx.statusCounts({ where: and([...scope, ...filterConditions(m, q, vault, { skipStatus: true })]), cap });
        } else {
          await rx.list({ where, order, limit: q.page_size, offset: 0, cap });
        }
        await client.query('SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off');
      }
      const p95 = pct(times, 95);
      const seq95 = pct(seq, 95);
      // The goals of issue #18 at 10M (at 1M: 50 ms and 20× for every case); a deep page: ≤ 1.5× the first.
      const searching = typeof c.query.q === 'string';
      const deep = c.query.page !== undefined || c.query.after !== undefined;
      if (c.name.startsWith('(c1)')) firstPage95 = p95;
      const goal =
        TOTAL < 10_000_000
          ? { text: 'p95 ≤ 50 мс и ≥ 20×', met: p95 <= 50 && seq95 / p95 >= 20 }
          : deep
            ? { text: 'p95 ≤ 1,5× первой страницы (c1)', met: firstPage95 !== undefined && p95 <= 1.5 * firstPage95 }
            : searching
              ? { text: 'p95 ≤ 150 мс и ≥ 30×', met: p95 <= 150 && seq95 / p95 >= 30 }
              : { text: 'p95 ≤ 60 мс', met: p95 <= 60 };
      const line = `${c.name}\n    найдено ${total}${total >= cap ? '+' : ''}; HTTP p50 ${ms(pct(times, 50))}, p95 ${ms(p95)} | seq scan p50 ${ms(pct(seq, 50))}, p95 ${ms(seq95)} | быстрее в ${(seq95 / p95).toFixed(0)}× | цель ${goal.text}: ${goal.met ? 'да' : 'НЕТ'}`;
      log(line);
      results.push(line);
    }
    for (const c of pgSeq) await c.end();
    if (!only || only.includes('(w)')) {
      // (w) The first cases of each kind again while a collector writes 20 events/s (bench/collector.ts),
      // as issue #18 asks: the writes must not push a case's p95 past its goal.
      const under = cases.filter((c) => /^\((a|a2|b|b3|c1)\)/.test(c.name));
      const stop = startCollector(database.pool, companyIds);
      const lines: string[] = [];
      for (const c of under) {
        const url = `${address}/api/v1/modules/${c.module}/events?${new URLSearchParams(c.query).toString()}`;
        const times: number[] = [];
        for (let i = 0; i < RUNS + 10; i++) {
          const t = performance.now();
          const r = await fetch(url, { headers: { cookie } });
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
          if (i >= 10) times.push(performance.now() - t);
        }
        lines.push(`    ${c.name.slice(0, c.name.indexOf(' '))} HTTP p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}`);
      }
      const { written, perSecond: rate } = await stop();
      const line = `(w) те же запросы во время записи (${written} событий, ${rate.toFixed(1)}/с)\n${lines.join('\n')}`;
      log(line);
      results.push(line);
    }
    if (!only || only.includes('(e)')) {
      // (e) The card: an event of any module, then its history — the two requests the detail page sends.
      const picks = (
        await database.pool.query(
          `SELECT e.id, e.module FROM events e TABLESAMPLE SYSTEM (1) WHERE e.company_id = ANY($1::int[]) LIMIT ${RUNS + 10}`,
          [companyIds],
        )
      ).rows as { id: string; module: string }[];
      const card: number[] = [];
      const history: number[] = [];
      for (const [i, e] of picks.entries()) {
        for (const [suffix, into] of [
          ['', card],
          ['/history', history],
        ] as const) {
          const t = performance.now();
          const r = await fetch(`${address}/api/v1/modules/${e.module}/events/${e.id}${suffix}`, { headers: { cookie } });
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`карточка ${e.id}${suffix}: ${r.status}`);
          if (i >= 10) into.push(performance.now() - t);
        }
      }
      const line = `(e) карточка события и её история (${card.length} случайных событий всех модулей)\n    карточка p50 ${ms(pct(card, 50))}, p95 ${ms(pct(card, 95))} | история p50 ${ms(pct(history, 50))}, p95 ${ms(pct(history, 95))} | цель p95 ≤ 30 мс: ${pct(card, 95) <= 30 && pct(history, 95) <= 30 ? 'да' : 'НЕТ'}`;
      log(line);
      results.push(line);
    }
    process.stdout.write(
      `\n=== bench/list.bench.ts: ${loaded.inserted.toLocaleString('ru-RU')} событий, ${companyIds.length} компаний, 16 модулей (${loaded.size}); загрузка ${loaded.loadS.toFixed(0)} с; ${RUNS} запросов на случай ===\n${results.join('\n')}\n`,
    );
    await app.close();
    await database.close();
  } finally {
    if (BENCH_DIR) await embedded?.stop();
    else if (process.env.KEEP_DB && embedded) log(`база оставлена: ${embedded.url} (каталог ${dir})`);
    else {
      await embedded?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
