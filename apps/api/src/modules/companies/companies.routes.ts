import { idParam, listResponse, textId } from '@forpost/contract/common';
import {
  activateRequest,
  activationListResponse,
  activationResponse,
  companyDetailResponse,
  companyListQuery,
  companyResponse,
  createCompanyRequest,
  createdProductKeyResponse,
  createProductKeyRequest,
  productKeyResponse,
  updateCompanyRequest,
} from '@forpost/contract/companies';
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
import type { CompaniesService } from './companies.service';

const noContent = z.null();

export async function companiesRoutes(app: App, deps: { companies: CompaniesService }) {
  const svc = deps.companies;
  const tags = ['companies'];

  app.get(
    '/companies',
    {
      config: { permission: 'companies.read' },
      schema: {
        operationId: 'listCompanies',
        tags,
        summary: 'Компании, доступные пользователю',
        querystring: companyListQuery,
        response: { 200: listResponse(companyResponse) },
      },
    },
    async (req) => svc.list(requireAuth(req).principal, req.query),
  );
  app.post(
    '/companies',
    {
      config: { permission: 'companies.create' },
      schema: {
        operationId: 'createCompany',
        tags,
        summary: 'Создать компанию',
        body: createCompanyRequest,
        response: { 201: companyDetailResponse },
      },
    },
    async (req, reply) => {
      const c = await svc.create(actorOf(req), req.body);
      return reply.code(201).send(await svc.detail(c));
    },
  );
  app.get(
    '/companies/:id',
    {
      config: { permission: 'companies.read' },
      schema: { operationId: 'getCompany', tags, summary: 'Компания', params: idParam, response: { 200: companyDetailResponse } },
    },
    async (req) => svc.get(requireAuth(req).principal, req.params.id),
  );
  app.patch(
    '/companies/:id',
    {
      config: { permission: 'companies.update' },
      schema: {
        operationId: 'updateCompany',
        tags,
        summary: 'Изменить компанию (в т.ч. отключить)',
        params: idParam,
        body: updateCompanyRequest,
        response: { 200: companyDetailResponse },
      },
    },
    async (req) => svc.update(requireAuth(req).principal, actorOf(req), req.params.id, req.body),
  );
  app.delete(
    '/companies/:id',
    {
      config: { permission: 'companies.delete' },
      schema: {
        operationId: 'deleteCompany',
        tags,
        summary: 'Удалить отключённую компанию',
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(requireAuth(req).principal, actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  /* Product keys */
  app.get(
    '/companies/:id/keys',
    {
      config: { permission: 'companies.keys' },
      schema: {
        operationId: 'listProductKeys',
        tags,
        summary: 'Продуктовые ключи компании',
        params: idParam,
        response: { 200: z.object({ items: z.array(productKeyResponse) }) },
      },
    },
    async (req) => svc.listKeys(requireAuth(req).principal, req.params.id),
  );
  app.post(
    '/companies/:id/keys',
    {
      config: { permission: 'companies.keys' },
      schema: {
        operationId: 'createProductKey',
        tags,
        summary: 'Выпустить продуктовый ключ (текст ключа показывается один раз)',
        params: idParam,
        body: createProductKeyRequest,
        response: { 201: createdProductKeyResponse },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await svc.createKey(requireAuth(req).principal, actorOf(req), req.params.id, req.body)),
  );
  app.delete(
    '/companies/:id/keys/:keyId',
    {
      config: { permission: 'companies.keys' },
      schema: {
        operationId: 'revokeProductKey',
        tags,
        summary: 'Отозвать продуктовый ключ',
        params: z.object({ id: textId(), keyId: textId() }),
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.revokeKey(requireAuth(req).principal, actorOf(req), req.params.id, req.params.keyId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/companies/activation/list',
    {
      config: { permission: 'session', allowPendingActivation: true },
      schema: {
        operationId: 'listActivations',
        tags,
        summary: 'Мои активации продуктовых ключей',
        response: { 200: activationListResponse },
      },
    },
    async (req) => svc.activations(requireAuth(req).user.id),
  );
  app.post(
    '/companies/activation/activate',
    {
      config: { permission: 'session', allowPendingActivation: true },
      schema: {
        operationId: 'activateProductKey',
        tags,
        summary: 'Активировать продуктовый ключ',
        body: activateRequest,
        response: { 200: activationResponse },
      },
    },
    async (req) => svc.activate(requireAuth(req).user, actorOf(req), req.body.key),
  );
}
