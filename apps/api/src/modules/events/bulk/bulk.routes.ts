/*
 * «Все N, подходящие под фильтр» of every module's list: POST …/events/bulk (a change or an action),
 * DELETE …/events/bulk, GET …/events/bulk/{id} (progress). The filter is the list's query string.
 */
import { idParam } from '@forpost/contract/common';
import { BULK_INLINE_MAX, type BulkRequest, bulkFilterQuery, bulkJob, bulkRequest } from '@forpost/contract/events-bulk';
import { MODULE_LIST } from '@forpost/contract/modules';
import { callerOf } from '../../../lib/caller';
import type { App } from '../../../lib/routes';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ListFilterQuery } from '../list/list-filter';
import type { BulkJobs } from './bulk.service';

const HOW =
  `Фильтр — те же параметры запроса, что у списка (без страниц и сортировки). До ${BULK_INLINE_MAX} событий операция ` +
  'выполняется сразу, целиком или никак (200, `status: done`); больше — фоновой задачей (202), ход ' +
  'которой читается GET …/events/bulk/{id}. Каждое событие получает запись в истории и в журнале аудита.';

export function bulkRoutes(app: App, deps: { bulk: BulkJobs }) {
  const { bulk } = deps;
  for (const m of MODULE_LIST) {
    const path = `${eventsPath(m)}/bulk`;
    const P = pascal(m.code);
    const tags = tagsOf(m);
    const actions = m.actions?.length ? `, действие (${m.actions.map((a) => a.label.toLowerCase()).join(', ')})` : '';

    app.post(
      path,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `bulkUpdate${P}Events`,
          tags,
          summary: `${m.name}: изменить все события по фильтру (статус, приоритет, решение, теги${actions})`,
          description: HOW,
          querystring: bulkFilterQuery(m),
          body: bulkRequest(m),
          response: { 200: bulkJob, 202: bulkJob },
        },
      },
      async (req, reply) => {
        const r = await bulk.start(callerOf(req), m, req.query as ListFilterQuery, req.body as BulkRequest);
        return reply.code(r.inline ? 200 : 202).send(r.job);
      },
    );

    app.delete(
      path,
      {
        config: { permission: 'events.delete' },
        schema: {
          operationId: `bulkDelete${P}Events`,
          tags,
          summary: `${m.name}: удалить все события по фильтру`,
          description: HOW,
          querystring: bulkFilterQuery(m),
          response: { 200: bulkJob, 202: bulkJob },
        },
      },
      async (req, reply) => {
        const r = await bulk.start(callerOf(req), m, req.query as ListFilterQuery, { op: 'delete' });
        return reply.code(r.inline ? 200 : 202).send(r.job);
      },
    );

    app.get(
      `${path}/:id`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `get${P}BulkJob`,
          tags,
          summary: `${m.name}: ход операции по фильтру`,
          description: 'Операцию видит только тот, кто её запустил (тем же входом или тем же API-ключом).',
          params: idParam,
          response: { 200: bulkJob },
        },
      },
      async (req) => bulk.get(callerOf(req), m, req.params.id),
    );
  }
}
