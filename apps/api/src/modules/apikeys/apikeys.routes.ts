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
import { callerOf } from '../../lib/caller';
import { itemRoutes } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
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
    async (req) => svc.list(callerOf(req), req.query),
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
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  itemRoutes(app, {
    path: '/apikeys/:id',
    tags,
    params: idParam,
    response: apiKeyResponse,
    get: { permission: 'apikeys.read', operationId: 'getApiKey', summary: 'API-ключ', run: (c, { id }) => svc.get(c, id) },
    update: {
      permission: 'apikeys.manage',
      operationId: 'updateApiKey',
      summary: 'Изменить API-ключ',
      body: updateApiKeyRequest,
      run: (c, { id }, body) => svc.update(c, id, body),
    },
    remove: {
      permission: 'apikeys.manage',
      operationId: 'deleteApiKey',
      summary: 'Удалить API-ключ',
      run: (c, { id }) => svc.remove(c, id),
    },
  });
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
    async (req) => svc.refresh(callerOf(req), req.params.id),
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
    async (req) => svc.roles(callerOf(req), req.params.id),
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
    async (req) => svc.setRoles(callerOf(req), req.params.id, req.body),
  );
}
