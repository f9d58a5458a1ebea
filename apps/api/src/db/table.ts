/*
 * The table repository of an admin entity (part of the CRUD kit, docs/architecture.md «Набор CRUD»):
 * a page with its total, find, insert, update and remove by id — the statements every list page's
 * repository wrote out the same way. Each takes `db` or the service's transaction. A repository
 * keeps its own filters, sort map and joined select and hands them here; it is a helper, not a base.
 */
import { and, count, eq, type InferInsertModel, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

export interface PageQuery {
  page: number;
  page_size: number;
}

type WithId = PgTable & { id: PgColumn; updatedAt?: PgColumn };

export function tableRepo<T extends WithId>(db: Db, table: T) {
  type Insert = InferInsertModel<T>;
  // Drizzle's builders take the concrete table; a generic one needs the cast (types stay checked at the edges).
  const t = table as unknown as PgTable;
  const whereOf = (id: number, also?: SQL): SQL => and(eq(table.id, id), also) as SQL;

  return {
    /** One page of `rows` (a dynamic select: `select(tx).$dynamic()`) under `where`, in `order`, with the total. */
    async page<Q extends PgSelect>(
      rows: Q,
      where: SQL | undefined,
      order: SQL[],
      q: PageQuery,
      tx: Db = db,
    ): Promise<{ rows: Awaited<Q>; total: number }> {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(t).where(where);
      const page = await rows
        .where(where)
        .orderBy(...order)
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { rows: page as Awaited<Q>, total: n };
    },

    /** The row `id` of `rows` (a dynamic select), only where `also` holds. */
    async find<Q extends PgSelect>(rows: Q, id: number, also?: SQL): Promise<Awaited<Q>[number] | undefined> {
      const [r] = (await rows.where(whereOf(id, also)).limit(1)) as Awaited<Q>;
      return r;
    },

    /** Inserts one row; its id. */
    async insert(v: Insert, tx: Db = db): Promise<number> {
      const [r] = (await tx
        .insert(t)
        .values(v as never)
        .returning({ id: table.id })) as { id: number }[];
      if (!r) throw new Error('insert returned nothing');
      return r.id;
    },

    /** Changes the row `id` (and `updated_at`, if the table has it), only where `also` holds; was there one? */
    async update(id: number, set: Partial<Insert>, tx: Db = db, also?: SQL): Promise<boolean> {
      const stamp = table.updatedAt ? { updatedAt: new Date() } : {};
      const r = await tx
        .update(t)
        .set({ ...set, ...stamp } as never)
        .where(whereOf(id, also))
        .returning({ id: table.id });
      return r.length === 1;
    },

    /** Deletes the row `id`, only where `also` holds; was there one? */
    async remove(id: number, tx: Db = db, also?: SQL): Promise<boolean> {
      const r = await tx.delete(t).where(whereOf(id, also)).returning({ id: table.id });
      return r.length === 1;
    },
  };
}
