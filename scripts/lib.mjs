import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** Runs a command, inheriting stdio; resolves with its exit code. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A lock older than this is a crashed build's leftover even if its pid was reused. */
const LOCK_STALE_MS = 15 * 60_000;

function lockIsStale(file) {
  try {
    const [pid, host] = readFileSync(file, 'utf8').split('\n');
    if (Date.now() - statSync(file).mtimeMs > LOCK_STALE_MS) return true;
    if (host !== hostname()) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (e) {
      return e.code === 'ESRCH';
    }
  } catch {
    return false; // gone or half-written: look again
  }
}

/**
 * Runs `fn` holding an exclusive lock file (created with 'wx'). A concurrent caller waits for the holder
 * to finish, then runs `fn` itself — `fn` re-checks whether the build is still needed. The lock of a
 * dead process (same host, no such pid) or an old one is taken over.
 */
async function withLock(file, fn) {
  let said = false;
  for (;;) {
    try {
      closeSync(openSync(file, 'wx'));
      writeFileSync(file, `${process.pid}\n${hostname()}\n`);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (lockIsStale(file)) {
        rmSync(file, { force: true });
        continue;
      }
      if (!said) console.log(`Ждём другую сборку (${path.relative(root, file)})…`);
      said = true;
      await sleep(250);
    }
  }
  const release = () => rmSync(file, { force: true });
  process.once('exit', release);
  try {
    return await fn();
  } finally {
    process.off('exit', release);
    release();
  }
}

/**
 * Builds a folder atomically: `build(tmp)` writes a temporary sibling, which then replaces `dist` by
 * two renames (the old one aside, the new one in, the old one removed). A reader sees the old build or
 * the new one, never a half-written folder.
 */
async function buildAtomically(dist, build) {
  const tmp = `${dist}.tmp-${process.pid}`;
  const old = `${dist}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await build(tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(tmp, dist);
  rmSync(old, { recursive: true, force: true });
}

const CONSOLE_DIST = path.join(root, 'apps/console/dist');

function consoleStale() {
  const built = mtime(path.join(CONSOLE_DIST, 'index.html'));
  const sources = Math.max(
    newestMtime(path.join(root, 'apps/console/src')),
    newestMtime(path.join(root, 'packages/contract/src')),
    statSync(path.join(root, 'apps/console/index.html')).mtimeMs,
    statSync(path.join(root, 'apps/console/vite.config.ts')).mtimeMs,
  );
  return !built || built < sources;
}

/** Builds the console when dist is missing or older than its sources (`force`: always). */
export async function ensureConsoleBuilt({ force = false } = {}) {
  if (!force && !consoleStale()) return;
  await withLock(`${CONSOLE_DIST}.lock`, async () => {
    if (!force && !consoleStale()) return; // built by the process we waited for
    console.log('Сборка консоли…');
    await buildAtomically(CONSOLE_DIST, async (tmp) => {
      const code = await run('npm', ['run', 'build', '-w', '@forpost/console', '--', '--outDir', tmp, '--emptyOutDir']);
      if (code !== 0) throw new Error('Сборка консоли не удалась');
    });
  });
}

const API_DIST = path.join(root, 'apps/api/dist');
const API_MAIN = path.join(API_DIST, 'main.js');

function apiStale() {
  const built = mtime(API_MAIN);
  const sources = Math.max(
    newestMtime(path.join(root, 'apps/api/src')),
    newestMtime(path.join(root, 'packages/contract/src')),
    mtime(path.join(root, 'apps/api/package.json')),
    mtime(path.join(root, 'scripts/lib.mjs')),
  );
  return !built || built < sources;
}

/**
 * Compiles the API (packages/contract bundled in, npm dependencies external) into apps/api/dist/main.js:
 * production runs plain JavaScript, no TypeScript loader. Rebuilt when missing or older than its sources.
 */
export async function ensureApiBuilt({ force = false } = {}) {
  if (!force && !apiStale()) return;
  await withLock(`${API_DIST}.lock`, async () => {
    if (!force && !apiStale()) return;
    console.log('Сборка API…');
    const { build } = await import('esbuild');
    const pkg = JSON.parse(readFileSync(path.join(root, 'apps/api/package.json'), 'utf8'));
    const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@forpost/'));
    await buildAtomically(API_DIST, async (tmp) => {
      await build({
        absWorkingDir: root,
        entryPoints: ['apps/api/src/main.ts'],
        outfile: path.join(tmp, 'main.js'),
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        external,
        sourcemap: true,
        logLevel: 'warning',
      });
    });
  });
}

/**
 * Starts the API server as a child, forwarding SIGINT/SIGTERM so it shuts down gracefully.
 * `compiled` (npm start): runs apps/api/dist/main.js, building it first when missing or stale; otherwise
 * (npm run dev, the e2e server) runs the TypeScript sources through tsx — `entry` (the e2e server's
 * e2e/server-main.ts, which calls main with its deps) instead of apps/api/src/main.ts when given.
 */
export async function startServer(env = {}, { compiled = false, entry = 'apps/api/src/main.ts' } = {}) {
  if (compiled) await ensureApiBuilt();
  const args = compiled ? ['--enable-source-maps', API_MAIN] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ...env },
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  return child;
}
