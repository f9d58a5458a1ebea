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
import { crudRoutes } from '../../lib/crud-routes';
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
  crudRoutes(
    app,
    {
      tags,
      path: '/companies/global/whitelist',
      query: whitelistListQuery,
      page: whitelistListResponse,
      create: createWhitelistItemRequest,
      item: '/companies/global/whitelist/:id',
      params: idParam,
      response: whitelistItemResponse,
      body: updateWhitelistItemRequest,
    },
    {
      list: ['global_whitelist.read', 'listGlobalWhitelist', 'Глобальный белый список', (c, q) => svc.list(c, null, q)],
      create: [
        'global_whitelist.manage',
        'createGlobalWhitelistItem',
        'Добавить запись в глобальный белый список (409 — такая запись уже есть)',
        (c, body) => svc.create(c, null, body),
      ],
      get: [
        'global_whitelist.read',
        'getGlobalWhitelistItem',
        'Запись глобального белого списка',
        (c, { id }) => svc.get(c, null, id),
      ],
      update: [
        'global_whitelist.manage',
        'updateGlobalWhitelistItem',
        'Изменить запись глобального белого списка',
        (c, { id }, body) => svc.update(c, null, id, body),
      ],
      remove: [
        'global_whitelist.manage',
        'deleteGlobalWhitelistItem',
        'Удалить запись глобального белого списка',
        (c, { id }) => svc.remove(c, null, id),
      ],
    },
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

  /* Company */
  crudRoutes(
    app,
    {
      tags,
      path: '/companies/:id/whitelist',
      pathParams: whitelistCompanyParams,
      query: whitelistListQuery,
      page: whitelistListResponse,
      create: createWhitelistItemRequest,
      item: '/companies/:id/whitelist/:itemId',
      params: whitelistItemParams,
      response: whitelistItemResponse,
      body: updateWhitelistItemRequest,
    },
    {
      list: ['whitelist.read', 'listCompanyWhitelist', 'Белый список компании', (c, q, { id }) => svc.list(c, id, q)],
      create: [
        'whitelist.manage',
        'createCompanyWhitelistItem',
        'Добавить запись в белый список компании (409 — такая запись уже есть)',
        (c, body, { id }) => svc.create(c, id, body),
      ],
      get: [
        'whitelist.read',
        'getCompanyWhitelistItem',
        'Запись белого списка компании',
        (c, { id, itemId }) => svc.get(c, id, itemId),
      ],
      update: [
        'whitelist.manage',
        'updateCompanyWhitelistItem',
        'Изменить запись белого списка компании',
        (c, { id, itemId }, body) => svc.update(c, id, itemId, body),
      ],
      remove: [
        'whitelist.manage',
        'deleteCompanyWhitelistItem',
        'Удалить запись белого списка компании',
        (c, { id, itemId }) => svc.remove(c, id, itemId),
      ],
    },
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
}
