import { healthResponse } from '@forpost/contract/auth';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { notFound } from '../../lib/errors';
import type { App } from '../../lib/routes';

const openApiDocument = z.looseObject({ openapi: z.string(), info: z.unknown(), paths: z.record(z.string(), z.unknown()) });

/** The OpenAPI document, whole or one area (tag). */
export async function systemRoutes(app: App, deps: { database: Database; openapi: () => unknown }) {
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
