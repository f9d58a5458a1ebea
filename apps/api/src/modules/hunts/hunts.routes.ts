/*
 * Routes of hunts (#34), staff only (`hunts.manage`, SUPER_ADMIN and ADMIN): a hunt reads a dump against
 * EVERY company at once, so no company role may start or read one; API keys are company keys and never hold it.
 * What a company sees of a hunt are its results — «Аккаунты» events of its own, under the events' tenant scope.
 */
import fastifyMultipart from '@fastify/multipart';
import { idParam } from '@forpost/contract/common';
import { createHuntRequest, huntItem, huntListResponse, huntUploadQuery } from '@forpost/contract/hunts';
import { callerOf } from '../../lib/caller';
import type { DocStore } from '../../lib/docstore';
import { ApiError, badRequest } from '../../lib/errors';
import type { App } from '../../lib/routes';
import type { HuntsService } from './hunts.service';

const MULTIPART_LIMITS = { files: 1, fields: 2, fieldSize: 200, parts: 3, headerPairs: 100 };
const MAX_BODY = 64 * 1024 * 1024 * 1024;
const NO_FILE = 'Выберите файл дампа';

export async function huntsRoutes(
  app: App,
  deps: { hunts: () => HuntsService; store: DocStore; uploadLimit: () => Promise<number> },
) {
  const tags = ['hunts'];
  const permission = 'hunts.manage' as const;
  app.get(
    '/hunts',
    {
      config: { permission },
      schema: { operationId: 'listHunts', tags, summary: 'Поиски утечек: последние 50', response: { 200: huntListResponse } },
    },
    async () => deps.hunts().list(),
  );
  app.get(
    '/hunts/:id',
    {
      config: { permission },
      schema: {
        operationId: 'getHunt',
        tags,
        summary: 'Поиск утечек: ход (строки/с, байты, ETA, нераспознанные) и итог по компаниям',
        params: idParam,
        response: { 200: huntItem },
      },
    },
    async (req) => deps.hunts().item(req.params.id),
  );
  app.post(
    '/hunts',
    {
      config: { permission },
      schema: {
        operationId: 'createHunt',
        tags,
        summary: 'Начать поиск утечек по объекту, уже лежащему в хранилище',
        body: createHuntRequest,
        response: { 201: huntItem },
      },
    },
    async (req, reply) => {
      const c = callerOf(req);
      const { id } = await deps.hunts().create({
        leakId: req.body.leak_id,
        docKey: req.body.object_key,
        fileName: req.body.file_name ?? req.body.object_key.split('/').pop() ?? req.body.object_key,
        createdBy: c.actor.userId ?? null,
        actor: c.actor,
      });
      return reply.code(201).send(await deps.hunts().item(id));
    },
  );
  await app.register(async (scope) => {
    const s = scope as unknown as App;
    await s.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
    s.post(
      '/hunts/upload',
      {
        config: { permission },
        bodyLimit: MAX_BODY,
        schema: {
          operationId: 'uploadHunt',
          tags,
          summary: 'Загрузить дамп (TXT/CSV, .gz, .zst, .zip) и начать поиск утечек',
          consumes: ['multipart/form-data'],
          querystring: huntUploadQuery,
          response: { 201: huntItem },
        },
      },
      async (req, reply) => {
        const c = callerOf(req);
        if (!req.isMultipart()) throw badRequest(NO_FILE, { file: NO_FILE });
        const limit = await deps.uploadLimit();
        const part = await req.file({ limits: { ...MULTIPART_LIMITS, fileSize: limit } });
        if (!part) throw badRequest(NO_FILE, { file: NO_FILE });
        let stored: { key: string; size: number };
        try {
          stored = await deps.store.put(part.file);
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            reply.header('connection', 'close');
            throw new ApiError(413, `Файл больше допустимого (${Math.round(limit / 1024 / 1024)} МБ)`);
          }
          throw e;
        }
        if (part.file.truncated) {
          await deps.store.delete(stored.key).catch(() => undefined);
          reply.header('connection', 'close');
          throw new ApiError(413, `Файл больше допустимого (${Math.round(limit / 1024 / 1024)} МБ)`);
        }
        const { id } = await deps.hunts().create({
          leakId: req.query.leak_id,
          docKey: stored.key,
          fileName: part.filename || 'dump',
          createdBy: c.actor.userId ?? null,
          actor: c.actor,
        });
        return reply.code(201).send(await deps.hunts().item(id));
      },
    );
  });
}
