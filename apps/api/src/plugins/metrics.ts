/*
 * Prometheus metrics (prom-client). Never public: off unless METRICS_PORT (an own listener on
 * METRICS_HOST, 127.0.0.1 by default) and/or METRICS_TOKEN (then /metrics on the main port answers
 * `Authorization: Bearer <token>` only; with both set the own listener asks for the token too).
 * Off, /metrics answers 404 like an unknown /api path.
 *
 * What is measured:
 *   - forpost_http_request_duration_seconds{method,route,status_code}: the route *pattern*
 *     (`/api/v1/events/:id`; "unmatched" for 404s of no route), never the raw URL;
 *   - forpost_db_pool_connections{state="total|idle"} and forpost_db_pool_waiting: this process's pool;
 *   - read from the database at scrape time, in one round trip (two the first time pg-boss's tables
 *     appear), under a 2 s statement timeout; the whole scrape is bounded by SCRAPE_DB_TIMEOUT_MS and
 *     forpost_metrics_database_ok says whether these values are fresh (0 = absent this scrape):
 *       forpost_jobs_queued / forpost_jobs_active {queue}: pg-boss queue depth;
 *       forpost_jobs_finished{queue,outcome}: completed/failed/cancelled jobs still in pgboss.job
 *         (pg-boss archives them after 12 h): an outcome rate is `delta(...)`, not `rate(...)`;
 *       forpost_transfer_jobs{kind,status}: imports/exports queued and running;
 *       forpost_transfer_rows_per_second{kind}: over the running imports/exports, the rows each has
 *         read/written divided by the seconds since it started, summed (0 when none runs);
 *       forpost_mail_messages{kind="mailing|report",status}: mailing deliveries and report sends by
 *         status (whole tables: rows removed with their mailing/report leave the count);
 *   - prom-client's default process metrics (CPU, memory, event loop, GC, handles).
 * Values read from the database describe the whole installation: every instance reports the same
 * ones (aggregate them with max(), not sum()).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsSettings } from '../config';
import type { Database } from '../db/client';
import { ApiError } from '../lib/errors';
import { errInfo } from '../lib/logger';
import { registerErrorHandling, sendNotFound } from './errors';
import { type DbSnapshot, readScrape } from './metrics.query';

const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_MSG = 'Нужен токен метрик: заголовок Authorization: Bearer <METRICS_TOKEN>';
/** The database part of a scrape gives up after this (the process metrics are still answered). */
const SCRAPE_DB_TIMEOUT_MS = 3000;

export interface MetricsHandle {
  registry: Registry;
  /** The own listener's address (METRICS_PORT set), e.g. for tests on port 0. */
  address(): { host: string; port: number } | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus metrics (null = off). */
    metrics: MetricsHandle | null;
  }
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/** Resolves to `p`, or rejects after `ms`; a late value is handed to `late` (to release a connection). */
function within<T>(p: Promise<T>, ms: number, late?: (v: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`metrics: no answer from the database in ${ms} ms`));
    }, ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        if (done) late?.(v);
        else resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        if (!done) reject(e);
      },
    );
  });
}

/** The database side of a scrape: one multi-statement query on one connection (one round trip). */
function createDbReader(pool: pg.Pool) {
  let bossKnown = false;
  let inFlight: Promise<DbSnapshot> | null = null;

  async function read(): Promise<DbSnapshot> {
    const client = await within(pool.connect(), SCRAPE_DB_TIMEOUT_MS, (c) => c.release());
    let failed: Error | undefined;
    try {
      let snap = await readScrape(client, bossKnown, SCRAPE_DB_TIMEOUT_MS - 1000);
      const bossThere = snap.app.some((r) => r.area === 'boss' && r.n === 1);
      if (bossThere && !bossKnown) {
        bossKnown = true;
        snap = await readScrape(client, true, SCRAPE_DB_TIMEOUT_MS - 1000);
      }
      bossKnown = bossThere;
      return snap;
    } catch (e) {
      failed = e as Error;
      throw e;
    } finally {
      // A failed or timed-out connection is not handed to the next request.
      client.release(failed);
    }
  }

  /** Scrapes at the same moment (several scrapers, both listeners) share one read. */
  return function snapshot(): Promise<DbSnapshot> {
    inFlight ??= within(read(), SCRAPE_DB_TIMEOUT_MS).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** Equal tokens, compared in constant time (hashes of equal length; the length of the token leaks nothing). */
function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
}

/**
 * Registers /metrics on the main app (404 unless METRICS_TOKEN) and, with METRICS_PORT, starts the
 * own listener; call before the routes (the HTTP histogram hooks every route registered after it).
 */
export async function registerMetrics(
  app: FastifyInstance,
  deps: { settings: MetricsSettings; database: Database },
): Promise<MetricsHandle | null> {
  const { settings } = deps;
  const { token } = settings;
  const enabled = settings.port !== undefined || token !== undefined;
  if (!enabled) {
    app.decorate('metrics', null);
    app.get(METRICS_PATH, { schema: { hide: true } }, async (_req, reply) => sendNotFound(reply));
    return null;
  }

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const http = new Histogram({
    name: 'forpost_http_request_duration_seconds',
    help: 'Время ответа HTTP по шаблону маршрута (не по адресу запроса) и коду ответа',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  app.addHook('onResponse', (req, reply, done) => {
    http.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const pool = deps.database.pool;
  new Gauge({
    name: 'forpost_db_pool_connections',
    help: 'Соединения пула PostgreSQL этого процесса: всего открыто и свободны',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'forpost_db_pool_waiting',
    help: 'Запросы этого процесса, ждущие соединения с PostgreSQL',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });

  const dbOk = new Gauge({
    name: 'forpost_metrics_database_ok',
    help: '1 — показатели из базы данных прочитаны при этом опросе, 0 — база не ответила вовремя',
    registers,
  });
  const queued = new Gauge({
    name: 'forpost_jobs_queued',
    help: 'Задания pg-boss в очереди (created и retry)',
    labelNames: ['queue'] as const,
    registers,
  });
  const active = new Gauge({
    name: 'forpost_jobs_active',
    help: 'Задания pg-boss, выполняемые сейчас',
    labelNames: ['queue'] as const,
    registers,
  });
  const finished = new Gauge({
    name: 'forpost_jobs_finished',
    help: 'Завершённые задания pg-boss, ещё не перенесённые в архив (через 12 ч): completed, failed, cancelled',
    labelNames: ['queue', 'outcome'] as const,
    registers,
  });
  const transferJobs = new Gauge({
    name: 'forpost_transfer_jobs',
    help: 'Импорты и выгрузки в очереди и в работе',
    labelNames: ['kind', 'status'] as const,
    registers,
  });
  const transferRate = new Gauge({
    name: 'forpost_transfer_rows_per_second',
    help: 'Строк в секунду: сумма по идущим импортам (прочитано) и выгрузкам (записано), строки с начала задания на его длительность',
    labelNames: ['kind'] as const,
    registers,
  });
  const mail = new Gauge({
    name: 'forpost_mail_messages',
    help: 'Письма рассылок (mailing) и отправки отчётов (report) по состоянию: sent, failed, ожидающие',
    labelNames: ['kind', 'status'] as const,
    registers,
  });
  const fromDb = [queued, active, finished, transferJobs, transferRate, mail];

  const snapshot = createDbReader(pool);
  async function refresh(log: FastifyRequest['log']) {
    try {
      const snap = await snapshot();
      for (const g of fromDb) g.reset();
      for (const kind of ['import', 'export']) {
        transferRate.set({ kind }, 0);
        for (const status of ['queued', 'running']) transferJobs.set({ kind, status }, 0);
      }
      for (const r of snap.app) {
        if (r.area === 'transfer' && r.kind && r.label) {
          transferJobs.set({ kind: r.kind, status: r.label }, r.n);
          if (r.label === 'running') transferRate.set({ kind: r.kind }, r.rate);
        } else if (r.area === 'mail' && r.kind && r.label) mail.set({ kind: r.kind, status: r.label }, r.n);
      }
      for (const r of snap.boss) {
        queued.inc({ queue: r.queue }, 0);
        active.inc({ queue: r.queue }, 0);
        for (const outcome of ['completed', 'failed', 'cancelled']) finished.inc({ queue: r.queue, outcome }, 0);
        if (r.state === 'created' || r.state === 'retry') queued.inc({ queue: r.queue }, r.n);
        else if (r.state === 'active') active.inc({ queue: r.queue }, r.n);
        else if (r.state === 'completed' || r.state === 'failed' || r.state === 'cancelled')
          finished.inc({ queue: r.queue, outcome: r.state }, r.n);
      }
      dbOk.set(1);
    } catch (e) {
      for (const g of fromDb) g.reset();
      dbOk.set(0);
      log.warn({ err: errInfo(e) }, 'metrics: database values skipped');
    }
  }

  async function serve(req: FastifyRequest, reply: FastifyReply) {
    if (token !== undefined && !tokenMatches(bearerOf(req), token)) {
      throw new ApiError(401, METRICS_TOKEN_MSG, undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    await refresh(req.log);
    reply.header('cache-control', 'no-store');
    return reply.type(registry.contentType).send(await registry.metrics());
  }

  // The main port: with the token only (else 404, as when metrics are off).
  app.get(METRICS_PATH, { schema: { hide: true } }, async (req, reply) =>
    token === undefined ? sendNotFound(reply) : serve(req, reply),
  );

  let server: FastifyInstance | null = null;
  if (settings.port !== undefined) {
    // The app's logger at warn: a scrape every few seconds is not worth an info line.
    const level = ['fatal', 'error', 'silent'].includes(app.log.level) ? app.log.level : 'warn';
    server = Fastify({ loggerInstance: app.log.child({}, { level }), return503OnClosing: true });
    registerErrorHandling(server);
    server.setNotFoundHandler((_req, reply) => sendNotFound(reply));
    server.get(METRICS_PATH, serve);
    const own = server;
    // Listens once the app is ready (a build that fails leaves no socket open); a busy port fails the start.
    app.addHook('onReady', async () => {
      await own.listen({ port: settings.port, host: settings.host });
      app.log.info({ host: settings.host, port: settings.port }, 'metrics listener started');
    });
    app.addHook('onClose', async () => own.close());
  }

  const handle: MetricsHandle = {
    registry,
    address() {
      const a = server?.server.address();
      return a && typeof a === 'object' ? { host: a.address, port: a.port } : null;
    },
  };
  app.decorate('metrics', handle);
  return handle;
}
