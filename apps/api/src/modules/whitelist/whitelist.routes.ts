import { idParam } from '@forpost/contract/common';
import {
  bulkWhitelistRequest,
  bulkWhitelistResponse,
  createWhitelistItemRequest,
  updateWhitelistItemRequest,
  whitelistCompanyParams,
  whitelistItemParams,
  whitelistItemResponse,
  whitelistListQuery,
  whitelistListResponse,
} from '@forpost/contract/whitelist';
import { callerOf } from '../../lib/caller';
import { itemRoutes } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
import type { WhitelistService } from './whitelist.service';

/**
 * The global whitelist (/companies/global/whitelist, staff) and each company's own
 * (/companies/{id}/whitelist: read with whitelist.read, change with whitelist.manage in that company).
 */
export async function whitelistRoutes(app: App, deps: { whitelist: WhitelistService }) {
  const svc = deps.whitelist;
  const tags = ['whitelist'];

  /* Global */
  app.get(
    '/companies/global/whitelist',
    {
      config: { permission: 'global_whitelist.read' },
      schema: {
        operationId: 'listGlobalWhitelist',
        tags,
        summary: 'Глобальный белый список',
        querystring: whitelistListQuery,
        response: { 200: whitelistListResponse },
      },
    },
    async (req) => svc.list(callerOf(req), null, req.query),
  );
  app.post(
    '/companies/global/whitelist',
    {
      config: { permission: 'global_whitelist.manage' },
      schema: {
        operationId: 'createGlobalWhitelistItem',
        tags,
        summary: 'Добавить запись в глобальный белый список (409 — такая запись уже есть)',
        body: createWhitelistItemRequest,
        response: { 201: whitelistItemResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), null, req.body)),
  );
  app.post(
    '/companies/global/whitelist/bulk',
    {
      config: { permission: 'global_whitelist.manage' },
      schema: {
        operationId: 'bulkCreateGlobalWhitelist',
        tags,
        summary: 'Массовое добавление в глобальный белый список: по записи в строке, результат по каждой строке',
        body: bulkWhitelistRequest,
        response: { 200: bulkWhitelistResponse },
      },
    },
    async (req) => svc.bulk(callerOf(req), null, req.body),
  );
  itemRoutes(app, {
    path: '/companies/global/whitelist/:id',
    tags,
    params: idParam,
    response: whitelistItemResponse,
    get: {
      permission: 'global_whitelist.read',
      operationId: 'getGlobalWhitelistItem',
      summary: 'Запись глобального белого списка',
      run: (c, { id }) => svc.get(c, null, id),
    },
    update: {
      permission: 'global_whitelist.manage',
      operationId: 'updateGlobalWhitelistItem',
      summary: 'Изменить запись глобального белого списка',
      body: updateWhitelistItemRequest,
      run: (c, { id }, body) => svc.update(c, null, id, body),
    },
    remove: {
      permission: 'global_whitelist.manage',
      operationId: 'deleteGlobalWhitelistItem',
      summary: 'Удалить запись глобального белого списка',
      run: (c, { id }) => svc.remove(c, null, id),
    },
  });

  /* Company */
  app.get(
    '/companies/:id/whitelist',
    {
      config: { permission: 'whitelist.read' },
      schema: {
        operationId: 'listCompanyWhitelist',
        tags,
        summary: 'Белый список компании',
        params: whitelistCompanyParams,
        querystring: whitelistListQuery,
        response: { 200: whitelistListResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.params.id, req.query),
  );
  app.post(
    '/companies/:id/whitelist',
    {
      config: { permission: 'whitelist.manage' },
      schema: {
        operationId: 'createCompanyWhitelistItem',
        tags,
        summary: 'Добавить запись в белый список компании (409 — такая запись уже есть)',
        params: whitelistCompanyParams,
        body: createWhitelistItemRequest,
        response: { 201: whitelistItemResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.params.id, req.body)),
  );
  app.post(
    '/companies/:id/whitelist/bulk',
    {
      config: { permission: 'whitelist.manage' },
      schema: {
        operationId: 'bulkCreateCompanyWhitelist',
        tags,
        summary: 'Массовое добавление в белый список компании: по записи в строке, результат по каждой строке',
        params: whitelistCompanyParams,
        body: bulkWhitelistRequest,
        response: { 200: bulkWhitelistResponse },
      },
    },
    async (req) => svc.bulk(callerOf(req), req.params.id, req.body),
  );
  itemRoutes(app, {
    path: '/companies/:id/whitelist/:itemId',
    tags,
    params: whitelistItemParams,
    response: whitelistItemResponse,
    get: {
      permission: 'whitelist.read',
      operationId: 'getCompanyWhitelistItem',
      summary: 'Запись белого списка компании',
      run: (c, { id, itemId }) => svc.get(c, id, itemId),
    },
    update: {
      permission: 'whitelist.manage',
      operationId: 'updateCompanyWhitelistItem',
      summary: 'Изменить запись белого списка компании',
      body: updateWhitelistItemRequest,
      run: (c, { id, itemId }, body) => svc.update(c, id, itemId, body),
    },
    remove: {
      permission: 'whitelist.manage',
      operationId: 'deleteCompanyWhitelistItem',
      summary: 'Удалить запись белого списка компании',
      run: (c, { id, itemId }) => svc.remove(c, id, itemId),
    },
  });
}
