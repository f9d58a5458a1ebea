import {
  configKeyParam,
  configListQuery,
  configListResponse,
  configResponse,
  createConfigRequest,
  updateConfigRequest,
} from '@forpost/contract/configs';
import { callerOf } from '../../lib/caller';
import { itemRoutes } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
import type { ConfigsService } from './configs.service';

/** System settings: SUPER_ADMIN only (configs.manage). `{id}` is the setting's key. */
export async function configsRoutes(app: App, deps: { configs: ConfigsService }) {
  const svc = deps.configs;
  const tags = ['configs'];
  const permission = 'configs.manage' as const;

  app.get(
    '/configs',
    {
      config: { permission },
      schema: {
        operationId: 'listConfigs',
        tags,
        summary: 'Системные настройки: все ключи реестра с текущими значениями (секреты не возвращаются)',
        querystring: configListQuery,
        response: { 200: configListResponse },
      },
    },
    async (req) => svc.list(req.query),
  );
  app.post(
    '/configs',
    {
      config: { permission },
      schema: {
        operationId: 'createConfig',
        tags,
        summary: 'Задать значение настройки (409, если оно уже задано — тогда PATCH)',
        body: createConfigRequest,
        response: { 201: configResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  itemRoutes(app, {
    path: '/configs/:id',
    tags,
    params: configKeyParam,
    response: configResponse,
    get: { permission, operationId: 'getConfig', summary: 'Настройка по ключу', run: (_c, { id }) => svc.item(id) },
    update: {
      permission,
      operationId: 'updateConfig',
      summary: 'Изменить значение настройки; действует на всех экземплярах сервера без перезапуска',
      body: updateConfigRequest,
      run: (c, { id }, body) => svc.update(c, id, body.value),
    },
    remove: {
      permission,
      operationId: 'deleteConfig',
      summary: 'Сбросить настройку к значению по умолчанию',
      run: (c, { id }) => svc.remove(c, id),
    },
  });
}
