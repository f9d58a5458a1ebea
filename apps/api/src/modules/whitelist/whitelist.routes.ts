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
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
import type { WhitelistService } from './whitelist.service';

const noContent = z.null().describe('Нет содержимого');

/**
 * The global whitelist (/companies/global/whitelist, staff) and each company's own
 * (/companies/{id}/whitelist: read with whitelist.read, change with whitelist.manage in that company).
 */
export async function whitelistRoutes(app: App, deps: { whitelist: WhitelistService }) {
  const svc = deps.whitelist;
  const tags = ['whitelist'];
  const p = (req: Parameters<typeof requireAuth>[0]) => requireAuth(req).principal;

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
    async (req) => svc.list(p(req), null, req.query),
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
    async (req, reply) => reply.code(201).send(await svc.create(p(req), actorOf(req), null, req.body)),
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
    async (req) => svc.bulk(p(req), actorOf(req), null, req.body),
  );
  app.get(
    '/companies/global/whitelist/:id',
    {
      config: { permission: 'global_whitelist.read' },
      schema: {
        operationId: 'getGlobalWhitelistItem',
        tags,
        summary: 'Запись глобального белого списка',
        params: idParam,
        response: { 200: whitelistItemResponse },
      },
    },
    async (req) => svc.get(p(req), null, req.params.id),
  );
  app.patch(
    '/companies/global/whitelist/:id',
    {
      config: { permission: 'global_whitelist.manage' },
      schema: {
        operationId: 'updateGlobalWhitelistItem',
        tags,
        summary: 'Изменить запись глобального белого списка',
        params: idParam,
        body: updateWhitelistItemRequest,
        response: { 200: whitelistItemResponse },
      },
    },
    async (req) => svc.update(p(req), actorOf(req), null, req.params.id, req.body),
  );
  app.delete(
    '/companies/global/whitelist/:id',
    {
      config: { permission: 'global_whitelist.manage' },
      schema: {
        operationId: 'deleteGlobalWhitelistItem',
        tags,
        summary: 'Удалить запись глобального белого списка',
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(p(req), actorOf(req), null, req.params.id);
      return reply.code(204).send(null);
    },
  );

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
    async (req) => svc.list(p(req), req.params.id, req.query),
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
    async (req, reply) => reply.code(201).send(await svc.create(p(req), actorOf(req), req.params.id, req.body)),
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
    async (req) => svc.bulk(p(req), actorOf(req), req.params.id, req.body),
  );
  app.get(
    '/companies/:id/whitelist/:itemId',
    {
      config: { permission: 'whitelist.read' },
      schema: {
        operationId: 'getCompanyWhitelistItem',
        tags,
        summary: 'Запись белого списка компании',
        params: whitelistItemParams,
        response: { 200: whitelistItemResponse },
      },
    },
    async (req) => svc.get(p(req), req.params.id, req.params.itemId),
  );
  app.patch(
    '/companies/:id/whitelist/:itemId',
    {
      config: { permission: 'whitelist.manage' },
      schema: {
        operationId: 'updateCompanyWhitelistItem',
        tags,
        summary: 'Изменить запись белого списка компании',
        params: whitelistItemParams,
        body: updateWhitelistItemRequest,
        response: { 200: whitelistItemResponse },
      },
    },
    async (req) => svc.update(p(req), actorOf(req), req.params.id, req.params.itemId, req.body),
  );
  app.delete(
    '/companies/:id/whitelist/:itemId',
    {
      config: { permission: 'whitelist.manage' },
      schema: {
        operationId: 'deleteCompanyWhitelistItem',
        tags,
        summary: 'Удалить запись белого списка компании',
        params: whitelistItemParams,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(p(req), actorOf(req), req.params.id, req.params.itemId);
      return reply.code(204).send(null);
    },
  );
}
