import {
  configKeyParam,
  configListQuery,
  configListResponse,
  configResponse,
  createConfigRequest,
  updateConfigRequest,
} from '@forpost/contract/configs';
import { crudRoutes } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { ConfigsService } from './configs.service';

/** System settings: SUPER_ADMIN only (configs.manage). `{id}` is the setting's key. */
export async function configsRoutes(app: App, deps: { configs: ConfigsService }) {
  const svc = deps.configs;
  const tags = ['configs'];
  const permission = 'configs.manage' as const;

  crudRoutes(
    app,
    {
      tags,
      path: '/configs',
      query: configListQuery,
      page: configListResponse,
      create: createConfigRequest,
      item: '/configs/:id',
      params: configKeyParam,
      response: configResponse,
      body: updateConfigRequest,
    },
    {
      list: [
        permission,
        'listConfigs',
        'Системные настройки: все ключи реестра с текущими значениями (секреты не возвращаются)',
        async (_c, q) => svc.list(q),
      ],
      create: [
        permission,
        'createConfig',
        'Задать значение настройки (409, если оно уже задано — тогда PATCH)',
        (c, body) => svc.create(c, body),
      ],
      get: [permission, 'getConfig', 'Настройка по ключу', (_c, { id }) => svc.item(id)],
      update: [
        permission,
        'updateConfig',
        'Изменить значение настройки; действует на всех экземплярах сервера без перезапуска',
        (c, { id }, body) => svc.update(c, id, body.value),
      ],
      remove: [permission, 'deleteConfig', 'Сбросить настройку к значению по умолчанию', (c, { id }) => svc.remove(c, id)],
    },
  );
}
