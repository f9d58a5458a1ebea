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
import { crudRoutes } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { ApiKeysService } from './apikeys.service';

export async function apiKeysRoutes(app: App, deps: { apiKeys: ApiKeysService }) {
  const svc = deps.apiKeys;
  const tags = ['apikeys'];
  crudRoutes(
    app,
    {
      tags,
      path: '/apikeys',
      query: apiKeyListQuery,
      page: listResponse(apiKeyResponse),
      create: createApiKeyRequest,
      created: apiKeyWithSecretResponse,
      response: apiKeyResponse,
      body: updateApiKeyRequest,
    },
    {
      list: ['apikeys.read', 'listApiKeys', 'API-ключи', (c, q) => svc.list(c, q)],
      create: [
        'apikeys.manage',
        'createApiKey',
        'Выпустить API-ключ (секрет показывается один раз)',
        (c, body) => svc.create(c, body),
      ],
      get: ['apikeys.read', 'getApiKey', 'API-ключ', (c, { id }) => svc.get(c, id)],
      update: ['apikeys.manage', 'updateApiKey', 'Изменить API-ключ', (c, { id }, body) => svc.update(c, id, body)],
      remove: ['apikeys.manage', 'deleteApiKey', 'Удалить API-ключ', (c, { id }) => svc.remove(c, id)],
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
