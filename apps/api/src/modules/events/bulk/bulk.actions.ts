/*
 * Running a module's action (takedown, report…) on events: one event (POST …/events/{id}/actions), a
 * list of them all or nothing (POST …/events/actions), or a bulk job's chunk. Each event gets its
 * history entry and its audit entry, in the transaction of the change.
 */
import { EVENT_MSG, type ModuleDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import type { Caller } from '../../../lib/caller';
import { badRequest } from '../../../lib/errors';
import type { EventRow } from '../events.repo';
import type { ExtrasContext } from '../extras/extras';

export interface ActionBody {
  action: string;
  comment?: string;
}

export function createActionRunner(ctx: Pick<ExtrasContext, 'db' | 'audit' | 'events' | 'actionHandlers'>) {
  const descriptorOf = (m: ModuleDescriptor, code: string) => {
    const action = (m.actions ?? []).find((a) => a.code === code);
    if (!action) throw badRequest(EVENT_MSG.actionUnknown, { action: EVENT_MSG.actionUnknown });
    return action;
  };

  /** The action on rows locked by the caller's transaction. */
  async function onRows(c: Caller, m: ModuleDescriptor, rows: EventRow[], body: ActionBody, tx: Db) {
    const action = descriptorOf(m, body.action);
    const handler = ctx.actionHandlers.get(`${m.code}:${action.code}`);
    const items: ({ id: number; history_id: number } & Record<string, unknown>)[] = [];
    for (const row of rows) {
      const extra = (await handler?.(c, row, tx)) ?? {};
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
      items.push({ id: row.id, history_id: historyId as number, ...extra });
    }
    return { action: action.code, label: action.label, at: new Date().toISOString(), items };
  }

  return {
    onRows,

    /** One event the caller may change. */
    async one(c: Caller, m: ModuleDescriptor, id: number, body: ActionBody) {
      descriptorOf(m, body.action);
      return ctx.db.transaction(async (tx) => {
        const row = await ctx.events.load(c, m, id, 'events.write', tx, true);
        const { items, ...r } = await onRows(c, m, [row], body, tx);
        const { id: _id, ...item } = items[0] as (typeof items)[number];
        return { ...r, ...item };
      });
    },

    /** A list of events, all or nothing (any id absent or not the caller's to change refuses the whole list). */
    async many(c: Caller, m: ModuleDescriptor, ids: number[], body: ActionBody, outer: Db = ctx.db) {
      descriptorOf(m, body.action);
      return outer.transaction(async (tx) => {
        const rows = await ctx.events.lockBatch(c, m, ids, 'events.write', tx);
        const r = await onRows(c, m, rows, body, tx);
        return { ids: rows.map((x) => x.id), count: rows.length, ...r };
      });
    },
  };
}
export type ActionRunner = ReturnType<typeof createActionRunner>;
