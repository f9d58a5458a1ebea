/* The common endpoints of every module, generated from the registry: /modules/{code}/events… */

import { API_MSG } from '@forpost/contract/errors';
import {
  batchDeleteRequest,
  batchPatchRequest,
  batchPatchResponse,
  batchResponse,
  decisionsResponse,
  type EventListQuery,
  eventCreateRequest,
  eventDetailResponse,
  eventHistoryResponse,
  eventListQuery,
  eventListResponse,
  eventPatchRequest,
  idParams,
  modulesResponse,
  noContent,
  prioritiesResponse,
  statusesResponse,
  UNDO_TTL_SECONDS,
  undoParam,
  undoResponse,
} from '@forpost/contract/events';
import { EVENT_MSG, hasDecisions, isModuleCode, MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import { z } from 'zod';
import { assertModule, callerOf } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import type { App } from '../../lib/routes';
import type { Refs } from './refs/refs';
import type { Undo } from './undo/undo.service';
import type { EventsService } from './write/events.service';

/** 'networkattacks' → 'Networkattacks' (operationIds: listDomainsEvents, …). */
export const pascal = (code: string) => code.charAt(0).toUpperCase() + code.slice(1);
export const eventsPath = (m: ModuleDescriptor) => `/modules/${m.code}/events`;
export const tagsOf = (m: ModuleDescriptor) => ['events', `events-${m.code}`];

export async function eventRoutes(app: App, deps: { events: EventsService; refs: Refs; undo: Undo }) {
  const { events, refs, undo } = deps;

  app.get(
    '/modules',
    {
      config: { permission: 'authenticated' },
      schema: { operationId: 'listModules', tags: ['events'], summary: 'Модули событий', response: { 200: modulesResponse } },
    },
    async () => ({ items: MODULE_LIST.map((m) => ({ id: m.id, code: m.code, name: m.name })) }),
  );

  for (const m of MODULE_LIST) {
    const base = eventsPath(m);
    const P = pascal(m.code);
    const tags = tagsOf(m);

    app.get(
      base,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `list${P}Events`,
          tags,
          summary: `${m.name}: список событий`,
          description:
            'Фильтры — параметры запроса (массивы через запятую), `q` — полнотекстовый поиск, `sort=-created_at`. ' +
            '`total` точен до 10 000, дальше `total_capped: true`. `rules` — JSON-массив наборов фильтров: ' +
            'в списке события, подходящие хотя бы под один, а `rules_map` говорит, под какой.',
          querystring: eventListQuery(m),
          response: { 200: eventListResponse(m) },
        },
      },
      async (req) => events.list(callerOf(req), m, req.query as EventListQuery),
    );

    app.post(
      base,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `create${P}Event`,
          tags,
          summary: `${m.name}: создать событие`,
          body: eventCreateRequest(m),
          response: { 201: eventDetailResponse(m) },
        },
      },
      async (req, reply) => reply.code(201).send(await events.create(callerOf(req), m, req.body)),
    );

    app.patch(
      base,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `batchUpdate${P}Events`,
          tags,
          summary: `${m.name}: изменить несколько событий`,
          description:
            'Атомарно: если хоть одно событие не найдено или недоступно, не меняется ничего (404/403 со списком ids). ' +
            'Каждое изменение записывается в историю события. `undo_token` — для «Отменить» ' +
            `(POST …/events/undo/{token}, ${UNDO_TTL_SECONDS / 60} мин, только автору).`,
          body: batchPatchRequest(m),
          response: { 200: batchPatchResponse },
        },
      },
      async (req) => {
        const body = req.body as { ids: number[]; patch: Record<string, unknown> };
        return undo.batchPatch(callerOf(req), m, body.ids, body.patch);
      },
    );

    app.post(
      `${base}/undo/:token`,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `undo${P}EventsChange`,
          tags,
          summary: `${m.name}: отменить изменение нескольких событий`,
          description:
            'Возвращает прежние значения ровно тех полей, что изменил пакетный PATCH или изменение по фильтру. ' +
            'Поле, которое с тех пор изменил кто-то ещё, остаётся как есть (событие считается пропущенным). ' +
            `Отменить может только автор изменения (тем же входом или тем же API-ключом) в течение ${UNDO_TTL_SECONDS / 60} мин; ` +
            'повторная отмена или отмена после срока — 409.',
          params: undoParam,
          response: { 200: undoResponse },
        },
      },
      async (req) => undo.undo(callerOf(req), m, (req.params as { token: string }).token),
    );

    app.delete(
      base,
      {
        config: { permission: 'events.delete' },
        schema: {
          operationId: `batchDelete${P}Events`,
          tags,
          summary: `${m.name}: удалить несколько событий`,
          description: 'Атомарно: если хоть одно событие не найдено или недоступно, не удаляется ничего.',
          body: batchDeleteRequest,
          response: { 200: batchResponse },
        },
      },
      async (req) => events.batchDelete(callerOf(req), m, req.body.ids),
    );

    app.get(
      `${base}/statuses`,
      {
        config: { permission: 'events.read' },
        schema: { operationId: `list${P}Statuses`, tags, summary: `${m.name}: статусы`, response: { 200: statusesResponse } },
      },
      async (req) => {
        assertModule(callerOf(req), m.code);
        return { items: refs.statuses(m.code) };
      },
    );

    app.get(
      `${base}/priorities`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `list${P}Priorities`,
          tags,
          summary: `${m.name}: приоритеты`,
          response: { 200: prioritiesResponse },
        },
      },
      async (req) => {
        assertModule(callerOf(req), m.code);
        return { items: refs.priorities(m.code) };
      },
    );

    if (hasDecisions(m)) {
      app.get(
        `${base}/decisions`,
        {
          config: { permission: 'events.read' },
          schema: { operationId: `list${P}Decisions`, tags, summary: `${m.name}: решения`, response: { 200: decisionsResponse } },
        },
        async (req) => {
          assertModule(callerOf(req), m.code);
          return { items: refs.decisions(m.code) };
        },
      );
    }

    app.get(
      `${base}/:id`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `get${P}Event`,
          tags,
          summary: `${m.name}: событие`,
          params: idParams,
          response: { 200: eventDetailResponse(m) },
        },
      },
      async (req) => events.get(callerOf(req), m, req.params.id),
    );

    app.patch(
      `${base}/:id`,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `update${P}Event`,
          tags,
          summary: `${m.name}: изменить событие`,
          description:
            'Меняются только переданные поля; каждое изменение записывается в историю события. null очищает необязательное поле.',
          params: idParams,
          body: eventPatchRequest(m),
          response: { 200: eventDetailResponse(m) },
        },
      },
      async (req) => events.patch(callerOf(req), m, req.params.id, req.body),
    );

    app.delete(
      `${base}/:id`,
      {
        config: { permission: 'events.delete' },
        schema: {
          operationId: `delete${P}Event`,
          tags,
          summary: `${m.name}: удалить событие`,
          params: idParams,
          response: { 204: noContent },
        },
      },
      async (req, reply) => {
        await events.remove(callerOf(req), m, req.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/:id/history`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `get${P}EventHistory`,
          tags,
          summary: `${m.name}: история изменений события`,
          params: idParams,
          response: { 200: eventHistoryResponse },
        },
      },
      async (req) => events.history(callerOf(req), m, req.params.id),
    );
  }

  // Unknown module codes: a Russian 404 rather than the generic "address not found".
  const unknownModule = async (req: { params: { code: string } }) => {
    throw notFound(isModuleCode(req.params.code) ? API_MSG.routeNotFound : EVENT_MSG.moduleNotFound);
  };
  const params = z.object({ code: z.string().max(100) }).loose();
  for (const url of ['/modules/:code/events', '/modules/:code/events/*']) {
    app.route({
      method: ['GET', 'POST', 'PATCH', 'DELETE'],
      url,
      config: { permission: 'authenticated' },
      schema: { hide: true, params } as never,
      handler: unknownModule as never,
    });
  }
}
