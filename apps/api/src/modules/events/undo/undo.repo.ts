/* SQL of «Отменить»: the undo records of changes and their per-event, per-field items. No permission checks here. */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { eventUndoItems, eventUndos } from '../../../db/schema/index';
import type { UndoField } from '../write/change-words';
import type { UndoItem } from '../write/events.service';

export type UndoRow = typeof eventUndos.$inferSelect;

export function createUndoRepo(db: Db) {
  return {
    async insert(v: typeof eventUndos.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(eventUndos).values(v);
    },

    async addItems(undoId: string, items: readonly UndoItem[], tx: Db = db): Promise<void> {
      if (!items.length) return;
      await tx
        .insert(eventUndoItems)
        .values(
          items.map((i) => ({ undoId, eventId: i.eventId, field: i.field, before: i.before ?? null, after: i.after ?? null })),
        )
        .onConflictDoNothing();
    },

    async hasItems(undoId: string, tx: Db = db): Promise<boolean> {
      const [r] = await tx.select({ one: sql<number>`1` }).from(eventUndoItems).where(eq(eventUndoItems.undoId, undoId)).limit(1);
      return r !== undefined;
    },

    async items(undoId: string, tx: Db = db): Promise<UndoItem[]> {
      const r = await tx.select().from(eventUndoItems).where(eq(eventUndoItems.undoId, undoId)).orderBy(eventUndoItems.eventId);
      return r.map((x) => ({ eventId: x.eventId, field: x.field as UndoField, before: x.before, after: x.after }));
    },

    /** The record of `module` made by this user through this key (null: signed in), locked. */
    async lockOwn(id: string, module: string, userId: number, keyId: number | null, tx: Db): Promise<UndoRow | undefined> {
      const [r] = await tx
        .select()
        .from(eventUndos)
        .where(
          and(
            eq(eventUndos.id, id),
            eq(eventUndos.module, module),
            eq(eventUndos.authorId, userId),
            sql`${eventUndos.authorKeyId} IS NOT DISTINCT FROM ${keyId}::int`,
          ),
        )
        .for('update');
      return r;
    },

    async update(id: string, v: Partial<Pick<UndoRow, 'expiresAt' | 'undoneAt' | 'summary'>>, tx: Db = db): Promise<void> {
      await tx.update(eventUndos).set(v).where(eq(eventUndos.id, id));
    },

    async remove(id: string, tx: Db = db): Promise<void> {
      await tx.delete(eventUndos).where(eq(eventUndos.id, id));
    },

    /** Records a day past their time are of no use (the changes stay in history and the audit log). */
    async dropOld(): Promise<void> {
      await db.execute(sql`DELETE FROM event_undos WHERE expires_at < now() - interval '1 day'`);
    },
  };
}
export type UndoRepo = ReturnType<typeof createUndoRepo>;
