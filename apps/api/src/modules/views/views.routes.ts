/* /modules/{code}/views (saved views of a module's list) and /me/preferences (the user's console settings). */
import { noContent } from '@forpost/contract/events';
import { MODULE_LIST } from '@forpost/contract/modules';
import {
  preferenceItem,
  preferenceKeyParams,
  preferencePut,
  preferencesResponse,
  savedViewCreate,
  savedViewItem,
  savedViewList,
  savedViewListQuery,
  savedViewPatch,
  viewParams,
} from '@forpost/contract/views';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { pascal } from '../events/index';
import type { ViewsService } from './views.service';

const tags = ['views'];

export function viewsRoutes(app: App, deps: { views: ViewsService }) {
  const { views } = deps;
  for (const m of MODULE_LIST) {
    const P = pascal(m.code);
    const base = `/modules/${m.code}/views`;
    // Views are a signed-in user's (personal, or shared by users of a company): never an API key's.
    app.get(
      base,
      {
        config: { permission: 'session' },
        schema: {
          operationId: `list${P}Views`,
          tags,
          summary: `${m.name}: сохранённые виды списка (свои и общие для компании)`,
          querystring: savedViewListQuery,
          response: { 200: savedViewList },
        },
      },
      async (req) => views.list(callerOf(req), m, req.query.company_id),
    );
    app.post(
      base,
      {
        config: { permission: 'session' },
        schema: {
          operationId: `create${P}View`,
          tags,
          summary: `${m.name}: сохранить вид списка (фильтры, сортировка, колонки)`,
          body: savedViewCreate(m),
          response: { 201: savedViewItem },
        },
      },
      async (req, reply) => {
        reply.code(201);
        return views.create(callerOf(req), m, req.body);
      },
    );
    app.patch(
      `${base}/:id`,
      {
        config: { permission: 'session' },
        schema: {
          operationId: `update${P}View`,
          tags,
          summary: `${m.name}: переименовать вид, поделиться им или обновить его состояние`,
          params: viewParams,
          body: savedViewPatch(m),
          response: { 200: savedViewItem },
        },
      },
      async (req) => views.update(callerOf(req), m, req.params.id, req.body),
    );
    app.delete(
      `${base}/:id`,
      {
        config: { permission: 'session' },
        schema: {
          operationId: `delete${P}View`,
          tags,
          summary: `${m.name}: удалить вид`,
          params: viewParams,
          response: { 204: noContent },
        },
      },
      async (req, reply) => {
        await views.remove(callerOf(req), m, req.params.id);
        return reply.code(204).send(null);
      },
    );
  }

  app.get(
    '/me/preferences',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'listMyPreferences',
        tags: ['profile'],
        summary: 'Мои настройки консоли (тема, колонки и вид по умолчанию по модулям)',
        response: { 200: preferencesResponse },
      },
    },
    async (req) => views.preferences(callerOf(req)),
  );
  app.put(
    '/me/preferences/:key',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'putMyPreference',
        tags: ['profile'],
        summary: 'Изменить настройку консоли: theme, columns:{модуль}, default_view:{модуль}; value null — сбросить',
        params: preferenceKeyParams,
        body: preferencePut,
        response: { 200: preferenceItem },
      },
    },
    async (req) => views.putPreference(callerOf(req), req.params.key, req.body.value),
  );
}
