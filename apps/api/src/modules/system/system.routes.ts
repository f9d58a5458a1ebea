import { healthResponse } from '@forpost/contract/auth';
import { errorResponse } from '@forpost/contract/errors';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { App } from '../../lib/routes';
import { createSystemService, type StorageProbe } from './system.service';

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
/** The OpenAPI document, whole or one area (tag). */
export async function systemRoutes(app: App, deps: { database: Database; openapi: () => unknown; storage: StorageProbe }) {
  const svc = createSystemService({ pool: deps.database.pool, openapi: deps.openapi, storage: deps.storage });
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
      if (await svc.healthy()) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable' as const });
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
      const { ready, checks } = await svc.readiness(req.log);
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
    async (req) => svc.apiDocs(req.params.id) as z.infer<typeof openApiDocument>,
  );
}
