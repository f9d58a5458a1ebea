import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { healthResponse } from '@forpost/contract/auth';
import { errorResponse } from '@forpost/contract/errors';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { MIGRATIONS_DIR } from '../../db/migrate';
import { notFound } from '../../lib/errors';
import type { App } from '../../lib/routes';

const openApiDocument = z.looseObject({ openapi: z.string(), info: z.unknown(), paths: z.record(z.string(), z.unknown()) });

const readyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    /** A connection and `SELECT` within READY_TIMEOUT_MS. */
    database: z.enum(['ok', 'failed']),
    /** The applied migrations equal the committed journal (pending: the code is newer; ahead: the database is). */
    migrations: z.enum(['ok', 'pending', 'ahead', 'failed']),
    /** The file store answers (local disk: DATA_DIR/files writable; S3: the bucket answers). */
    storage: z.enum(['ok', 'failed']),
  }),
});
type Checks = z.infer<typeof readyResponse>['checks'];

/** Each readiness check gives up after this. */
export const READY_TIMEOUT_MS = 3000;

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

/** Database reachable and its applied migrations equal to the journal: one query on one connection. */
async function checkDatabase(database: Database): Promise<Pick<Checks, 'database' | 'migrations'>> {
  const expected = await committedMigrations().catch(() => null);
  let applied: number[];
  const client = await database.pool.connect().catch(() => null);
  if (!client) return { database: 'failed', migrations: 'failed' };
  let broken: Error | undefined;
  try {
    const r = await client.query<{ created_at: number | string }>({
      text: 'SELECT created_at FROM drizzle.__drizzle_migrations',
      query_timeout: READY_TIMEOUT_MS,
    } as never);
    applied = r.rows.map((row) => Number(row.created_at));
  } catch (e) {
    const code = (e as { code?: string }).code;
    // No migrations table at all: reachable, nothing applied.
    if (code === '42P01' || code === '3F000') return { database: 'ok', migrations: 'pending' };
    broken = e as Error;
    return { database: 'failed', migrations: 'failed' };
  } finally {
    client.release(broken);
  }
  if (!expected) return { database: 'ok', migrations: 'failed' };
  const have = new Set(applied);
  if (expected.some((w) => !have.has(w))) return { database: 'ok', migrations: 'pending' };
  if (applied.length !== expected.length) return { database: 'ok', migrations: 'ahead' };
  return { database: 'ok', migrations: 'ok' };
}

/** The OpenAPI document, whole or one area (tag). */
export async function systemRoutes(app: App, deps: { database: Database; openapi: () => unknown; storage: StorageProbe }) {
  app.get(
    '/health',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getHealth',
        tags: ['system'],
        summary: 'Готовность сервера и базы данных',
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const client = await deps.database.pool.connect();
        try {
          await client.query({ text: 'SELECT 1', query_timeout: 2000 } as never);
        } finally {
          client.release();
        }
        return { status: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );

  app.get(
    '/ready',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getReady',
        tags: ['system'],
        summary: 'Готовность к работе для балансировщика: база данных, миграции, файловое хранилище',
        // 503: the failing checks, or the standard error when the server sheds load (plugins/pressure.ts).
        response: { 200: readyResponse, 503: z.union([readyResponse, errorResponse]) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const [db, storage] = await Promise.all([
        within(checkDatabase(deps.database), READY_TIMEOUT_MS + 500).catch(() => ({
          database: 'failed' as const,
          migrations: 'failed' as const,
        })),
        within(deps.storage(), READY_TIMEOUT_MS).then(
          () => 'ok' as const,
          (e: Error) => {
            req.log.warn({ err: { message: e.message } }, 'readiness: file storage unavailable');
            return 'failed' as const;
          },
        ),
      ]);
      const checks: Checks = { ...db, storage };
      const ready = Object.values(checks).every((v) => v === 'ok');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );

  app.get(
    '/openapi.json',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getOpenApi',
        tags: ['system'],
        summary: 'Документ OpenAPI 3.1',
        response: { 200: openApiDocument },
      },
    },
    async () => deps.openapi() as z.infer<typeof openApiDocument>,
  );

  app.get(
    '/apidocs/:id',
    {
      config: { permission: 'authenticated' },
      schema: {
        operationId: 'getApiDocs',
        tags: ['system'],
        summary: 'Документация API: весь документ (id = all) или один раздел (id = тег)',
        params: z.object({ id: z.string().regex(/^[a-z0-9_-]{1,64}$/i, 'Неверный раздел') }),
        response: { 200: openApiDocument },
      },
    },
    async (req) => {
      const doc = deps.openapi() as z.infer<typeof openApiDocument> & {
        paths: Record<string, Record<string, { tags?: string[] }>>;
      };
      if (req.params.id === 'all') return doc;
      const paths: typeof doc.paths = {};
      for (const [p, ops] of Object.entries(doc.paths)) {
        const kept = Object.fromEntries(Object.entries(ops).filter(([, op]) => op.tags?.includes(req.params.id)));
        if (Object.keys(kept).length) paths[p] = kept;
      }
      if (!Object.keys(paths).length) throw notFound('Раздел документации не найден');
      return { ...doc, paths };
    },
  );
}
