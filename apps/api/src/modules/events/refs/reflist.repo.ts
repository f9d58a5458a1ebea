/* SQL of the simple reference lists (reflist.ts): one table with `id`, `name` and `updated_at`. */
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { containing } from '../../../db/sql';

export type RefTable = PgTable & { id: PgColumn; name: PgColumn; updatedAt: PgColumn };
/** A row of a list's table, as Drizzle selects it. */
export type RefRow<T extends RefTable> = T['$inferSelect'] & { id: number };

export function createRefListRepo<T extends RefTable>(db: Db, table: T) {
  type Row = RefRow<T>;
  // Drizzle's builder does not take a generic table; the rows are typed by the list's table.
  const t: RefTable = table;
  return {
    /** A page by name (`q` anywhere in it; `equal`: column = value), and the total. */
    async list(p: {
      q?: string;
      equal?: [PgColumn, unknown][];
      limit: number;
      offset: number;
    }): Promise<{ rows: Row[]; total: number }> {
      const where = and(p.q ? ilike(t.name, containing(p.q)) : undefined, ...(p.equal ?? []).map(([c, v]) => eq(c, v)));
      const [rows, [total]] = await Promise.all([
        db.select().from(t).where(where).orderBy(asc(t.name), asc(t.id)).limit(p.limit).offset(p.offset),
        db.select({ n: count() }).from(t).where(where),
      ]);
      return { rows: rows as Row[], total: total?.n ?? 0 };
    },

    async find(id: number, tx: Db = db, forUpdate = false): Promise<Row | undefined> {
      const q = tx.select().from(t).where(eq(t.id, id)).limit(1);
      const [r] = forUpdate ? await q.for('update') : await q;
      return r as Row | undefined;
    },

    async insert(cols: Record<string, unknown>, tx: Db): Promise<Row> {
      const [r] = await tx
        .insert(t)
        .values(cols as never)
        .returning();
      return r as Row;
    },

    async update(id: number, cols: Record<string, unknown>, tx: Db): Promise<Row> {
      const [r] = await tx
        .update(t)
        .set({ ...cols, updatedAt: new Date() } as never)
        .where(eq(t.id, id))
        .returning();
      return r as Row;
    },

    async remove(id: number, tx: Db): Promise<void> {
      await tx.delete(t).where(eq(t.id, id));
    },
  };
}
