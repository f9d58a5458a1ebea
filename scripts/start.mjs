// npm start: build the console and the API if needed (npm run build does both at install), then run the
// compiled server (embedded PostgreSQL unless DATABASE_URL is set).
import { ensureConsoleBuilt, startServer } from './lib.mjs';

/**
 * A worker process (ROLE=worker: imports, exports, reports) runs with a capped V8 old space. Its live
 * heap stays small, but without a cap V8 lets the garbage of a big import or export pile up to
 * 450–560 MB of RSS before collecting; with it RSS stays under 300 MB at the same speed
 * (docs/operations.md). WORKER_HEAP_MB changes the cap; a max-old-space-size in NODE_OPTIONS wins.
 */
export const WORKER_HEAP_MB = 160;

function workerEnv(env) {
  if (env.ROLE !== 'worker' || /--max-old-space-size/.test(env.NODE_OPTIONS ?? '')) return {};
  const mb = Number(env.WORKER_HEAP_MB) || WORKER_HEAP_MB;
  return { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --max-old-space-size=${mb}`.trim() };
}

// A worker serves no pages: it never builds the console (several machines' workers would race on it).
if (process.env.ROLE !== 'worker') await ensureConsoleBuilt();
await startServer(workerEnv(process.env), { compiled: true });
