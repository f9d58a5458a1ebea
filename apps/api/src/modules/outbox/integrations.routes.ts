/*
 * Routes of the integrations (#33): webhook endpoints and syslog outputs (/integrations/…), their
 * delivery logs and «Отправить ещё раз»; every one under integrations.manage (see the service).
 */
import {
  deliveryList,
  deliveryListQuery,
  deliveryParams,
  idParam,
  integrationCreated,
  integrationList,
  integrationListQuery,
  integrationPatch,
  integrationTarget,
  rotateBody,
  syslogCreate,
  webhookCreate,
} from '@forpost/contract/integrations';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { IntegrationsService } from './integrations.service';

export function integrationsRoutes(app: App, deps: { integrations: IntegrationsService }) {
  const s = deps.integrations;
  const tags = ['integrations'];
  const config = { permission: 'integrations.manage' as const };

  app.get(
    '/integrations',
    {
      config,
      schema: {
        operationId: 'listIntegrations',
        tags,
        summary: 'Интеграции: веб-хуки и выводы syslog компаний (и экземпляра — для сотрудников)',
        querystring: integrationListQuery,
        response: { 200: integrationList },
      },
    },
    async (req) => ({ items: await s.list(callerOf(req), req.query.company_id) }),
  );
  app.post(
    '/integrations/webhooks',
    {
      config,
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Добавить веб-хук (Standard Webhooks); секрет whsec_… показывается один раз',
        body: webhookCreate,
        response: { 201: integrationCreated },
      },
    },
    async (req, reply) => reply.code(201).send(await s.createWebhook(callerOf(req), req.body)),
  );
  app.post(
    '/integrations/syslog',
    {
      config,
      schema: {
        operationId: 'createSyslogOutput',
        tags,
        summary: 'Добавить вывод syslog/CEF (RFC 5424 по TCP или TLS)',
        body: syslogCreate,
        response: { 201: integrationCreated },
      },
    },
    async (req, reply) => reply.code(201).send(await s.createSyslog(callerOf(req), req.body)),
  );
  app.get(
    '/integrations/:id',
    {
      config,
      schema: {
        operationId: 'getIntegration',
        tags,
        summary: 'Интеграция',
        params: idParam,
        response: { 200: integrationTarget },
      },
    },
    async (req) => s.get(callerOf(req), req.params.id),
  );
  app.patch(
    '/integrations/:id',
    {
      config,
      schema: {
        operationId: 'updateIntegration',
        tags,
        summary: 'Изменить интеграцию (включить, выключить, адрес, выбор сообщений)',
        params: idParam,
        body: integrationPatch,
        response: { 200: integrationTarget },
      },
    },
    async (req) => s.update(callerOf(req), req.params.id, req.body),
  );
  app.delete(
    '/integrations/:id',
    {
      config,
      schema: {
        operationId: 'deleteIntegration',
        tags,
        summary: 'Удалить интеграцию',
        params: idParam,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await s.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/integrations/:id/rotate',
    {
      config,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Новый секрет веб-хука; прежний подписывает ещё grace_hours часов',
        params: idParam,
        body: rotateBody,
        response: { 200: integrationCreated },
      },
    },
    async (req) => s.rotate(callerOf(req), req.params.id, req.body.grace_hours),
  );
  app.get(
    '/integrations/:id/deliveries',
    {
      config,
      schema: {
        operationId: 'listIntegrationDeliveries',
        tags,
        summary: 'Журнал доставок интеграции: запрос, код ответа, время',
        params: idParam,
        querystring: deliveryListQuery,
        response: { 200: deliveryList },
      },
    },
    async (req) => ({ items: await s.deliveries(callerOf(req), req.params.id, req.query.state, req.query.limit) }),
  );
  app.post(
    '/integrations/:id/deliveries/:delivery/resend',
    {
      config,
      schema: {
        operationId: 'resendIntegrationDelivery',
        tags,
        summary: 'Отправить доставку ещё раз (тот же webhook-id)',
        params: deliveryParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await s.resend(callerOf(req), req.params.id, req.params.delivery);
      return reply.code(204).send(null);
    },
  );
}
