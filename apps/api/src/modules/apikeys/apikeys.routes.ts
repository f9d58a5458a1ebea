import {
  apiKeyListQuery,
  apiKeyResponse,
  apiKeyRolesInput,
  apiKeyRolesResponse,
  apiKeyWithSecretResponse,
  createApiKeyRequest,
  updateApiKeyRequest,
} from '@forpost/contract/apikeys';
import { idParam, listResponse } from '@forpost/contract/common';
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
import type { ApiKeysService } from './apikeys.service';

export async function apiKeysRoutes(app: App, deps: { apiKeys: ApiKeysService }) {
  const svc = deps.apiKeys;
  const tags = ['apikeys'];
  app.get(
    '/apikeys',
    {
      config: { permission: 'apikeys.read' },
      schema: {
        operationId: 'listApiKeys',
        tags,
        summary: 'API-ключи',
        querystring: apiKeyListQuery,
        response: { 200: listResponse(apiKeyResponse) },
      },
    },
    async (req) => svc.list(requireAuth(req).principal, req.query),
  );
  app.post(
    '/apikeys',
    {
      config: { permission: 'apikeys.manage' },
      schema: {
        operationId: 'createApiKey',
        tags,
        summary: 'Выпустить API-ключ (секрет показывается один раз)',
        body: createApiKeyRequest,
        response: { 201: apiKeyWithSecretResponse },
      },
    },
    async (req, reply) => {
      const a = requireAuth(req);
      return reply.code(201).send(await svc.create(a.principal, { ...actorOf(req), userId: a.user.id }, req.body));
    },
  );
  app.get(
    '/apikeys/:id',
    {
      config: { permission: 'apikeys.read' },
      schema: { operationId: 'getApiKey', tags, summary: 'API-ключ', params: idParam, response: { 200: apiKeyResponse } },
    },
    async (req) => svc.get(requireAuth(req).principal, req.params.id),
  );
  app.patch(
    '/apikeys/:id',
    {
      config: { permission: 'apikeys.manage' },
      schema: {
        operationId: 'updateApiKey',
        tags,
        summary: 'Изменить API-ключ',
        params: idParam,
        body: updateApiKeyRequest,
        response: { 200: apiKeyResponse },
      },
    },
    async (req) => svc.update(requireAuth(req).principal, actorOf(req), req.params.id, req.body),
  );
  app.delete(
    '/apikeys/:id',
    {
      config: { permission: 'apikeys.manage' },
      schema: { operationId: 'deleteApiKey', tags, summary: 'Удалить API-ключ', params: idParam, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await svc.remove(requireAuth(req).principal, actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/apikeys/:id/refresh',
    {
      config: { permission: 'apikeys.manage' },
      schema: {
        operationId: 'rotateApiKey',
        tags,
        summary: 'Перевыпустить секрет (старый перестаёт работать сразу)',
        params: idParam,
        response: { 200: apiKeyWithSecretResponse },
      },
    },
    async (req) => svc.refresh(requireAuth(req).principal, actorOf(req), req.params.id),
  );
  app.get(
    '/apikeys/:id/roles',
    {
      config: { permission: 'apikeys.read' },
      schema: {
        operationId: 'getApiKeyRoles',
        tags,
        summary: 'Роли API-ключа',
        params: idParam,
        response: { 200: apiKeyRolesResponse },
      },
    },
    async (req) => svc.roles(requireAuth(req).principal, req.params.id),
  );
  app.post(
    '/apikeys/:id/roles',
    {
      config: { permission: 'apikeys.manage' },
      schema: {
        operationId: 'setApiKeyRoles',
        tags,
        summary: 'Назначить роли API-ключа',
        params: idParam,
        body: apiKeyRolesInput,
        response: { 200: apiKeyRolesResponse },
      },
    },
    async (req) => svc.setRoles(requireAuth(req).principal, actorOf(req), req.params.id, req.body),
  );
}
