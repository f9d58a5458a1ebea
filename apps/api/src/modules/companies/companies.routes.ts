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
import { itemRoutes, noContent } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
import type { CompaniesService } from './companies.service';

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
    async (req) => svc.list(callerOf(req), req.query),
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
      const c = await svc.create(callerOf(req), req.body);
      return reply.code(201).send(await svc.detail(c));
    },
  );
  itemRoutes(app, {
    path: '/companies/:id',
    tags,
    params: idParam,
    response: companyDetailResponse,
    get: { permission: 'companies.read', operationId: 'getCompany', summary: 'Компания', run: (c, { id }) => svc.get(c, id) },
    update: {
      permission: 'companies.update',
      operationId: 'updateCompany',
      summary: 'Изменить компанию (в т.ч. отключить)',
      body: updateCompanyRequest,
      run: (c, { id }, body) => svc.update(c, id, body),
    },
    remove: {
      permission: 'companies.delete',
      operationId: 'deleteCompany',
      summary: 'Удалить отключённую компанию',
      run: (c, { id }) => svc.remove(c, id),
    },
  });

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
