/*
 * «Отменить» a change of events: the collection's PATCH and a change by filter keep, per event and
 * field, the value before and after (event_undo_items); for UNDO_TTL_SECONDS their author — the same
 * user through the same key or signed in — may put back exactly those fields. A field someone changed
 * since keeps their value (the event counts as skipped); the rest go back with `undo` history entries
 * and one `event.undo` audit entry. A second undo, or one too late, is a 409.
 */

import { randomUUID } from 'node:crypto';
import { UNDO_MSG, UNDO_TTL_SECONDS, type UndoResponse } from '@forpost/contract/events';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import type { Caller } from '../../../lib/caller';
import { ApiError, notFound } from '../../../lib/errors';
import type { HistoryEntry } from '../events.repo';
import { isUndoField } from '../write/change-words';
import type { EventsService, UndoItem } from '../write/events.service';
import { createUndoRepo } from './undo.repo';

const assigneeId = (v: unknown): number | null => (v && typeof v === 'object' ? ((v as { id?: number }).id ?? null) : null);

/** The undo items of a change's history entries: the batch fields only, the assignee by id. */
export function undoItemsOf(history: readonly HistoryEntry[]): UndoItem[] {
  return history.flatMap((h) =>
    h.action === 'update' && isUndoField(h.field)
      ? [
          {
            eventId: h.eventId,
            field: h.field,
            before: h.field === 'assignee_id' ? assigneeId(h.before) : (h.before ?? null),
            after: h.field === 'assignee_id' ? assigneeId(h.after) : (h.after ?? null),
          },
        ]
      : [],
  );
}

const expiry = () => new Date(Date.now() + UNDO_TTL_SECONDS * 1000);

export function createUndo(db: Db) {
  const repo = createUndoRepo(db);
  let events: EventsService | undefined;
  const svc = () => {
    if (!events) throw new Error('undo is not mounted (call mount from the event engine)');
    return events;
  };

  return {
    repo,
    mount(e: EventsService) {
      events = e;
    },

    /**
     * A new, still empty record (a change by filter fills it chunk by chunk and opens it with `open`
     * when done; until then it reads as expired).
     */
    async create(c: Caller, m: ModuleDescriptor, companyId: number | null, tx: Db, expiresAt = new Date()): Promise<string> {
      const id = randomUUID();
      await repo.insert({ id, module: m.code, companyId, authorId: c.auth.user.id, authorKeyId: c.auth.keyId, expiresAt }, tx);
      return id;
    },

    /** Adds what a change (its history entries) did. */
    add: (id: string, history: readonly HistoryEntry[], tx: Db) => repo.addItems(id, undoItemsOf(history), tx),

    /** The change is complete: its author may undo it from now on; null (and no record) when it changed nothing. */
    async open(id: string, summary: string | null, tx: Db): Promise<string | null> {
      if (!(await repo.hasItems(id, tx))) {
        await repo.remove(id, tx);
        return null;
      }
      await repo.update(id, { expiresAt: expiry(), ...(summary ? { summary } : {}) }, tx);
      return id;
    },

    /** PATCH …/events: the batch change and its undo record, in one transaction. */
    async batchPatch(c: Caller, m: ModuleDescriptor, ids: number[], patch: Record<string, unknown>) {
      return db.transaction(async (tx) => {
        const r = await svc().batchPatch(c, m, ids, patch, tx);
        const id = await this.create(c, m, r.words.companyId, tx);
        await this.add(id, r.history, tx);
        const token = await this.open(id, r.words.meta.summary, tx);
        return { ids: r.ids, count: r.count, undo_token: token };
      });
    },

    /** POST …/events/undo/{token}. */
    async undo(c: Caller, m: ModuleDescriptor, token: string): Promise<UndoResponse> {
      return db.transaction(async (tx) => {
        const row = await repo.lockOwn(token, m.code, c.auth.user.id, c.auth.keyId, tx);
        if (!row) throw notFound(UNDO_MSG.notFound);
        if (row.undoneAt) throw new ApiError(409, UNDO_MSG.done);
        if (row.expiresAt.getTime() <= Date.now()) throw new ApiError(409, UNDO_MSG.expired);
        const r = await svc().restore(c, m, await repo.items(token, tx), tx);
        await repo.update(token, { undoneAt: new Date() }, tx);
        return r;
      });
    },
  };
}
export type Undo = ReturnType<typeof createUndo>;
