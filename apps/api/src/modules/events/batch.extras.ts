/* Batch PATCH and DELETE on the collection ({ids, patch} / {ids}) — all or nothing. */
import { batchDeleteRequest, batchPatchRequest, batchResponse } from '@forpost/contract/events';
import { callerOf } from './access';
import { eventsPath, pascal, tagsOf } from './events.routes';
import type { ExtraRegistrar } from './extras';

export const batchExtra: ExtraRegistrar = (app, m, ctx) => {
  const P = pascal(m.code);
  app.patch(
    eventsPath(m),
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `batchUpdate${P}Events`,
        tags: tagsOf(m),
        summary: `${m.name}: изменить несколько событий`,
        description: 'Атомарно: если хоть одно событие не найдено или недоступно, не меняется ничего (404/403 со списком ids).',
        body: batchPatchRequest(m),
        response: { 200: batchResponse },
      },
    },
    async (req) => {
      const body = req.body as { ids: number[]; patch: Record<string, unknown> };
      return ctx.events.batchPatch(callerOf(req), m, body.ids, body.patch);
    },
  );
  app.delete(
    eventsPath(m),
    {
      config: { permission: 'events.delete' },
      schema: {
        operationId: `batchDelete${P}Events`,
        tags: tagsOf(m),
        summary: `${m.name}: удалить несколько событий`,
        description: 'Атомарно: если хоть одно событие не найдено или недоступно, не удаляется ничего.',
        body: batchDeleteRequest,
        response: { 200: batchResponse },
      },
    },
    async (req) => ctx.events.batchDelete(callerOf(req), m, req.body.ids),
  );
};
