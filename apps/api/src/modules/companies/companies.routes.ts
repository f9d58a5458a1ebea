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
import { callerOf } from '../../lib/caller';
import { crudRoutes, noContent } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { CompaniesService } from './companies.service';

export async function companiesRoutes(app: App, deps: { companies: CompaniesService }) {
  const svc = deps.companies;
  const tags = ['companies'];

  crudRoutes(
    app,
    {
      tags,
      path: '/companies',
      query: companyListQuery,
      page: listResponse(companyResponse),
      create: createCompanyRequest,
      response: companyDetailResponse,
      body: updateCompanyRequest,
    },
    {
      list: ['companies.read', 'listCompanies', 'Компании, доступные пользователю', (c, q) => svc.list(c, q)],
      create: ['companies.create', 'createCompany', 'Создать компанию', async (c, body) => svc.detail(await svc.create(c, body))],
      get: ['companies.read', 'getCompany', 'Компания', (c, { id }) => svc.get(c, id)],
      update: [
        'companies.update',
        'updateCompany',
        'Изменить компанию (в т.ч. отключить)',
        (c, { id }, body) => svc.update(c, id, body),
      ],
      remove: ['companies.delete', 'deleteCompany', 'Удалить отключённую компанию', (c, { id }) => svc.remove(c, id)],
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
    async (req) => svc.listKeys(callerOf(req), req.params.id),
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
    async (req, reply) => reply.code(201).send(await svc.createKey(callerOf(req), req.params.id, req.body)),
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
      await svc.revokeKey(callerOf(req), req.params.id, req.params.keyId);
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
    async (req) => svc.activations(callerOf(req)),
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
    async (req) => svc.activate(callerOf(req), req.body.key),
  );
}
