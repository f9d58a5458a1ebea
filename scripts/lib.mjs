import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** Builds the console when dist is missing or older than its sources. */
export async function ensureConsoleBuilt() {
  const index = path.join(root, 'apps/console/dist/index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(path.join(root, 'apps/console/src')),
    newestMtime(path.join(root, 'packages/contract/src')),
    statSync(path.join(root, 'apps/console/index.html')).mtimeMs,
    statSync(path.join(root, 'apps/console/vite.config.ts')).mtimeMs,
  );
  if (built && built >= sources) return;
  console.log('Сборка консоли…');
  const code = await run('npm', ['run', 'build', '-w', '@forpost/console']);
  if (code !== 0) throw new Error('Сборка консоли не удалась');
}

/** Starts the API server as a child, forwarding SIGINT/SIGTERM so it shuts down gracefully. */
export function startServer(env = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ...env },
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  return child;
}
