import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { type AppDeps, buildApp } from './app';
import { loadConfig } from './config';
import { createDatabase } from './db/client';
import { migrateOn, withSchemaLock } from './db/migrate';
import { startJobs } from './jobs';
import { ensureFirstAdmin } from './lib/bootstrap';
import { CLUSTER_INDEX, isClusterPrimary, openDatabase, runClusterPrimary } from './lib/cluster';
import { checkSharedSecret, SECRET_REQUIRED } from './lib/instance';
import { errInfo } from './lib/logger';
import { startIndicatorsBackfill, startSearchBackfill, startTitlesBackfill } from './modules/events/index';

/** Connections of a process's pool for requests and the other jobs. */
const POOL_BASE = 10;

/**
 * config → database (embedded or external) → under the schema lock: migrate, jobs, app → listen.
 * `deps`: what a caller injects into the app, as buildApp takes it (the e2e server's MTProto factory).
 */
export async function main(deps: Pick<AppDeps, 'mtproto'> = {}) {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  // With an external database every machine must share one secret: a generated one is per DATA_DIR.
  if (config.databaseUrl && !config.secretFromEnv) throw new Error(SECRET_REQUIRED);
  // WEB_CONCURRENCY > 1: this process only starts the database and the API processes (lib/cluster.ts).
  if (isClusterPrimary(config)) return runClusterPrimary(config, log);
  const { url: dbUrl, embedded } = await openDatabase(config, log);
  const work = config.role !== 'api';
  // A process that runs jobs: an import holds its job's connection plus one per batch being written.
  const database = createDatabase(dbUrl, log, work ? POOL_BASE + config.importWriters + 1 : POOL_BASE);
  // Everything that touches the schema at start runs under one lock: processes started at the same
  // instant on an empty database come up one after another (db/migrate.ts withSchemaLock).
  const { boss, app } = await withSchemaLock(dbUrl, async (client) => {
    await migrateOn(client);
    await checkSharedSecret(client, config.secret);
    const admin = await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
    if (admin.generated) {
      process.stdout.write(
        `\n  Создан суперадминистратор ${config.adminEmail}\n  Пароль (показан один раз): ${admin.generated}\n\n`,
      );
    } else if (admin.created) log.info({ email: config.adminEmail }, 'super admin created from ADMIN_PASSWORD');
    const boss = await startJobs(dbUrl, log, work);
    // A worker builds the app for its services (job handlers) but does not listen.
    const app = await buildApp({ config, database, ...deps });
    await app.services.transfer.attach(boss, { work });
    await app.services.bulk.attach(boss, { work });
    await app.services.insights.attach(boss, { work });
    await app.services.snapshots.attach(boss, { work });
    await app.services.discovery.attach(boss, { work });
    await app.services.hunts.attach(boss, { work });
    app.services.watch.attach({ work });
    app.services.telegramCollector.attach({ work });
    app.services.telegramAccountCollector.attach({ work });
    app.services.takedown.attach({ work });
    app.services.integrations.attach({ work });
    await app.services.slaJobs.attach(boss, { work });
    return { boss, app };
  });
  // Expired whitelist entries stop applying: the worker re-marks their events once a minute.
  const whitelistSweep = work ? app.services.whitelist.startExpirySweep() : undefined;
  // Events older than their indicators column get them (related events, modules/indicators.ts).
  const indicatorsFill = work ? startIndicatorsBackfill({ db: database.db, log }) : undefined;
  // Domain events titled in punycode before titles were derived in Unicode get the Unicode title, once.
  const titlesFill = work ? startTitlesBackfill({ db: database.db, log }) : undefined;
  // Events stored before their IP address was searched get the vector a write makes now, once.
  const searchFill = work ? startSearchBackfill({ db: database.db, log }) : undefined;
  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    // Said once when several API processes share the port.
    if (!process.env[CLUSTER_INDEX] || process.env[CLUSTER_INDEX] === '0') log.info(`Форпост: ${config.publicUrl}`);
  } else log.info('Форпост: обработчик задач запущен');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await whitelistSweep?.stop();
      await indicatorsFill?.stop();
      await titlesFill?.stop();
      await searchFill?.stop();
      await app?.close(); // stop accepting, finish in-flight requests
      await boss.stop({ graceful: true, timeout: 20_000, wait: true });
      await database.close();
      await embedded?.stop();
    } catch (err) {
      log.error({ err: errInfo(err) }, 'error during shutdown');
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A start that failed: said in Russian, exit code 1. */
export function failedToStart(err: unknown): never {
  console.error('Форпост не запустился:', err instanceof Error ? err.message : String(err ?? 'причина неизвестна'));
  process.exit(1);
}
/** False only when another program file imported this one (it calls `main` itself, with its deps). */
function startedAsProgram(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return true;
  }
}
if (startedAsProgram()) main().catch(failedToStart);
