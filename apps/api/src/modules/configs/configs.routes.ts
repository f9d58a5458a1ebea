import {
  configKeyParam,
  configListQuery,
  configListResponse,
  configResponse,
  createConfigRequest,
  updateConfigRequest,
} from '@forpost/contract/configs';
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import type { ConfigsService } from './configs.service';

const noContent = z.null().describe('Нет содержимого');

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
    async (req, reply) => reply.code(201).send(await svc.create(actorOf(req), req.body)),
  );
  app.get(
    '/configs/:id',
    {
      config: { permission },
      schema: {
        operationId: 'getConfig',
        tags,
        summary: 'Настройка по ключу',
        params: configKeyParam,
        response: { 200: configResponse },
      },
    },
    async (req) => svc.item(req.params.id),
  );
  app.patch(
    '/configs/:id',
    {
      config: { permission },
      schema: {
        operationId: 'updateConfig',
        tags,
        summary: 'Изменить значение настройки; действует на всех экземплярах сервера без перезапуска',
        params: configKeyParam,
        body: updateConfigRequest,
        response: { 200: configResponse },
      },
    },
    async (req) => svc.update(actorOf(req), req.params.id, req.body.value),
  );
  app.delete(
    '/configs/:id',
    {
      config: { permission },
      schema: {
        operationId: 'deleteConfig',
        tags,
        summary: 'Сбросить настройку к значению по умолчанию',
        params: configKeyParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}
