/* /docs: multipart upload, metadata, download (attachment + nosniff), rename, delete. */
import fastifyMultipart from '@fastify/multipart';
import { idParam } from '@forpost/contract/common';
import { DOC_MSG, DOC_SIZE_LIMITS, docItem, docPatchRequest, docUploadFields } from '@forpost/contract/docs';
import { API_MSG } from '@forpost/contract/errors';
import { noContent } from '@forpost/contract/events';
import { z } from 'zod';
import { type ApiError, badRequest, fieldName } from '../../lib/errors';
import type { App } from '../../lib/routes';
import { callerOf } from '../events/access';
import type { DocsService } from './docs.service';

const MAX_FILE = Math.max(...Object.values(DOC_SIZE_LIMITS));

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function fieldsError(issues: { path: PropertyKey[]; message: string }[]): ApiError {
  const fields = Object.fromEntries(issues.map((i) => [i.path.length ? fieldName(i.path) : 'form', i.message]));
  const first = issues[0]?.message ?? API_MSG.validation;
  return badRequest(issues.length === 1 ? first : API_MSG.validation, fields);
}

export async function docsRoutes(app: App, deps: { docs: DocsService }) {
  const { docs } = deps;
  await app.register(async (scope) => {
    const s = scope as unknown as App;
    await s.register(fastifyMultipart, {
      limits: { fileSize: MAX_FILE, files: 1, fields: 10, fieldSize: 2000, parts: 12, headerPairs: 100 },
      throwFileSizeLimit: true,
    });

    s.post(
      '/docs',
      {
        config: { permission: 'authenticated' },
        bodyLimit: MAX_FILE + 64 * 1024,
        schema: {
          operationId: 'uploadDoc',
          tags: ['docs'],
          summary: 'Загрузить файл (multipart/form-data)',
          description:
            'Поля формы `kind` (screenshot | sample | avatar | import | report), необязательные `event_id`, `company_id`, `name` — перед частью `file` ' +
            '(или в строке запроса). Скриншоты и аватары — только PNG, JPEG, WebP, GIF (проверяется содержимое). ' +
            'Лимиты: образец 20 МБ, скриншот 10 МБ, аватар 5 МБ, импорт 100 МБ, отчёт 50 МБ.',
          consumes: ['multipart/form-data'],
          querystring: docUploadFields.partial(),
          response: { 201: docItem },
        },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        if (!req.isMultipart()) throw badRequest(DOC_MSG.noFile, { file: DOC_MSG.noFile });
        const fields: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
        let doc: Awaited<ReturnType<DocsService['uploadAs']>> | undefined;
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            if (!['kind', 'event_id', 'company_id', 'name'].includes(part.fieldname))
              throw badRequest(API_MSG.validation, { [fieldName([part.fieldname])]: 'Неизвестное поле формы' });
            fields[part.fieldname] = String(part.value);
            continue;
          }
          if (doc) {
            part.file.resume();
            throw badRequest(DOC_MSG.tooManyFiles);
          }
          const f = docUploadFields.safeParse(fields);
          if (!f.success) {
            part.file.resume();
            throw fieldsError(f.error.issues);
          }
          doc = await docs.uploadAs(caller, f.data, {
            filename: part.filename || 'файл',
            mimetype: part.mimetype || 'application/octet-stream',
            stream: part.file,
          });
        }
        if (!doc) throw badRequest(DOC_MSG.noFile, { file: DOC_MSG.noFile });
        return reply.code(201).send(doc);
      },
    );

    s.get(
      '/docs/:id',
      {
        config: { permission: 'authenticated' },
        schema: {
          operationId: 'getDoc',
          tags: ['docs'],
          summary: 'Сведения о файле',
          params: idParam,
          response: { 200: docItem },
        },
      },
      async (req) => docs.get(callerOf(req), req.params.id),
    );

    s.get(
      '/docs/:id/content',
      {
        config: { permission: 'authenticated' },
        schema: {
          operationId: 'downloadDoc',
          tags: ['docs'],
          summary: 'Скачать файл',
          description:
            'Отдаётся как вложение (`Content-Disposition: attachment`), изображения — inline; всегда `X-Content-Type-Options: nosniff`.',
          params: idParam,
          response: { 200: z.unknown().describe('Содержимое файла (двоичное)') },
        },
      },
      async (req, reply) => {
        const { doc, stream } = await docs.open(callerOf(req), req.params.id);
        const image = doc.mimetype.startsWith('image/');
        reply
          .header('content-type', doc.mimetype)
          .header('content-length', String(doc.size))
          .header('content-disposition', contentDisposition(image ? 'inline' : 'attachment', doc.name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; sandbox")
          .header('cache-control', 'private, no-cache');
        return reply.send(stream);
      },
    );

    s.patch(
      '/docs/:id',
      {
        config: { permission: 'authenticated' },
        schema: {
          operationId: 'updateDoc',
          tags: ['docs'],
          summary: 'Переименовать файл',
          params: idParam,
          body: docPatchRequest,
          response: { 200: docItem },
        },
      },
      async (req) => docs.rename(callerOf(req), req.params.id, req.body.name),
    );

    s.delete(
      '/docs/:id',
      {
        config: { permission: 'authenticated' },
        schema: {
          operationId: 'deleteDoc',
          tags: ['docs'],
          summary: 'Удалить файл',
          params: idParam,
          response: { 204: noContent },
        },
      },
      async (req, reply) => {
        await docs.remove(callerOf(req), req.params.id);
        return reply.code(204).send(null);
      },
    );
  });
}
