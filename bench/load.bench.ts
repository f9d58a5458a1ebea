/*
 * Back-pressure under overload on the list endpoint GET /api/v1/modules/domains/events?page=1&page_size=20
 * (a signed-in console session, 50 000 domain events in 3 companies), over HTTP from a separate
 * load process (bench/http-load.ts explains why a separate process), 127.0.0.1 only.
 *
 *   node --import tsx bench/load.bench.ts   (EVENTS=…; LEVEL_MS=… per concurrency level; OVERLOAD_MS=…)
 *
 * 1. Capacity: closed loop (each client sends its next request when the previous answer came),
 *    concurrency 1, 2, 4, … until the throughput stops rising: three levels in a row under +5 % of the
 *    best, and at least MIN_CONCURRENCY (the pool's 10 connections busy), so a noisy level (other
 *    processes on the machine) does not end the search early. Capacity = the best throughput seen.
 * 2. Overload, open loop: requests arrive at 2× that throughput for OVERLOAD_MS whatever the server
 *    does (as independent clients do), in flight at most MAX_INFLIGHT (more would be the client's
 *    queue, not the server's: counted apart). Run against the same app with load shedding off
 *    (MAX_EVENT_LOOP_DELAY_MS=0, DB_POOL_MAX_WAITING=0: the baseline, measured in the same run) and
 *    as configured by default. Printed: answers by status, the shed share, p50/p99 of admitted
 *    (2xx) requests and of refusals.
 * 3. The issue's case: 200 concurrent clients, closed loop, for ISSUE_MS, both apps; first clients
 *    that ask again at once after a refusal (the worst case), then clients that wait the Retry-After.
 * The server side is watched during each run: its event-loop delay (p99) and the most requests
 * waiting for a database connection at once.
 * The thresholds are the defaults unless MAX_EVENT_LOOP_DELAY_MS / DB_POOL_MAX_WAITING are set.
 * Asserts that with shedding on only 2xx, 429 and 503 are seen (anything else, or a connection closed
 * without an answer, fails the run; the baseline's are printed);
 * the figures are printed, not asserted (they depend on the machine).
 */
import '@forpost/contract/zod-setup';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase, type Database } from '../apps/api/src/db/client';
import { startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';
import { seedEventReference } from '../apps/api/src/modules/events/refs/refs';
import { createCardVault } from '../apps/api/src/modules/events/write/event-data';
import { createHttpClient } from './http-client';
import { eventRows, insertEventRows, loadEventRefs } from './seed-events';

const TOTAL = Number(process.env.EVENTS ?? 50_000);
/** Time and request bound of one concurrency level of the capacity search. */
const LEVEL_MS = Number(process.env.LEVEL_MS ?? 3000);
const LEVEL_MAX_REQUESTS = 20_000;
const MAX_CONCURRENCY = 256;
const MIN_CONCURRENCY = 16;
/** Length of each overload run (its request count is 2 × capacity × this). */
const OVERLOAD_MS = Number(process.env.OVERLOAD_MS ?? 10_000);
const MAX_INFLIGHT = 2000;
const ISSUE_CLIENTS = 200;
const ISSUE_MS = 10_000;
const ISSUE_MAX_REQUESTS = 40_000;
const PATH = '/api/v1/modules/domains/events?page=1&page_size=20';
const SECRET = randomBytes(32).toString('hex');
const ADMIN = { email: 'bench@forpost.local', password: 'Bench-Admin-2026!Password' };
const CHILD = 'FORPOST_LOAD_BENCH_CHILD';

const quiet = { info() {}, warn() {}, error: console.error };
const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)}  ${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} мс` : '—');

// ---- the load process ----------------------------------------------------------------------

type Job =
  | {
      mode: 'closed';
      base: string;
      cookie: string;
      concurrency: number;
      maxRequests: number;
      ms: number;
      /** After a 429/503 the client waits its Retry-After (else it asks again at once). */
      honorRetryAfter?: boolean;
    }
  | { mode: 'open'; base: string; cookie: string; rate: number; ms: number };
interface Result {
  elapsedMs: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Latencies (ms) of 2xx answers and of refusals (429/503). */
  admitted: number[];
  refused: number[];
  /** Failed connections / requests (no HTTP answer). */
  errors: string[];
  /** Open loop: arrivals not sent because MAX_INFLIGHT were in flight. */
  notSent: number;
  peakInflight: number;
}

function runJob(job: Job): Promise<Result> {
  const u = new URL(job.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.mode === 'closed' ? job.concurrency : MAX_INFLIGHT });
  const res: Result = { elapsedMs: 0, statuses: {}, admitted: [], refused: [], errors: [], notSent: 0, peakInflight: 0 };
  let inflight = 0;
  /** Resolves with the Retry-After of a refusal (seconds), else 0. */
  const one = () =>
    new Promise<number>((resolve) => {
      const t = performance.now();
      inflight++;
      res.peakInflight = Math.max(res.peakInflight, inflight);
      const req = http.request(
        { host: u.hostname, port: u.port, path: PATH, method: 'GET', agent, headers: { cookie: job.cookie } },
        (r) => {
          r.resume();
          r.on('end', () => {
            inflight--;
            const s = r.statusCode ?? 0;
            res.statuses[s] = (res.statuses[s] ?? 0) + 1;
            (s >= 200 && s < 300 ? res.admitted : res.refused).push(performance.now() - t);
            resolve(s === 429 || s === 503 ? Number(r.headers['retry-after'] ?? 0) : 0);
          });
        },
      );
      req.on('error', (e) => {
        inflight--;
        if (res.errors.length < 5) res.errors.push(e.message);
        else res.errors.push('');
        resolve(0);
      });
      req.end();
    });
  const t0 = performance.now();
  if (job.mode === 'closed') {
    let sent = 0;
    const worker = async () => {
      while (sent < job.maxRequests && performance.now() - t0 < job.ms) {
        sent++;
        const wait = await one();
        if (wait && job.honorRetryAfter) {
          const left = job.ms - (performance.now() - t0);
          if (left <= wait * 1000) break;
          await new Promise((r) => setTimeout(r, wait * 1000));
        }
      }
    };
    return Promise.all(Array.from({ length: job.concurrency }, worker)).then(() => {
      res.elapsedMs = performance.now() - t0;
      agent.destroy();
      return res;
    });
  }
  // Open loop: arrivals at a fixed rate, sent on a 1 ms tick.
  return new Promise((resolve) => {
    const total = Math.round((job.rate * job.ms) / 1000);
    let due = 0;
    const pending: Promise<number>[] = [];
    const tick = setInterval(() => {
      const now = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * job.rate));
      for (; due < now; due++) {
        if (inflight >= MAX_INFLIGHT) res.notSent++;
        else pending.push(one());
      }
      if (due >= total) {
        clearInterval(tick);
        Promise.all(pending).then(() => {
          res.elapsedMs = performance.now() - t0;
          agent.destroy();
          resolve(res);
        });
      }
    }, 1);
  });
}

if (process.env[CHILD]) {
  process.on('message', async (job: Job) => process.send?.(await runJob(job)));
}

function startLoad() {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CHILD]: '1' },
  });
  return {
    run: (job: Job) =>
      new Promise<Result>((resolve) => {
        child.once('message', (m: Result) => resolve(m));
        child.send(job);
      }),
    close: () => child.kill(),
  };
}

// ---- the bench -----------------------------------------------------------------------------

async function seed(url: string, db: Database['db'], companyIds: number[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await seedEventReference(db);
  const refs = await loadEventRefs(client);
  const vault = createCardVault(SECRET);
  let batch: Record<string, unknown>[] = [];
  let n = 0;
  for (const row of eventRows({ seed: 2026, count: TOTAL, companyIds, refs, vault, modules: ['domains'] })) {
    batch.push(row);
    n++;
    if (batch.length >= 5000) {
      await insertEventRows(client, batch);
      batch = [];
    }
  }
  await insertEventRows(client, batch);
  await client.query('VACUUM (ANALYZE) events');
  await client.query('CHECKPOINT');
  await client.end();
  return n;
}

const rps = (r: Result) => (r.admitted.length + r.refused.length) / (r.elapsedMs / 1000);
const okRps = (r: Result) => r.admitted.length / (r.elapsedMs / 1000);

/** Only 2xx, 429 and 503 may be answered, and every request must get an answer. */
function check(r: Result, what: string) {
  const bad = Object.keys(r.statuses).filter((s) => !(s.startsWith('2') || s === '429' || s === '503'));
  if (bad.length || r.errors.length)
    throw new Error(
      `${what}: недопустимые ответы ${JSON.stringify(r.statuses)}; ошибок соединения ${r.errors.length} ${r.errors.filter(Boolean).join('; ')}`,
    );
}

function summary(r: Result) {
  const total = r.admitted.length + r.refused.length;
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const shed = total ? (100 * ((r.statuses['503'] ?? 0) + (r.statuses['429'] ?? 0))) / total : 0;
  return (
    `ответы {${statuses}}; сброшено ${shed.toFixed(1)} %; 2xx ${okRps(r).toFixed(0)}/с; ` +
    `2xx p50 ${ms(pct(r.admitted, 50))}, p99 ${ms(pct(r.admitted, 99))}; ` +
    `отказы p50 ${ms(pct(r.refused, 50))}, p99 ${ms(pct(r.refused, 99))}; в полёте до ${r.peakInflight}` +
    (r.notSent ? `; не отправлено (клиент упёрся в ${MAX_INFLIGHT} в полёте): ${r.notSent}` : '') +
    (r.errors.length ? `; соединение оборвано без ответа: ${r.errors.length} (${r.errors.find(Boolean)})` : '')
  );
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'forpost-bench-load-'));
  const port = 57000 + Math.floor(Math.random() * 2000);
  log(`встроенный PostgreSQL в ${dir}`);
  const embedded = await startEmbedded({ dataDir: dir, port, log: quiet });
  const load = startLoad();
  try {
    await runMigrations(embedded.url);
    const database = createDatabase(embedded.url, quiet, 10);
    await ensureFirstAdmin(database.db, ADMIN.email, ADMIN.password);
    const companyIds: number[] = [];
    for (const name of ['Альфа-Банк', 'Бета-Финанс', 'Гамма-Маркет'])
      companyIds.push((await database.pool.query('INSERT INTO companies (name) VALUES ($1) RETURNING id', [name])).rows[0].id);
    const seeded = await seed(embedded.url, database.db, companyIds);
    log(`загружено ${seeded.toLocaleString('ru-RU')} событий модуля «Домены»`);

    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: embedded.url,
      SECRET,
      LOG_LEVEL: 'error',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      CONSOLE_DIST: path.join(dir, 'no-console'),
      // The overload is of pages read from the database (the same query again and again would be
      // answered from memory: modules/events/list-cache.ts).
      LIST_CACHE_MS: '0',
      // The thresholds as configured (defaults unless set in the environment).
      ...Object.fromEntries(
        ['MAX_EVENT_LOOP_DELAY_MS', 'DB_POOL_MAX_WAITING'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
      ),
    });
    log(
      `порог сброса: задержка цикла событий > ${config.maxEventLoopDelayMs} мс, ждут соединения > ${config.dbPoolMaxWaiting} (пул 10)`,
    );
    // The baseline: the same app with load shedding off, on its own pool of the same size.
    const offDatabase = createDatabase(embedded.url, quiet, 10);
    const apps = {
      off: await buildApp({
        config: { ...config, maxEventLoopDelayMs: 0, dbPoolMaxWaiting: 0 },
        database: offDatabase,
        logger: false,
      }),
      on: await buildApp({ config, database, logger: false }),
    };
    const base = {
      off: await apps.off.listen({ port: 0, host: '127.0.0.1' }),
      on: await apps.on.listen({ port: 0, host: '127.0.0.1' }),
    };
    const client = createHttpClient(base.on);
    await client.login(ADMIN.email, ADMIN.password);
    const cookie = client.cookie();
    const first = await client.request('GET', PATH);
    if (first.status !== 200) throw new Error(`${PATH}: ${first.status} ${first.body.slice(0, 300)}`);
    client.close();

    // Warm-up (JIT, connections, caches), untimed.
    for (const b of [base.off, base.on])
      check(await load.run({ mode: 'closed', base: b, cookie, concurrency: 8, maxRequests: 2000, ms: 3000 }), 'прогрев');

    // 1. Capacity: closed loop, doubling the concurrency until the throughput stops rising.
    const results: string[] = [];
    const say = (s: string) => {
      log(s);
      results.push(s);
    };
    say(`1. ёмкость (замкнутый цикл, до ${LEVEL_MS} мс на уровень, сброс включён):`);
    let best = 0;
    let bestAt = 1;
    let rising = 0;
    let lastRise = 1;
    let flat = 0;
    for (let c = 1; c <= MAX_CONCURRENCY && (flat < 3 || c <= MIN_CONCURRENCY); c *= 2) {
      const r = await load.run({
        mode: 'closed',
        base: base.on,
        cookie,
        concurrency: c,
        maxRequests: LEVEL_MAX_REQUESTS,
        ms: LEVEL_MS,
      });
      check(r, `ёмкость, ${c} клиентов`);
      const x = okRps(r);
      say(
        `   ${String(c).padStart(3)} клиентов: ${x.toFixed(0)} ответов 2xx/с, p50 ${ms(pct(r.admitted, 50))}, p99 ${ms(pct(r.admitted, 99))}${r.refused.length ? `, отказов ${r.refused.length}` : ''}`,
      );
      if (x > rising * 1.05) {
        rising = x;
        lastRise = c;
        flat = 0;
      } else flat++;
      if (x > best) [best, bestAt] = [x, c];
    }
    const capacity = best;
    say(
      `   ёмкость ≈ ${capacity.toFixed(0)} запросов/с (лучшее, при ${bestAt} клиентах; последний рост больше 5 % — при ${lastRise})`,
    );

    /** A load run with the server side watched: its event-loop delay and the requests waiting for a connection. */
    const pools = { off: offDatabase.pool, on: database.pool };
    const watched = async (k: 'off' | 'on', job: Job) => {
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      let waiting = 0;
      const timer = setInterval(() => {
        waiting = Math.max(waiting, pools[k].waitingCount);
      }, 5);
      const r = await load.run(job);
      clearInterval(timer);
      loop.disable();
      const server = `; сервер: задержка цикла событий p99 ${ms(loop.percentile(99) / 1e6)}, ждали соединения до ${waiting}`;
      return { r, server };
    };
    const label = (k: 'off' | 'on') => (k === 'on' ? 'сброс включён ' : 'сброс выключен');

    // 2. Overload: open loop at 2× capacity, shedding off (baseline) and on.
    const rate = Math.round(2 * capacity);
    say(
      `2. перегрузка: открытый цикл, ${rate} запросов/с (2× ёмкости) в течение ${OVERLOAD_MS} мс, ${Math.round((rate * OVERLOAD_MS) / 1000)} запросов:`,
    );
    for (const k of ['off', 'on'] as const) {
      const { r, server } = await watched(k, { mode: 'open', base: base[k], cookie, rate, ms: OVERLOAD_MS });
      if (k === 'on') check(r, 'перегрузка');
      say(`   ${label(k)}: ${summary(r)}; длилось ${(r.elapsedMs / 1000).toFixed(1)} с${server}`);
    }

    // 3. The issue's case: 200 concurrent clients, closed loop; clients that ask again at once after a
    //    refusal (the worst case), then clients that wait the Retry-After.
    for (const honorRetryAfter of [false, true]) {
      say(
        `3${honorRetryAfter ? 'б' : 'а'}. ${ISSUE_CLIENTS} одновременных клиентов (замкнутый цикл, ${ISSUE_MS / 1000} с, не больше ${ISSUE_MAX_REQUESTS} запросов), после отказа ${honorRetryAfter ? 'ждут Retry-After' : 'сразу повторяют'}:`,
      );
      for (const k of ['off', 'on'] as const) {
        const { r, server } = await watched(k, {
          mode: 'closed',
          base: base[k],
          cookie,
          concurrency: ISSUE_CLIENTS,
          maxRequests: ISSUE_MAX_REQUESTS,
          ms: ISSUE_MS,
          honorRetryAfter,
        });
        if (k === 'on') check(r, `${ISSUE_CLIENTS} клиентов`);
        say(`   ${label(k)}: ${summary(r)}; всего ${rps(r).toFixed(0)} ответов/с${server}`);
      }
    }

    process.stdout.write(
      `\n=== bench/load.bench.ts: GET ${PATH}, ${seeded.toLocaleString('ru-RU')} событий, сессия консоли; только 2xx/429/503 — да ===\n${results.join('\n')}\n`,
    );
    await apps.on.close();
    await apps.off.close();
    await database.close();
    await offDatabase.close();
  } finally {
    load.close();
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!process.env[CHILD])
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
