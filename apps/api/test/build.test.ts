/*
 * Production start (issue «Two machines and more», defect 4): the API runs as compiled JavaScript
 * from a build made once; concurrent builds never leave a half-written folder; a worker never builds
 * the console.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const apiDist = path.join(root, 'apps/api/dist');

function node(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p = { child, out: '', exit: new Promise<number | null>((r) => child.once('exit', (c) => r(c))) };
  child.stdout.on('data', (d) => {
    p.out += String(d);
  });
  child.stderr.on('data', (d) => {
    p.out += String(d);
  });
  return p;
}

async function printed(p: { out: string; child: ChildProcess }, text: string, ms = 90_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (p.out.includes(text)) return true;
    if (p.child.exitCode !== null) return false;
    await sleep(100);
  }
  return false;
}

const leftovers = (dir: string) => readdirSync(dir).filter((f) => /^dist\.(tmp|old)-|^dist\.lock$/.test(f));

describe('production build and start', () => {
  it('two forced API builds at the same instant both succeed, leave one whole build and no temporary folders', async () => {
    const build = () =>
      node(['--input-type=module', '-e', "await (await import('./scripts/lib.mjs')).ensureApiBuilt({ force: true });"]);
    const runs = [build(), build()];
    const codes = await Promise.all(runs.map((r) => r.exit));
    expect(codes, runs.map((r) => r.out).join('\n---\n')).toEqual([0, 0]);
    expect(statSync(path.join(apiDist, 'main.js')).size).toBeGreaterThan(100_000);
    expect(leftovers(path.join(root, 'apps/api'))).toEqual([]);
  }, 120_000);

  it('the compiled API starts on its own (no TypeScript loader) and answers', async () => {
    const port = 18_500 + Math.floor(Math.random() * 400);
    const p = node(['apps/api/dist/main.js'], {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'forpost-compiled-')),
      PORT: String(port),
      EMBEDDED_PG_PORT: String(58_100 + Math.floor(Math.random() * 800)),
      DATABASE_URL: '',
      ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
      LOG_LEVEL: 'info',
      CONSOLE_DIST: path.join(root, '.tmp', 'no-console'),
    });
    try {
      expect(await printed(p, 'Форпост: http'), p.out.slice(-3000)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
      expect(p.child.spawnargs.join(' ')).not.toContain('tsx');
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
    }
  }, 120_000);

  it('npm start with ROLE=worker never touches the console build', async () => {
    const index = path.join(root, 'apps/console/dist/index.html');
    const before = existsSync(index) ? statSync(index) : undefined;
    // Make the console build look stale, so a start that builds it would do so here (restored after).
    const source = path.join(root, 'apps/console/index.html');
    const was = statSync(source);
    utimesSync(source, was.atime, new Date(Date.now() + 1000));
    const p = node(['scripts/start.mjs'], {
      ROLE: 'worker',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'forpost-worker-')),
      EMBEDDED_PG_PORT: String(58_100 + Math.floor(Math.random() * 800)),
      DATABASE_URL: '',
      ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
      LOG_LEVEL: 'info',
    });
    try {
      expect(await printed(p, 'Форпост: обработчик задач запущен'), p.out.slice(-3000)).toBe(true);
      expect(p.out).not.toContain('Сборка консоли');
      const after = existsSync(index) ? statSync(index) : undefined;
      expect(after?.ino).toBe(before?.ino);
      expect(after?.mtimeMs).toBe(before?.mtimeMs);
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
      utimesSync(source, was.atime, was.mtime);
    }
  }, 120_000);
});
