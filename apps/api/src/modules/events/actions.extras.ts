/* POST /modules/{code}/events/{id}/actions — requests about an event (takedown, report…), each on the event history. */
import { eventActionRequest, eventActionResponse, idParams } from '@forpost/contract/events';
import { EVENT_MSG } from '@forpost/contract/modules';
import { badRequest } from '../../lib/errors';
import { callerOf } from './access';
import { eventsPath, pascal, tagsOf } from './events.routes';
import type { ExtraRegistrar } from './extras';

export const actionsExtra: ExtraRegistrar = (app, m, ctx) => {
  const actions = m.actions ?? [];
  app.post(
    `${eventsPath(m)}/:id/actions`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `run${pascal(m.code)}EventAction`,
        tags: tagsOf(m),
        summary: `${m.name}: действие по событию (${actions.map((a) => a.label.toLowerCase()).join(', ')})`,
        params: idParams,
        body: eventActionRequest(m),
        response: { 200: eventActionResponse },
      },
    },
    async (req) => {
      const c = callerOf(req);
      const body = req.body as { action: string; comment?: string };
      const action = actions.find((a) => a.code === body.action);
      if (!action) throw badRequest(EVENT_MSG.actionUnknown, { action: EVENT_MSG.actionUnknown });
      return ctx.db.transaction(async (tx) => {
        const row = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        const extra = (await ctx.actionHandlers.get(`${m.code}:${action.code}`)?.(c, row, tx)) ?? {};
        const after = {
          ...(body.comment ? { comment: body.comment } : {}),
          ...(action.provider ? { provider: action.provider } : {}),
          ...extra,
        };
        const [historyId] = await ctx.events.recordHistory(
          c,
          row.id,
          [{ action: 'action', field: action.code, before: null, after }],
          tx,
        );
        await ctx.audit.record(
          c.actor,
          {
            action: 'event.action',
            entity: `event.${m.code}`,
            entityId: row.id,
            companyId: row.company_id,
            after: { action: action.code, ...after },
          },
          tx,
        );
        return {
          action: action.code,
          label: action.label,
          at: new Date().toISOString(),
          history_id: historyId as number,
          ...extra,
        };
      });
    },
  );
};
