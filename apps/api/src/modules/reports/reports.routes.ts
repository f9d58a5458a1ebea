/* /tools/reports…: report list, creation, deletion, actions (regenerate, send) and the PDF download. */
import { idParam } from '@forpost/contract/common';
import {
  createReportRequest,
  reportActionRequest,
  reportActionResponse,
  reportListQuery,
  reportListResponse,
  reportResponse,
} from '@forpost/contract/reports';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { contentDisposition } from '../docs/index';
import type { ReportsService } from './reports.service';

const noContent = z.null().describe('Нет содержимого');
const BASE = '/tools/reports';

export async function reportsRoutes(app: App, deps: { reports: ReportsService }) {
  const svc = deps.reports;
  const tags = ['reports'];

  app.get(
    BASE,
    {
      config: { permission: 'reports.read' },
      schema: {
        operationId: 'listReports',
        tags,
        summary: 'Отчёты',
        querystring: reportListQuery,
        response: { 200: reportListResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.query),
  );
  app.post(
    BASE,
    {
      config: { permission: 'reports.manage' },
      schema: {
        operationId: 'createReport',
        tags,
        summary: 'Создать отчёт (PDF формируется в фоне)',
        description: 'Период `from`–`to` — дни (ГГГГ-ММ-ДД) по Москве, включительно; `modules` пусто — все модули.',
        body: createReportRequest,
        response: { 201: reportResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'reports.read' },
      schema: { operationId: 'getReport', tags, summary: 'Отчёт', params: idParam, response: { 200: reportResponse } },
    },
    async (req) => svc.get(callerOf(req), req.params.id),
  );
  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'reports.manage' },
      schema: { operationId: 'deleteReport', tags, summary: 'Удалить отчёт', params: idParam, response: { 204: noContent } },
    },
    async (req, reply) => {
      await svc.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    `${BASE}/:id/actions`,
    {
      config: { permission: 'reports.manage' },
      schema: {
        operationId: 'reportAction',
        tags,
        summary: 'Действие с отчётом: сформировать заново или отправить по почте',
        params: idParam,
        body: reportActionRequest,
        response: { 200: reportActionResponse },
      },
    },
    async (req) => svc.action(callerOf(req), req.params.id, req.body),
  );
  app.get(
    `${BASE}/:id/download`,
    {
      config: { permission: 'reports.read' },
      schema: {
        operationId: 'downloadReport',
        tags,
        summary: 'Скачать отчёт (PDF)',
        params: idParam,
        response: { 200: z.unknown().describe('PDF') },
      },
    },
    async (req, reply) => {
      const f = await svc.download(callerOf(req), req.params.id);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('attachment', f.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (f.size) reply.header('content-length', String(f.size));
      return reply.send(f.stream);
    },
  );
}
