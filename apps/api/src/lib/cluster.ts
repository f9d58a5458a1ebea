import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { type EmbeddedDb, startEmbedded } from '../db/embedded';

/** Set in a process forked by the cluster primary: its index (0 … WEB_CONCURRENCY − 1). */
export const CLUSTER_INDEX = 'FORPOST_CLUSTER_INDEX';

/** DATABASE_URL, or the embedded PostgreSQL in DATA_DIR started now. */
export async function openDatabase(config: Config, log: Logger): Promise<{ url: string; embedded?: EmbeddedDb }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbedded({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
  log.info({ dir: `${config.dataDir}/postgres`, port: config.embeddedPgPort }, 'embedded PostgreSQL started');
  return { url: embedded.url, embedded };
}

/** This process should be the primary of WEB_CONCURRENCY API processes sharing the port. */
export function isClusterPrimary(config: Config): boolean {
  return config.webConcurrency > 1 && config.role !== 'worker' && cluster.isPrimary && !process.env[CLUSTER_INDEX];
}

/**
 * WEB_CONCURRENCY = N > 1: this process serves nothing itself; it starts the embedded PostgreSQL (when
 * no DATABASE_URL is given: one database for all), then forks N processes that share the port
 * (node:cluster hands connections round-robin). Process 0 keeps the configured ROLE (with `all` it runs
 * the background jobs); the others are ROLE=api, so jobs do not multiply with the web processes. Each
 * runs main.ts as usual: migrations and start-up run under the schema lock one after another. A process
 * that dies is started again; SIGTERM/SIGINT is passed to all, and the primary exits when they have
 * finished (then stops the embedded database).
 */
export async function runClusterPrimary(config: Config, log: Logger): Promise<void> {
  const { url, embedded } = await openDatabase(config, log);
  // The generated secret is passed on: with a DATABASE_URL the processes require it from the environment.
  const baseEnv = { DATABASE_URL: url, SECRET: config.secret };
  let stopping = false;
  const workers = new Map<Worker, number>();
  const fork = (i: number) => {
    const w = cluster.fork({ ...baseEnv, [CLUSTER_INDEX]: String(i), ROLE: i === 0 ? config.role : 'api' });
    workers.set(w, i);
    w.on('exit', (code, signal) => {
      workers.delete(w);
      if (stopping) {
        if (!workers.size) void done();
        return;
      }
      log.error({ index: i, code, signal }, 'API process exited; starting it again');
      fork(i);
    });
  };
  const done = async () => {
    await embedded?.stop();
    process.exit(0);
  };
  for (let i = 0; i < config.webConcurrency; i++) fork(i);
  log.info({ processes: config.webConcurrency }, 'API processes started');
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    if (!workers.size) void done();
    for (const w of workers.keys()) w.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
