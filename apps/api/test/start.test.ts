/*
 * Several processes of one installation started at the same instant: on an empty external database
 * they all come up (the schema lock), they must share one SECRET (a different or missing one refuses
 * to start), and processes sharing an empty DATA_DIR agree on the generated secret.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDb, runningEmbeddedPort, startEmbedded } from '../src/db/embedded';
import { SECRET_MISMATCH, SECRET_REQUIRED } from '../src/lib/instance';

const root = path.resolve(import.meta.dirname, '../../..');
const RUNS = Number(process.env.START_RACE_RUNS ?? 3);
const quiet = { info() {}, warn() {}, error() {} };
let server: EmbeddedDb;
let adminUrl: string;
const pgDataDir = mkdtempSync(path.join(tmpdir(), 'forpost-start-pg-'));
const pgPort = 57_000 + Math.floor(Math.random() * 900);

beforeAll(async () => {
  server = await startEmbedded({ dataDir: pgDataDir, port: pgPort, log: quiet });
  adminUrl = server.url.replace(/\/forpost$/, '/postgres');
}, 120_000);
afterAll(() => server?.stop());

describe('the embedded database of a DATA_DIR', () => {
  it('is found by its running port, whatever port it was started on (npm run demo beside npm start)', () => {
    expect(pgPort).not.toBe(54329);
    expect(runningEmbeddedPort(pgDataDir)).toBe(pgPort);
    expect(runningEmbeddedPort(mkdtempSync(path.join(tmpdir(), 'forpost-no-pg-')))).toBeNull();
  });
});

async function freshDatabase(): Promise<string> {
  const name = `start_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

interface Proc {
  child: ChildProcess;
  out: string;
  exit: Promise<number | null>;
}

/** The server as `npm start` runs it on one machine of several: its own DATA_DIR, the shared database. */
function start(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'forpost-machine-')),
      ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
      LOG_LEVEL: 'info',
      CONSOLE_DIST: path.join(root, '.tmp', 'no-console'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Proc = { child, out: '', exit: new Promise((r) => child.once('exit', (code) => r(code))) };
  child.stdout?.on('data', (d) => {
    p.out += String(d);
  });
  child.stderr?.on('data', (d) => {
    p.out += String(d);
  });
  return p;
}

/** Resolves when `p` printed `text` (true) or exited first (false). */
async function printed(p: Proc, text: string, timeoutMs = 90_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  let exited = false;
  void p.exit.then(() => {
    exited = true;
  });
  while (Date.now() < until) {
    if (p.out.includes(text)) return true;
    if (exited) return false;
    await sleep(100);
  }
  return false;
}

const port = () => 19_000 + Math.floor(Math.random() * 900);

describe('simultaneous start of several processes', () => {
  it(
    `two ROLE=api and one ROLE=worker started at the same instant on an empty database all come up (${RUNS} times)`,
    async () => {
      const secret = randomBytes(32).toString('hex');
      for (let run = 0; run < RUNS; run++) {
        const url = await freshDatabase();
        const [p1, p2] = [port(), port() + 1000];
        const procs = [
          start({ DATABASE_URL: url, SECRET: secret, ROLE: 'api', PORT: String(p1) }),
          start({ DATABASE_URL: url, SECRET: secret, ROLE: 'api', PORT: String(p2) }),
          start({ DATABASE_URL: url, SECRET: secret, ROLE: 'worker' }),
        ];
        try {
          const up = await Promise.all([
            printed(procs[0] as Proc, 'Форпост: http'),
            printed(procs[1] as Proc, 'Форпост: http'),
            printed(procs[2] as Proc, 'Форпост: обработчик задач запущен'),
          ]);
          expect(up, procs.map((p) => p.out.slice(-2000)).join('\n---\n')).toEqual([true, true, true]);
          for (const p of [p1, p2]) expect((await fetch(`http://127.0.0.1:${p}/api/v1/health`)).status).toBe(200);
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          const admins = await c.query(`SELECT count(*)::int AS n FROM users WHERE role = 'SUPER_ADMIN'`);
          const queues = await c.query(`SELECT count(*)::int AS n FROM pgboss.queue`);
          await c.end();
          expect(admins.rows[0].n).toBe(1);
          expect(queues.rows[0].n).toBeGreaterThan(0);
        } finally {
          for (const p of procs) p.child.kill('SIGKILL');
          await Promise.all(procs.map((p) => p.exit));
        }
      }
    },
    120_000 * RUNS,
  );

  it('a process with another SECRET, or none, refuses to start with a Russian message; the same SECRET starts', async () => {
    const url = await freshDatabase();
    const secret = randomBytes(32).toString('hex');
    const first = start({ DATABASE_URL: url, SECRET: secret, ROLE: 'worker' });
    try {
      expect(await printed(first, 'Форпост: обработчик задач запущен'), first.out).toBe(true);
    } finally {
      first.child.kill('SIGKILL');
      await first.exit;
    }
    const other = start({ DATABASE_URL: url, SECRET: randomBytes(32).toString('hex'), ROLE: 'worker' });
    expect(await other.exit).toBe(1);
    expect(other.out).toContain(SECRET_MISMATCH);
    expect(other.out).not.toContain(secret);
    const none = start({ DATABASE_URL: url, SECRET: '', ROLE: 'worker' });
    expect(await none.exit).toBe(1);
    expect(none.out).toContain(SECRET_REQUIRED);
    const same = start({ DATABASE_URL: url, SECRET: secret, ROLE: 'worker' });
    try {
      expect(await printed(same, 'Форпост: обработчик задач запущен'), same.out).toBe(true);
    } finally {
      same.child.kill('SIGKILL');
      await same.exit;
    }
  }, 240_000);

  it('processes sharing an empty DATA_DIR at the same instant generate one secret between them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forpost-shared-'));
    const script =
      "import { createHash } from 'node:crypto'; import { loadConfig } from './apps/api/src/config.ts';" +
      "process.stdout.write(createHash('sha256').update(loadConfig({ DATA_DIR: process.env.D }).secret).digest('hex'));";
    const runs = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        env: { ...process.env, D: dir, SECRET: '' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
      });
      return new Promise<string>((r) => child.once('exit', () => r(out)));
    });
    const hashes = await Promise.all(runs);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(hashes).size).toBe(1);
  }, 60_000);
});
