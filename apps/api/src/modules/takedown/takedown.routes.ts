/*
 * Routes of takedown requests (#32): the list and a request (events.read in its company), drafting one
 * or many, the recipients, sending and the analyst's steps (takedown.send), the evidence pack (XARF
 * JSON, PDF), the figures, and a company's escalation times and extra recipients.
 */
import { idParam } from '@forpost/contract/common';
import {
  takedownBulk,
  takedownBulkResult,
  takedownCreate,
  takedownFigures,
  takedownFiguresQuery,
  takedownList,
  takedownListQuery,
  takedownRecipientsPut,
  takedownRequest,
  takedownSettings,
  takedownSettingsPut,
  takedownStep,
} from '@forpost/contract/takedown';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { contentDisposition } from '../docs/index';
import type { TakedownService } from './takedown.service';

export function takedownRoutes(app: App, deps: { takedown: TakedownService }) {
  const svc = deps.takedown;
  const tags = ['takedown'];
  const item = '/takedown/requests/:id';

  app.get(
    '/takedown/requests',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listTakedownRequests',
        tags,
        summary: 'Запросы на блокировку: список с фильтрами',
        querystring: takedownListQuery,
        response: { 200: takedownList },
      },
    },
    async (req) => svc.list(callerOf(req), req.query),
  );
  app.post(
    '/takedown/requests',
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'createTakedownRequest',
        tags,
        summary: 'Подготовить запрос на блокировку: доказательства и получатели по RDAP',
        body: takedownCreate,
        response: { 201: takedownRequest },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  app.post(
    '/takedown/requests/bulk',
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'createTakedownRequestsBulk',
        tags,
        summary: 'Подготовить запросы на блокировку: по одному на событие',
        body: takedownBulk,
        response: { 200: takedownBulkResult },
      },
    },
    async (req) => svc.bulk(callerOf(req), req.body),
  );
  app.get(
    item,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getTakedownRequest',
        tags,
        summary: 'Запрос на блокировку: получатели и история шагов',
        params: idParam,
        response: { 200: takedownRequest },
      },
    },
    async (req) => svc.get(callerOf(req), req.params.id),
  );
  app.put(
    `${item}/recipients`,
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'putTakedownRecipients',
        tags,
        summary: 'Изменить получателей запроса до отправки',
        params: idParam,
        body: takedownRecipientsPut,
        response: { 200: takedownRequest },
      },
    },
    async (req) => svc.putRecipients(callerOf(req), req.params.id, req.body),
  );
  app.post(
    `${item}/send`,
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'sendTakedownRequest',
        tags,
        summary: 'Отправить запрос: письмо каждому получателю с PDF, XARF и снимком',
        params: idParam,
        response: { 200: takedownRequest },
      },
    },
    async (req) => svc.send(callerOf(req), req.params.id),
  );
  app.post(
    `${item}/step`,
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'stepTakedownRequest',
        tags,
        summary: 'Шаг запроса: подтверждён получателем, отклонён, закрыт',
        params: idParam,
        body: takedownStep,
        response: { 200: takedownRequest },
      },
    },
    async (req) => svc.step(callerOf(req), req.params.id, req.body),
  );
  app.get(
    `${item}/xarf`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getTakedownXarf',
        tags,
        summary: 'Отчёт XARF v4 (JSON) запроса',
        params: idParam,
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (req) => svc.xarf(callerOf(req), req.params.id),
  );
  app.get(
    `${item}/pdf`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getTakedownPdf',
        tags,
        summary: 'Доказательства запроса (PDF)',
        params: idParam,
        response: { 200: z.unknown().describe('PDF') },
      },
    },
    async (req, reply) => {
      const f = await svc.pdf(callerOf(req), req.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('attachment', f.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(f.pdf);
    },
  );
  app.get(
    '/takedown/figures',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getTakedownFigures',
        tags,
        summary: 'Блокировки: время до отправки и до недоступности, доля за 24/48/72 ч',
        querystring: takedownFiguresQuery,
        response: { 200: takedownFigures },
      },
    },
    async (req) => svc.figures(callerOf(req), req.query.company_id),
  );
  app.get(
    '/companies/:id/takedown',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getTakedownSettings',
        tags,
        summary: 'Блокировки компании: сроки эскалации и дополнительные получатели',
        params: idParam,
        response: { 200: takedownSettings },
      },
    },
    async (req) => svc.getSettings(callerOf(req), req.params.id),
  );
  app.put(
    '/companies/:id/takedown',
    {
      config: { permission: 'takedown.send' },
      schema: {
        operationId: 'putTakedownSettings',
        tags,
        summary: 'Изменить сроки эскалации и дополнительных получателей компании',
        params: idParam,
        body: takedownSettingsPut,
        response: { 200: takedownSettings },
      },
    },
    async (req) => svc.putSettings(callerOf(req), req.params.id, req.body),
  );
}
