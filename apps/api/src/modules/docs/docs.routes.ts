/* /docs: multipart upload, metadata, download (attachment + nosniff), rename, delete. */
import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import { idParam } from '@forpost/contract/common';
import { DOC_MSG, DOC_SIZE_LIMITS, docItem, docPatchRequest, docUploadFields } from '@forpost/contract/docs';
import { API_MSG } from '@forpost/contract/errors';
import { noContent } from '@forpost/contract/events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import { openRange, storedSize } from '../../lib/docstore';
import { type ApiError, badRequest, fieldName } from '../../lib/errors';
import type { App } from '../../lib/routes';
import type { DocsService } from './docs.service';

const MAX_FILE = Math.max(...Object.values(DOC_SIZE_LIMITS));

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const RANGE_MSG = { unsatisfiable: 'Запрошенный диапазон байтов лежит за пределами файла' };

/**
 * A `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14): the one range asked for
 * (`a-b`, `a-`, `-n`, cut to the file), `unsatisfiable`, or undefined when there is nothing usable —
 * no header, another unit, several ranges or a malformed one: then the whole file is sent.
 */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    const n = Number(b);
    return n === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(size - n, 0), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? Number.POSITIVE_INFINITY : Number(b);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/**
 * Sends a stored file (a whole-file stream from the DocStore, not yet read; the route has set its
 * other headers): whole (200), or the one byte range a GET asks for (206 + Content-Range, read from
 * the store from that offset), or 416 in the API's error shape when the range is past the end.
 * `If-Range` is honoured the simple way: these responses carry no validator, so it never matches
 * and the whole file is sent.
 */
export async function sendStored(req: FastifyRequest, reply: FastifyReply, stream: Readable, size?: number | null) {
  reply.header('accept-ranges', 'bytes');
  const total = storedSize(stream) ?? size ?? undefined;
  const header = req.method === 'GET' && req.headers['if-range'] === undefined ? req.headers.range : undefined;
  const range = total === undefined ? undefined : parseRange(header, total);
  if (range === undefined) {
    const length = size ?? total;
    if (length != null) reply.header('content-length', String(length));
    return reply.send(stream);
  }
  if (range === 'unsatisfiable') {
    stream.destroy();
    reply.removeHeader('content-disposition');
    return reply
      .code(416)
      .header('content-range', `bytes */${total}`)
      .type('application/json; charset=utf-8')
      .send({ statusCode: 416, statusMessage: 'Range Not Satisfiable', message: RANGE_MSG.unsatisfiable });
  }
  const part = await openRange(stream, range);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${total}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(part);
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
            'Отдаётся как вложение (`Content-Disposition: attachment`), изображения — inline; всегда `X-Content-Type-Options: nosniff`. ' +
            'Поддерживает докачку: заголовок `Range: bytes=начало-конец` → 206 с `Content-Range`; диапазон за концом файла → 416.',
          params: idParam,
          response: { 200: z.unknown().describe('Содержимое файла (двоичное)') },
        },
      },
      async (req, reply) => {
        const { doc, stream } = await docs.open(callerOf(req), req.params.id);
        const image = doc.mimetype.startsWith('image/');
        reply
          .header('content-type', doc.mimetype)
          .header('content-disposition', contentDisposition(image ? 'inline' : 'attachment', doc.name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; sandbox")
          .header('cache-control', 'private, no-cache');
        return sendStored(req, reply, stream, doc.size);
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
