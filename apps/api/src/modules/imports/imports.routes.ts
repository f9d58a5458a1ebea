/*
 * Imports of every module's events (/modules/{code}/events/imports…, events.import) and of the
 * leaks catalogue (/modules/leaks/imports…, settings.manage).
 */
import fastifyMultipart from '@fastify/multipart';
import { idParam } from '@forpost/contract/common';
import { noContent } from '@forpost/contract/events';
import {
  IMPORT_DELIMITERS_TEXT,
  IMPORT_ENCODINGS_TEXT,
  IMPORT_MSG,
  importCheck,
  importCheckRequest,
  importItem,
  importListQuery,
  importListResponse,
  importPreview,
  importPreviewRequest,
  importStartRequest,
  importUploadResponse,
  LEAKS_CATALOGUE,
} from '@forpost/contract/imports';
import { MODULE_LIST } from '@forpost/contract/modules';
import type { Permission } from '@forpost/contract/permissions';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import { badRequest } from '../../lib/errors';
import type { App } from '../../lib/routes';
import { contentDisposition } from '../docs/index';
import { pascal } from '../events/index';
import type { TargetCode } from './context';
import type { ImportsService } from './imports.service';

/** Hard ceiling of a multipart body; the real limit (`import_file_max_mb`) is applied to the file part. */
const MAX_BODY = 10 * 1024 * 1024 * 1024 + 1024 * 1024;

const MULTIPART_LIMITS = { files: 1, fields: 5, fieldSize: 200, parts: 6, headerPairs: 100 };

interface Mount {
  code: TargetCode;
  base: string;
  op: string;
  name: string;
  tags: string[];
  permission: Permission;
}

const UPLOAD_DESCRIPTION =
  'multipart/form-data: необязательное поле `company_id`, затем файл `file` (CSV или XLSX; размер — не больше настройки «Максимальный размер файла импорта»). ' +
  `Файл сохраняется, определяются кодировка (${IMPORT_ENCODINGS_TEXT}) и разделитель (${IMPORT_DELIMITERS_TEXT}), столбцы сопоставляются с полями по заголовкам (русским и английским); ` +
  'в ответе — первые 20 строк с проверкой каждой ячейки; весь файл проверяет POST …/{id}/check. Затем — POST …/{id}/start.';

export async function importsRoutes(app: App, deps: { imports: ImportsService }) {
  const { imports } = deps;
  const mounts: Mount[] = [
    ...MODULE_LIST.map((m) => ({
      code: m.code,
      base: `/modules/${m.code}/events/imports`,
      op: `${pascal(m.code)}EventsImport`,
      name: `${m.name}: импорт событий`,
      tags: ['imports', `events-${m.code}`],
      permission: 'events.import' as const,
    })),
    {
      code: LEAKS_CATALOGUE,
      base: '/modules/leaks/imports',
      op: 'LeaksCatalogueImport',
      name: 'Каталог утечек: импорт',
      tags: ['imports', 'leaks'],
      permission: 'settings.manage' as const,
    },
  ];

  await app.register(async (scope) => {
    const s = scope as unknown as App;
    await s.register(fastifyMultipart, {
      limits: MULTIPART_LIMITS,
      throwFileSizeLimit: true,
    });

    for (const mt of mounts) {
      const { code, base, op, name, tags, permission } = mt;
      s.post(
        base,
        {
          config: { permission },
          bodyLimit: MAX_BODY,
          schema: {
            operationId: `upload${op}`,
            tags,
            summary: `${name}: загрузить файл`,
            description: UPLOAD_DESCRIPTION,
            consumes: ['multipart/form-data'],
            response: { 201: importUploadResponse },
          },
        },
        async (req, reply) => {
          const caller = callerOf(req);
          if (!req.isMultipart()) throw badRequest(IMPORT_MSG.noFile, { file: IMPORT_MSG.noFile });
          const limit = await imports.uploadLimit();
          const part = await req.file({ limits: { ...MULTIPART_LIMITS, fileSize: limit } });
          if (!part) throw badRequest(IMPORT_MSG.noFile, { file: IMPORT_MSG.noFile });
          try {
            return reply.code(201).send(await imports.upload(caller, code, part));
          } catch (e) {
            // The rest of a refused upload is not worth receiving.
            if ((e as { statusCode?: number }).statusCode === 413) reply.header('connection', 'close');
            throw e;
          }
        },
      );

      s.get(
        base,
        {
          config: { permission },
          schema: {
            operationId: `list${op}s`,
            tags,
            summary: `${name}: история импортов`,
            querystring: importListQuery,
            response: { 200: importListResponse },
          },
        },
        async (req) => imports.list(callerOf(req), code, req.query),
      );

      s.get(
        `${base}/:id`,
        {
          config: { permission },
          schema: {
            operationId: `get${op}`,
            tags,
            summary: `${name}: импорт и его ход`,
            params: idParam,
            response: { 200: importItem },
          },
        },
        async (req) => imports.get(callerOf(req), code, req.params.id),
      );

      s.post(
        `${base}/:id/preview`,
        {
          config: { permission },
          schema: {
            operationId: `preview${op}`,
            tags,
            summary: `${name}: проверка первых строк с другим сопоставлением`,
            params: idParam,
            body: importPreviewRequest,
            response: { 200: importPreview },
          },
        },
        async (req) => imports.preview(callerOf(req), code, req.params.id, req.body.mapping),
      );

      s.post(
        `${base}/:id/check`,
        {
          config: { permission },
          schema: {
            operationId: `check${op}`,
            tags,
            summary: `${name}: проверка всего файла без загрузки`,
            description:
              'Пробный прогон: каждая строка файла проверяется так же, как при импорте (значения, справочники, компании, ' +
              'правила создания), ничего не записывается. В ответе — сколько строк импорт отклонит, ошибки по причинам с первыми ' +
              'строками каждой и столбцы, которые не проходят проверку в большинстве строк (их предлагается не загружать). ' +
              '`company_id` — как при запуске.',
            params: idParam,
            body: importCheckRequest,
            response: { 200: importCheck },
          },
        },
        async (req) => imports.check(callerOf(req), code, req.params.id, req.body),
      );

      s.post(
        `${base}/:id/start`,
        {
          config: { permission },
          schema: {
            operationId: `start${op}`,
            tags,
            summary: `${name}: запустить`,
            description:
              '`mapping` — поле для каждого столбца файла (null — столбец пропускается), `mode` — обновлять или пропускать существующие события ' +
              '(совпадение по ключу модуля), `company_id` — компания строк без столбца «Компания». Импорт идёт фоновой задачей; ход — GET …/{id}.',
            params: idParam,
            body: importStartRequest,
            response: { 202: importItem },
          },
        },
        async (req, reply) => reply.code(202).send(await imports.start(callerOf(req), code, req.params.id, req.body)),
      );

      s.delete(
        `${base}/:id`,
        {
          config: { permission },
          schema: {
            operationId: `delete${op}`,
            tags,
            summary: `${name}: удалить (отменить)`,
            description: 'Удаляет созданные импортом записи; записи, которые импорт только обновил, остаются как есть.',
            params: idParam,
            response: { 204: noContent },
          },
        },
        async (req, reply) => {
          await imports.remove(callerOf(req), code, req.params.id);
          return reply.code(204).send(null);
        },
      );

      s.get(
        `${base}/:id/errors`,
        {
          config: { permission },
          schema: {
            operationId: `download${op}Errors`,
            tags,
            summary: `${name}: отчёт об ошибках строк (CSV)`,
            params: idParam,
            response: { 200: z.unknown().describe('CSV: Строка; Столбец; Значение; Причина (UTF-8 с BOM)') },
          },
        },
        async (req, reply) => {
          const { fileName, stream } = await imports.errorReport(callerOf(req), code, req.params.id);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', contentDisposition('attachment', fileName))
            .header('x-content-type-options', 'nosniff')
            .header('cache-control', 'no-store')
            .send(stream);
        },
      );
    }
  });
}
