/* Health, readiness and the API documentation by area. */
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../../config';
import { MIGRATIONS_DIR } from '../../db/migrate';
import { notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import { createSystemRepo } from './system.repo';

type CheckState = 'ok' | 'failed';
export interface ReadyChecks {
  database: CheckState;
  migrations: 'ok' | 'pending' | 'ahead' | 'failed';
  storage: CheckState;
}

/** Each readiness check gives up after this. */
const READY_TIMEOUT_MS = 3000;
const HEALTH_TIMEOUT_MS = 2000;

/**
 * Readiness of the file store: resolves when files can be stored, rejects (with the reason) when not.
 * The hook the app passes to the readiness route; see `storageProbe`.
 */
export type StorageProbe = () => Promise<void>;

/**
 * The configured store's readiness probe: the store's own check (the S3 store: HeadBucket on the
 * bucket), and for the local disk (no S3 bucket) also a write-permission check of DATA_DIR/files
 * (the local store's check only creates it). Probes at the same moment share one check.
 */
export function storageProbe(store: { check(): Promise<void> }, config: Pick<Config, 'dataDir' | 's3'>): StorageProbe {
  let inFlight: Promise<void> | null = null;
  const localDir = config.s3 ? undefined : path.join(config.dataDir, 'files');
  const probe = async () => {
    await store.check();
    if (localDir) await access(localDir, constants.W_OK);
  };
  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The committed migrations: drizzle's journal, each entry's `when` is the `created_at` of its applied row. */
let journal: number[] | undefined;
async function committedMigrations(): Promise<number[]> {
  journal ??= (
    JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] }
  ).entries.map((e) => e.when);
  return journal;
}

type OpenApiDoc = { paths: Record<string, Record<string, { tags?: string[] }>> };

export function createSystemService(deps: { pool: pg.Pool; openapi: () => unknown; storage: StorageProbe }) {
  const repo = createSystemRepo(deps.pool);

  /** Database reachable and its applied migrations equal to the journal: one query on one connection. */
  async function checkDatabase(): Promise<Pick<ReadyChecks, 'database' | 'migrations'>> {
    const expected = await committedMigrations().catch(() => null);
    let applied: number[] | null;
    try {
      applied = await repo.appliedMigrations(READY_TIMEOUT_MS);
    } catch {
      return { database: 'failed', migrations: 'failed' };
    }
    // No migrations table at all: reachable, nothing applied.
    if (applied === null) return { database: 'ok', migrations: 'pending' };
    if (!expected) return { database: 'ok', migrations: 'failed' };
    const have = new Set(applied);
    if (expected.some((w) => !have.has(w))) return { database: 'ok', migrations: 'pending' };
    if (applied.length !== expected.length) return { database: 'ok', migrations: 'ahead' };
    return { database: 'ok', migrations: 'ok' };
  }

  return {
    /** Whether the database answers. */
    async healthy(): Promise<boolean> {
      return repo.ping(HEALTH_TIMEOUT_MS).then(
        () => true,
        () => false,
      );
    },

    /** Every readiness check, each within its time; `log` (the request's) hears why the store failed. */
    async readiness(log: Pick<Logger, 'warn'>): Promise<{ ready: boolean; checks: ReadyChecks }> {
      const [db, storage] = await Promise.all([
        within(checkDatabase(), READY_TIMEOUT_MS + 500).catch(() => ({
          database: 'failed' as const,
          migrations: 'failed' as const,
        })),
        within(deps.storage(), READY_TIMEOUT_MS).then(
          () => 'ok' as const,
          (e: Error) => {
            log.warn({ err: errInfo(e) }, 'readiness: file storage unavailable');
            return 'failed' as const;
          },
        ),
      ]);
      const checks: ReadyChecks = { ...db, storage };
      return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
    },

    /** The OpenAPI document, whole (`all`) or the operations of one tag; 404 for a tag without any. */
    apiDocs(area: string): OpenApiDoc {
      const doc = deps.openapi() as OpenApiDoc;
      if (area === 'all') return doc;
      const paths: OpenApiDoc['paths'] = {};
      for (const [p, ops] of Object.entries(doc.paths)) {
        const kept = Object.fromEntries(Object.entries(ops).filter(([, op]) => op.tags?.includes(area)));
        if (Object.keys(kept).length) paths[p] = kept;
      }
      if (!Object.keys(paths).length) throw notFound('Раздел документации не найден');
      return { ...doc, paths };
    },
  };
}
