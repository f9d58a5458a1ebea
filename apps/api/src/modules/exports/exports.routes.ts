/* «Мои экспорты»: /modules/exports (events.export); each user sees and downloads only their own. */
import { idParam } from '@forpost/contract/common';
import { noContent } from '@forpost/contract/events';
import {
  exportCreateRequest,
  exportFieldsQuery,
  exportFieldsResponse,
  exportItem,
  exportListQuery,
  exportListResponse,
} from '@forpost/contract/exports';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { contentDisposition, sendStored } from '../docs/index';
import type { ExportsService } from './exports.service';

export async function exportsRoutes(app: App, deps: { exports: ExportsService }) {
  const { exports } = deps;
  const tags = ['exports'];

  app.get(
    '/modules/exports/fields',
    {
      config: { permission: 'events.export' },
      schema: {
        operationId: 'listExportFields',
        tags,
        summary: 'Поля, доступные для экспорта (по модулям)',
        querystring: exportFieldsQuery,
        response: { 200: exportFieldsResponse },
      },
    },
    async (req) => exports.fields(callerOf(req), req.query.module),
  );

  app.get(
    '/modules/exports',
    {
      config: { permission: 'events.export' },
      schema: {
        operationId: 'listExports',
        tags,
        summary: 'Мои экспорты',
        querystring: exportListQuery,
        response: { 200: exportListResponse },
      },
    },
    async (req) => exports.list(callerOf(req), req.query),
  );

  app.post(
    '/modules/exports',
    {
      config: { permission: 'events.export' },
      schema: {
        operationId: 'createExport',
        tags,
        summary: 'Экспортировать список событий',
        description:
          '`filters` — параметры списка событий модуля, как их передаёт список (`company_id`, `status=1,2`, `q`, `sort` …): в файл попадают все подходящие строки. ' +
          'Файл формируется фоновой задачей; ход — GET /modules/exports/{id}. CSV — UTF-8 с BOM и «;» для Excel; XLSX — не более 1 048 575 строк на листе.',
        body: exportCreateRequest,
        response: { 202: exportItem },
      },
    },
    async (req, reply) => reply.code(202).send(await exports.create(callerOf(req), req.body)),
  );

  app.get(
    '/modules/exports/:id',
    {
      config: { permission: 'events.export' },
      schema: { operationId: 'getExport', tags, summary: 'Экспорт и его ход', params: idParam, response: { 200: exportItem } },
    },
    async (req) => exports.get(callerOf(req), req.params.id),
  );

  app.delete(
    '/modules/exports/:id',
    {
      config: { permission: 'events.export' },
      schema: { operationId: 'deleteExport', tags, summary: 'Удалить экспорт', params: idParam, response: { 204: noContent } },
    },
    async (req, reply) => {
      await exports.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/modules/exports/:id/download',
    {
      config: { permission: 'events.export' },
      schema: {
        operationId: 'downloadExport',
        tags,
        summary: 'Скачать файл экспорта',
        description:
          'Поддерживает докачку: заголовок `Range: bytes=начало-конец` → 206 с `Content-Range`; диапазон за концом файла → 416.',
        params: idParam,
        response: { 200: z.unknown().describe('CSV или XLSX') },
      },
    },
    async (req, reply) => {
      const f = await exports.download(callerOf(req), req.params.id);
      reply
        .header('content-type', f.mime)
        .header('content-disposition', contentDisposition('attachment', f.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store');
      return sendStored(req, reply, f.stream, f.size);
    },
  );
}
