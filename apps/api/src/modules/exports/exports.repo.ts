/*
 * SQL of exports: the `exports` rows, the selection of events an export covers, and the two
 * streaming reads of a run on the job's own connection — `COPY … TO STDOUT` and a read-only cursor
 * (raw node-postgres: Drizzle streams neither; docs/decisions.md, «Слои API»).
 */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../../db/client';
import { LOCK_EXPORT, stalledSql } from '../../db/jobs-kit';
import { dataExports } from '../../db/schema/index';
import { and as andAll, intArray, rowsOf } from '../../db/sql';
import type { ExportRow } from './cells';
import { type ExportQueryParts, exportFrom, inlineParams, NODE_ROW_COLUMNS } from './sql-cells';

export type ExportRowDb = typeof dataExports.$inferSelect;
export type NewExport = typeof dataExports.$inferInsert;
/** A row as the API shows it: with whether its worker died (see jobs-kit). */
export type ExportRowItem = ExportRowDb & { stalled?: boolean };
/** Whose exports: a user's, or (through an API key) that key's only. */
export type ExportOwner = { userId: number; keyId: number | null };

const withStalled = { ...getTableColumns(dataExports), stalled: sql<boolean>`${sql.raw(stalledSql('exports', LOCK_EXPORT))}` };
const ownedBy = (o: ExportOwner) =>
  and(eq(dataExports.userId, o.userId), o.keyId ? eq(dataExports.keyId, o.keyId) : undefined) as SQL;
const dialect = new PgDialect();

export function createExportsRepo(db: Db) {
  return {
    async find(id: number): Promise<ExportRowDb | undefined> {
      const [r] = await db.select().from(dataExports).where(eq(dataExports.id, id)).limit(1);
      return r;
    },

    async findOwn(o: ExportOwner, id: number): Promise<ExportRowItem | undefined> {
      const [r] = await db
        .select(withStalled)
        .from(dataExports)
        .where(and(eq(dataExports.id, id), ownedBy(o)))
        .limit(1);
      return r;
    },

    /** A page of the owner's exports, newest first, and their total. */
    async listOwn(o: ExportOwner, module: string | undefined, limit: number, offset: number) {
      const where = module ? (and(ownedBy(o), eq(dataExports.module, module)) as SQL) : ownedBy(o);
      const rows = await db
        .select(withStalled)
        .from(dataExports)
        .where(where)
        .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
        .limit(limit)
        .offset(offset);
      const [t] = await db.select({ n: sql<number>`count(*)::int` }).from(dataExports).where(where);
      return { rows, total: t?.n ?? 0 };
    },

    async insert(v: NewExport, tx: Db): Promise<number> {
      const [r] = await tx.insert(dataExports).values(v).returning({ id: dataExports.id });
      if (!r) throw new Error('export insert returned nothing');
      return r.id;
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(dataExports).where(eq(dataExports.id, id));
    },

    /** Fails a queued or running export. */
    async fail(id: number, message: string): Promise<void> {
      await db
        .update(dataExports)
        .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(dataExports.id, id), inArray(dataExports.status, ['queued', 'running'])));
    },

    /** A run starts (attempt `attempt`): running, no rows written yet. */
    async start(id: number, attempt: number): Promise<void> {
      await db
        .update(dataExports)
        .set({
          status: 'running',
          attempts: attempt,
          startedAt: new Date(),
          heartbeatAt: new Date(),
          rowsWritten: 0,
          updatedAt: new Date(),
        })
        .where(eq(dataExports.id, id));
    },

    async setTotal(id: number, rowsTotal: number): Promise<void> {
      await db.update(dataExports).set({ rowsTotal }).where(eq(dataExports.id, id));
    },

    /** Progress and liveness: false when the export was deleted meanwhile. */
    async progress(id: number, written: number): Promise<boolean> {
      const still = await db
        .update(dataExports)
        .set({ rowsWritten: written, heartbeatAt: new Date() })
        .where(eq(dataExports.id, id))
        .returning({ id: dataExports.id });
      return still.length > 0;
    },

    /** A running export is done with its stored file; false when it was not running any more. */
    async finish(id: number, v: { storageKey: string; size: number; rowsWritten: number }): Promise<boolean> {
      const done = await db
        .update(dataExports)
        .set({ ...v, status: 'done', finishedAt: new Date(), updatedAt: new Date(), message: null })
        .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running')))
        .returning({ id: dataExports.id });
      return done.length > 0;
    },

    /** Deletes finished exports older than `before`; returns their stored files. */
    async deleteFinishedBefore(before: Date): Promise<{ id: number; key: string | null }[]> {
      return db
        .delete(dataExports)
        .where(
          sql`coalesce(${dataExports.finishedAt}, ${dataExports.createdAt}) < ${before} AND ${dataExports.status} NOT IN ('queued', 'running')`,
        )
        .returning({ id: dataExports.id, key: dataExports.storageKey });
    },

    /** The events an export covers: its module, its companies (null: every company) and the list's filters. */
    selection(m: ModuleDescriptor, scope: number[] | null, filters: SQL[]): SQL {
      const conds: SQL[] = [sql`e.module = ${m.code}`];
      if (scope) conds.push(sql`e.company_id = ANY(${intArray(scope)})`);
      return andAll([...conds, ...filters]);
    },

    async count(where: SQL): Promise<number> {
      const [r] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM events e WHERE ${where}`);
      return r?.n ?? 0;
    },

    /** id → name of a reference table (tags, leak types, media types, leaks). */
    async names(table: 'tags' | 'leak_types' | 'media_types' | 'leaks'): Promise<Map<number, string>> {
      const rows = await rowsOf<{ id: number; name: string }>(db, sql`SELECT id, name FROM ${sql.identifier(table)}`);
      return new Map(rows.map((x) => [x.id, x.name]));
    },

    /** The FROM … WHERE and ORDER BY of a COPY, rendered with literals (COPY takes no bind parameters). */
    copyParts(where: SQL, order: SQL): ExportQueryParts {
      const fromWhere = dialect.sqlToQuery(sql`${sql.raw(exportFrom)} WHERE ${where}`);
      const ordered = dialect.sqlToQuery(order);
      return { fromWhere: inlineParams(fromWhere.sql, fromWhere.params), order: inlineParams(ordered.sql, ordered.params) };
    },

    /**
     * `COPY (…) TO STDOUT` of `text` on the job's connection, and its cancel (from another connection
     * of the pool: the job's own is busy streaming).
     */
    async copyOut(client: pg.PoolClient, pool: pg.Pool, text: string) {
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      const stream = client.query(copyTo(text));
      const cancel = () =>
        pool.query('SELECT pg_cancel_backend($1)', [pid]).then(
          () => undefined,
          () => undefined,
        );
      return { stream, cancel };
    },

    /**
     * The rows of `where` in `order` for the Node path, read through a cursor in a read-only snapshot
     * on the job's connection: `next()` gives the next page (empty at the end), `close(ok)` commits or
     * rolls back.
     */
    async openCursor(client: pg.PoolClient, where: SQL, order: SQL, pageSize: number) {
      const query = dialect.sqlToQuery(sql`
        SELECT ${sql.raw(NODE_ROW_COLUMNS)} ${sql.raw(exportFrom)}
         WHERE ${where} ORDER BY ${order}`);
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${query.sql}`, query.params);
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      return {
        next: async (): Promise<ExportRow[]> => (await client.query<ExportRow>(`FETCH ${pageSize} FROM export_rows`)).rows,
        close: async (ok: boolean): Promise<void> => {
          if (ok) await client.query('COMMIT');
          else await client.query('ROLLBACK').catch(() => undefined);
        },
      };
    },
  };
}
export type ExportsRepo = ReturnType<typeof createExportsRepo>;
