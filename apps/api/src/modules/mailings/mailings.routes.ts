/* /notifications/mailings…: notification mailings, their options, match preview and deliveries. */
import { idParam } from '@forpost/contract/common';
import {
  createMailingRequest,
  deliveryListQuery,
  deliveryListResponse,
  mailingFilterOptionsResponse,
  mailingListQuery,
  mailingListResponse,
  mailingParamOptionsResponse,
  mailingResponse,
  patchMailingRequest,
  previewRequest,
  previewResponse,
} from '@forpost/contract/mailings';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { MailingsService } from './mailings.service';

const noContent = z.null().describe('Нет содержимого');
const BASE = '/notifications/mailings';

export async function mailingsRoutes(app: App, deps: { mailings: MailingsService }) {
  const svc = deps.mailings;
  const tags = ['notifications'];

  app.get(
    BASE,
    {
      config: { permission: 'mailings.read' },
      schema: {
        operationId: 'listMailings',
        tags,
        summary: 'Рассылки уведомлений',
        querystring: mailingListQuery,
        response: { 200: mailingListResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.query),
  );
  app.post(
    BASE,
    {
      config: { permission: 'mailings.manage' },
      schema: {
        operationId: 'createMailing',
        tags,
        summary: 'Создать рассылку',
        description:
          'Без `company_id` — единственная компания пользователя (сотрудникам: все компании). Название не может содержать переводы строк.',
        body: createMailingRequest,
        response: { 201: mailingResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  app.get(
    `${BASE}/filters`,
    {
      config: { permission: 'mailings.read' },
      schema: {
        operationId: 'getMailingFilterOptions',
        tags,
        summary: 'Значения фильтров рассылки',
        response: { 200: mailingFilterOptionsResponse },
      },
    },
    async (req) => svc.filterOptions(callerOf(req)),
  );
  app.get(
    `${BASE}/params`,
    {
      config: { permission: 'mailings.read' },
      schema: {
        operationId: 'getMailingParamOptions',
        tags,
        summary: 'Параметры рассылки: периодичность, формат, значения по умолчанию',
        response: { 200: mailingParamOptionsResponse },
      },
    },
    async () => svc.paramOptions(),
  );
  app.post(
    `${BASE}/preview`,
    {
      config: { permission: 'mailings.read' },
      schema: {
        operationId: 'previewMailing',
        tags,
        summary: 'Сколько событий фильтры нашли бы за последние 7 дней',
        body: previewRequest,
        response: { 200: previewResponse },
      },
    },
    async (req) => svc.preview(callerOf(req), req.body),
  );
  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'mailings.read' },
      schema: { operationId: 'getMailing', tags, summary: 'Рассылка', params: idParam, response: { 200: mailingResponse } },
    },
    async (req) => svc.get(callerOf(req), req.params.id),
  );
  app.patch(
    `${BASE}/:id`,
    {
      config: { permission: 'mailings.manage' },
      schema: {
        operationId: 'updateMailing',
        tags,
        summary: 'Изменить рассылку',
        params: idParam,
        body: patchMailingRequest,
        response: { 200: mailingResponse },
      },
    },
    async (req) => svc.patch(callerOf(req), req.params.id, req.body),
  );
  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'mailings.manage' },
      schema: { operationId: 'deleteMailing', tags, summary: 'Удалить рассылку', params: idParam, response: { 204: noContent } },
    },
    async (req, reply) => {
      await svc.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    `${BASE}/:id/deliveries`,
    {
      config: { permission: 'mailings.read' },
      schema: {
        operationId: 'listMailingDeliveries',
        tags,
        summary: 'Отправленные письма рассылки: статус, попытки, ошибка',
        params: idParam,
        querystring: deliveryListQuery,
        response: { 200: deliveryListResponse },
      },
    },
    async (req) => svc.deliveries(callerOf(req), req.params.id, req.query),
  );
}
