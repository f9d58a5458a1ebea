/* SQL of comments on events. No permission checks here. */
import { count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { eventComments, events, users } from '../../db/schema/index';

/** A comment with its author's name and its event's company. */
export type CommentRow = typeof eventComments.$inferSelect & { authorName: string | null; companyId: number };

export function createCommentsRepo(db: Db) {
  const select = (tx: Db) =>
    tx
      .select({ ...getTableColumns(eventComments), authorName: users.name, companyId: events.companyId })
      .from(eventComments)
      .innerJoin(events, eq(events.id, eventComments.eventId))
      .leftJoin(users, eq(users.id, eventComments.authorId));

  return {
    async find(id: number, tx: Db = db): Promise<CommentRow | undefined> {
      const [r] = await select(tx).where(eq(eventComments.id, id));
      return r;
    },

    /** A page of an event's comments, oldest first, and their total. */
    async list(eventId: number, limit: number, offset: number): Promise<{ rows: CommentRow[]; total: number }> {
      const [rows, [total]] = await Promise.all([
        select(db).where(eq(eventComments.eventId, eventId)).orderBy(eventComments.id).limit(limit).offset(offset),
        db.select({ n: count() }).from(eventComments).where(eq(eventComments.eventId, eventId)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async insert(v: { eventId: number; authorId: number; text: string }, tx: Db = db): Promise<number> {
      const [r] = await tx.insert(eventComments).values(v).returning({ id: eventComments.id });
      if (!r) throw new Error('comment insert returned nothing');
      return r.id;
    },

    async setText(id: number, text: string, tx: Db = db): Promise<void> {
      await tx.update(eventComments).set({ text, updatedAt: sql`now()` }).where(eq(eventComments.id, id));
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(eventComments).where(eq(eventComments.id, id));
    },
  };
}
export type CommentsRepo = ReturnType<typeof createCommentsRepo>;
