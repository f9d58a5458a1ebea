/*
 * Shared by bench/import.bench.ts and bench/export.bench.ts: a temporary embedded PostgreSQL with
 * the app (API side, in this process, sends the jobs) and a separate worker process (ROLE=worker,
 * exactly as in production) that runs them, whose RSS is sampled from /proc while it works.
 */
import '@forpost/contract/zod-setup';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import { type BuiltApp, buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase, type Database } from '../apps/api/src/db/client';
import { type EmbeddedDb, startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { startJobs } from '../apps/api/src/jobs';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';

/** The worker's heap cap, as scripts/start.mjs sets it for ROLE=worker. */
const WORKER_HEAP_MB = 160;
const quiet = { info() {}, warn() {}, error: console.error };
export const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)}  ${s}\n`);
export const mb = (b: number) => `${Math.round(b / 1024 / 1024)} МБ`;
export const fmt = (n: number) => Math.round(n).toLocaleString('ru-RU');
export const rate = (n: number, ms: number) => n / (ms / 1000);
const root = path.resolve(import.meta.dirname, '..');

export interface Bench {
  dir: string;
  embedded: EmbeddedDb;
  database: Database;
  app: BuiltApp;
  boss: PgBoss;
  /** Session cookie + Origin of the bench's SUPER_ADMIN. */
  headers: Record<string, string>;
  worker: ChildProcess;
  /** The worker's NODE_OPTIONS. */
  workerNodeOptions: string;
  close(): Promise<void>;
}

/** RSS of a process, bytes (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Samples a process's RSS every 25 ms while `fn` runs: peak and the value before. */
export async function sampleRss<T>(
  pid: number,
  fn: () => Promise<T>,
): Promise<{ result: T; peak: number; before: number; ms: number }> {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended
    }
  }, 25);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { result, peak, before, ms: performance.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}

export async function startBench(name: string): Promise<Bench> {
  const dir = mkdtempSync(path.join(tmpdir(), `forpost-bench-${name}-`));
  chmodSync(dir, 0o755); // the embedded server (OS user postgres) reads COPY files here…
  mkdirSync(path.join(dir, 'out'), { mode: 0o777 });
  chmodSync(path.join(dir, 'out'), 0o777); // …and writes them here
  const dataDir = path.join(dir, 'data');
  const secret = randomBytes(32).toString('hex');
  const admin = { email: 'bench@forpost.local', password: 'Bench-Admin-2026!Password' };
  const embedded = await startEmbedded({ dataDir, port: 57000 + Math.floor(Math.random() * 2000), log: quiet });
  await runMigrations(embedded.url);
  const database = createDatabase(embedded.url, quiet, 12);
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: embedded.url,
    SECRET: secret,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost:8080',
    CONSOLE_DIST: path.join(dir, 'none'),
    // The bench signs in once; loading 10M events outlasts the default 15-minute access session.
    ACCESS_TTL_SECONDS: String(24 * 3600),
  };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  await ensureFirstAdmin(database.db, admin.email, admin.password);
  const app = await buildApp({ config, database, logger: false });
  const boss = await startJobs(embedded.url, quiet, false);
  await app.services.transfer.attach(boss, { work: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: admin,
    headers: { origin: 'http://localhost:8080' },
  });
  const headers = { cookie: login.cookies.map((c) => `${c.name}=${c.value}`).join('; '), origin: 'http://localhost:8080' };

  // The worker: the production entry point with ROLE=worker (runs the jobs, serves nothing).
  const workerNodeOptions = process.env.WORKER_NODE_OPTIONS ?? `--max-old-space-size=${WORKER_HEAP_MB}`;
  // WORKER_NODE_ARGS: extra node flags for the worker (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, not allowed in NODE_OPTIONS).
  const extra = (process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const worker = spawn(process.execPath, [...extra, '--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      ROLE: 'worker',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      // As production starts a worker (scripts/start.mjs: WORKER_HEAP_MB); WORKER_NODE_OPTIONS='' measures V8's defaults.
      NODE_OPTIONS: workerNodeOptions,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Ready once it has attached its workers (pg-boss registers them in its queue table).
  const jobsConnections = async () =>
    Number(
      (await database.pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'forpost-jobs'")).rows[0].n,
    );
  const mine = await jobsConnections();
  for (let i = 0; i < 1200 && (await jobsConnections()) <= mine; i++) await sleep(100);
  await sleep(3000); // its workers are attached right after pg-boss starts

  return {
    dir,
    embedded,
    database,
    app,
    boss,
    headers,
    worker,
    workerNodeOptions,
    async close() {
      worker.kill('SIGTERM');
      await new Promise((res) => worker.once('exit', res)).catch(() => undefined);
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await app.close();
      await database.close();
      await embedded.stop();
      if (!process.env.KEEP_DB) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` says done (polling every 100 ms). */
export async function until<T>(check: () => Promise<T | undefined>, ms = 3_600_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timeout');
    await sleep(100);
  }
}
