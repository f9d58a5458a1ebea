import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** The real server process, as `npm start` runs it (embedded PostgreSQL in its own DATA_DIR). */
function start(dataDir: string, port: number, pgPort: number, stdio: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      DATABASE_URL: '',
      ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
      LOG_LEVEL: 'warn',
      CONSOLE_DIST: path.join(dataDir, 'no-console'),
    },
    stdio,
  });
}

async function waitHealthy(port: number, timeoutMs = 60_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (r.status === 200) return 200;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  return 0;
}

const exited = (p: ChildProcess) => new Promise<number | null>((r) => p.once('exit', (code) => r(code)));

describe('server process', () => {
  it('recovers after kill -9 (orphaned PostgreSQL) and shuts down gracefully on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-proc-'));
    const port = 18_000 + Math.floor(Math.random() * 1000);
    const pgPort = 58_000 + Math.floor(Math.random() * 900);

    const first = start(dataDir, port, pgPort);
    expect(await waitHealthy(port)).toBe(200);
    // Sign in, so the restart has data to keep.
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@forpost.local', password: 'Forpost-Admin-2026!Pass' }),
    });
    expect(login.status).toBe(200);

    first.kill('SIGKILL');
    await exited(first);
    // PostgreSQL outlived its parent: the next start must deal with it.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    const second = start(dataDir, port, pgPort);
    expect(await waitHealthy(port)).toBe(200);
    const again = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@forpost.local', password: 'Forpost-Admin-2026!Pass' }),
    });
    expect(again.status).toBe(200); // same data: the admin from the first start

    second.kill('SIGTERM');
    expect(await exited(second)).toBe(0);
    // The embedded database was stopped cleanly with it.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 180_000);

  it('says in Russian which port is taken when the embedded PostgreSQL cannot listen', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-proc-'));
    const pgPort = 58_900 + Math.floor(Math.random() * 90);
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(pgPort, '127.0.0.1', () => r()));
    try {
      const p = start(dataDir, 19_000 + Math.floor(Math.random() * 1000), pgPort, 'pipe');
      let err = '';
      p.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      expect(await exited(p)).toBe(1);
      expect(err).toContain(`Форпост не запустился: порт ${pgPort} встроенного PostgreSQL занят`);
      expect(err).toContain('EMBEDDED_PG_PORT');
    } finally {
      squatter.close();
    }
  }, 120_000);
});
