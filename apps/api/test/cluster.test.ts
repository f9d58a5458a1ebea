/*
 * WEB_CONCURRENCY=2 (lib/cluster.ts): `main.ts` on an empty DATA_DIR starts its embedded PostgreSQL once
 * and two API processes sharing one port; requests on new connections are answered by both (their pids
 * in the request log), the address is printed once, and SIGTERM stops all of them with exit code 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-cluster-'));
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** GET on a new connection (so the cluster may hand it to either process). */
function get(port: number, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, agent: false, headers: { connection: 'close' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

it('two API processes share the port and stop together', async () => {
  const [port, pgPort] = [await freePort(), await freePort()];
  let out = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(pgPort),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
      LOG_LEVEL: 'info',
      CONSOLE_DIST: path.join(dataDir, 'no-console'),
      WEB_CONCURRENCY: '2',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      DB_POOL_MAX_WAITING: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
  const lines = (d: Buffer) => {
    out += String(d);
  };
  child.stdout?.on('data', lines);
  child.stderr?.on('data', lines);
  // Both processes listening: the event is their log line, polled as the output grows.
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if ((out.match(/Server listening/g) ?? []).length >= 2) resolve();
    };
    child?.stdout?.on('data', check);
    child?.once('exit', () => reject(new Error(`exited:\n${out.slice(-3000)}`)));
    check();
  });
  const pids = () => {
    const s = new Set<number>();
    for (const l of out.split('\n')) {
      if (!l.includes('"request completed"')) continue;
      const m = /"pid":(\d+)/.exec(l);
      if (m) s.add(Number(m[1]));
    }
    return s;
  };
  for (let i = 0; i < 200 && pids().size < 2; i++) expect(await get(port, '/api/v1/health')).toBe(200);
  expect(pids().size).toBe(2);
  expect(pids().has(child.pid ?? -1)).toBe(false);
  expect(out.match(/Форпост: http/g)?.length).toBe(1);
  child.kill('SIGTERM');
  expect(await exit).toBe(0);
  await expect(get(port, '/api/v1/health')).rejects.toThrow();
}, 240_000);
