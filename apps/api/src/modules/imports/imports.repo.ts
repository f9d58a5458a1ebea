/* SQL of imports: the import rows, their row errors, the stored file's doc. No permission checks here. */
import { desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { docs, imports } from '../../db/schema/index';
import { LOCK_IMPORT, stalledSql } from './jobs-kit';
import type { RowError } from './targets';

export type ImportRow = typeof imports.$inferSelect & {
  companyName: string | null;
  authorName: string | null;
  storageKey: string | null;
  stalled: boolean;
};

const withNames = {
  companyName: sql<string | null>`(SELECT name FROM companies WHERE id = ${imports.companyId})`,
  authorName: sql<string | null>`(SELECT name FROM users WHERE id = ${imports.authorId})`,
  storageKey: sql<string | null>`(SELECT storage_key FROM docs WHERE id = ${imports.docId})`,
  /** Running, but its worker died (takeover pending): see jobs-kit. */
  stalled: sql<boolean>`${sql.raw(stalledSql('imports', LOCK_IMPORT))}`,
};

export function createImportsRepo(db: Db) {
  return {
    async insert(v: typeof imports.$inferInsert, tx: Db = db): Promise<number> {
      const [r] = await tx.insert(imports).values(v).returning({ id: imports.id });
      if (!r) throw new Error('import insert returned nothing');
      return r.id;
    },

    async find(id: number, tx: Db = db): Promise<ImportRow | undefined> {
      const [r] = await tx
        .select({ ...getTableColumns(imports), ...withNames })
        .from(imports)
        .where(eq(imports.id, id))
        .limit(1);
      return r as ImportRow | undefined;
    },

    async list(where: SQL, limit: number, offset: number): Promise<{ rows: ImportRow[]; total: number }> {
      const rows = await db
        .select({ ...getTableColumns(imports), ...withNames })
        .from(imports)
        .where(where)
        .orderBy(desc(imports.createdAt), desc(imports.id))
        .limit(limit)
        .offset(offset);
      const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(imports).where(where);
      return { rows: rows as ImportRow[], total: c?.n ?? 0 };
    },

    async update(id: number, set: Partial<typeof imports.$inferInsert>, tx: Db = db): Promise<void> {
      await tx
        .update(imports)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(imports.id, id));
    },

    async companyExists(id: number): Promise<boolean> {
      return (await db.execute(sql`SELECT 1 FROM companies WHERE id = ${id}`)).rows.length > 0;
    },

    async insertDoc(v: typeof docs.$inferInsert, tx: Db = db): Promise<number> {
      const [d] = await tx.insert(docs).values(v).returning({ id: docs.id });
      if (!d) throw new Error('doc insert returned nothing');
      return d.id;
    },

    /** Stores row errors (up to `room` of them) in the job's transaction. */
    async insertErrors(client: pg.PoolClient, importId: number, errors: RowError[]): Promise<void> {
      if (!errors.length) return;
      await client.query(
        `INSERT INTO import_row_errors (import_id, row, "column", value, message)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
        [
          importId,
          errors.map((e) => e.row),
          errors.map((e) => e.column),
          errors.map((e) => (e.value == null ? null : e.value.slice(0, 1000))),
          errors.map((e) => e.message),
        ],
      );
    },

    /** Row errors in file order, a page at a time (keyset on id). */
    async errorsAfter(importId: number, afterId: number, limit: number) {
      return (
        await db.execute(
          sql`SELECT id, row, "column", value, message FROM import_row_errors WHERE import_id = ${importId} AND id > ${afterId} ORDER BY id LIMIT ${limit}`,
        )
      ).rows as { id: number; row: number; column: string | null; value: string | null; message: string }[];
    },
  };
}
export type ImportsRepo = ReturnType<typeof createImportsRepo>;
