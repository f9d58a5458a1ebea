/*
 * Requests about events (takedown, report…) of the modules with actions, each on the event history:
 * POST /modules/{code}/events/{id}/actions for one event, POST /modules/{code}/events/actions for a
 * list of them (all or nothing).
 */
import {
  batchActionRequest,
  batchActionResponse,
  eventActionRequest,
  eventActionResponse,
  idParams,
} from '@forpost/contract/events';
import { callerOf } from '../../../lib/caller';
import { createActionRunner } from '../bulk/bulk.actions';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ExtraRegistrar } from './extras';

export const actionsExtra: ExtraRegistrar = (app, m, ctx) => {
  const actions = m.actions ?? [];
  if (!actions.length) return;
  const runner = createActionRunner(ctx);
  const P = pascal(m.code);
  const which = actions.map((a) => a.label.toLowerCase()).join(', ');
  app.post(
    `${eventsPath(m)}/:id/actions`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `run${P}EventAction`,
        tags: tagsOf(m),
        summary: `${m.name}: действие по событию (${which})`,
        params: idParams,
        body: eventActionRequest(m),
        response: { 200: eventActionResponse },
      },
    },
    async (req) => runner.one(callerOf(req), m, req.params.id, req.body as { action: string; comment?: string }),
  );
  app.post(
    `${eventsPath(m)}/actions`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `run${P}EventsAction`,
        tags: tagsOf(m),
        summary: `${m.name}: действие по нескольким событиям (${which})`,
        description:
          'Атомарно: если хоть одно событие не найдено или недоступно, действие не выполняется ни для одного ' +
          '(404/403 со списком ids). Каждое событие получает запись в истории и в журнале аудита.',
        body: batchActionRequest(m),
        response: { 200: batchActionResponse },
      },
    },
    async (req) => {
      const body = req.body as { ids: number[]; action: string; comment?: string };
      return runner.many(callerOf(req), m, body.ids, body);
    },
  );
};
