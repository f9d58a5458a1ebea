/*
 * SQL of imports: the import rows (upload → queued → running → done/failed), their row errors and
 * the stored file's doc. No permission checks here: the service passes who sees what.
 */
import { type AnyColumn, and, desc, eq, getTableColumns, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { LOCK_IMPORT, stalledSql } from '../../db/jobs-kit';
import { docs, importRowErrors, importSpans, imports } from '../../db/schema/index';
import { rowsOf } from '../../db/sql';
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

/** Which imports of a target a caller sees (the service decides; the repository only filters). */
export interface ImportsFilter {
  module: string;
  /** Companies whose imports are visible ('all': every import of the module). */
  companies: 'all' | number[];
  /** Also this user's own imports that have no company yet (null: none). */
  authorWithoutCompany: number | null;
  /** Only this company's. */
  companyId?: number;
}

function whereOf(f: ImportsFilter): SQL | undefined {
  const ofScope = f.companies === 'all' ? undefined : f.companies.length ? inArray(imports.companyId, f.companies) : sql`false`;
  const mine =
    f.authorWithoutCompany === null ? undefined : and(isNull(imports.companyId), eq(imports.authorId, f.authorWithoutCompany));
  return and(
    eq(imports.module, f.module),
    ofScope && mine ? or(ofScope, mine) : ofScope,
    f.companyId === undefined ? undefined : eq(imports.companyId, f.companyId),
  );
}

/** What a committed batch adds to an import's counters. */
export interface BatchCounts {
  /** The cursor after the batch (its span folded in; unchanged when the batch lies past a gap). */
  cursor: number;
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: number;
}

const plus = (column: AnyColumn, n: number) => sql`${column} + ${n}`;

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
      return r;
    },

    async list(filter: ImportsFilter, limit: number, offset: number): Promise<{ rows: ImportRow[]; total: number }> {
      const where = whereOf(filter);
      const rows = await db
        .select({ ...getTableColumns(imports), ...withNames })
        .from(imports)
        .where(where)
        .orderBy(desc(imports.createdAt), desc(imports.id))
        .limit(limit)
        .offset(offset);
      const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(imports).where(where);
      return { rows, total: c?.n ?? 0 };
    },

    async update(id: number, set: Partial<typeof imports.$inferInsert>, tx: Db = db): Promise<void> {
      await tx
        .update(imports)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(imports.id, id));
    },

    /** Marks a queued or running import failed (one that finished or is gone stays as it is). */
    async fail(id: number, message: string, tx: Db = db): Promise<void> {
      await tx
        .update(imports)
        .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(imports.id, id), inArray(imports.status, ['queued', 'running'])));
    },

    /** Marks a running import done. */
    async done(id: number, tx: Db = db): Promise<void> {
      await tx
        .update(imports)
        .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date(), message: null })
        .where(and(eq(imports.id, id), eq(imports.status, 'running')));
    },

    /** Queues an uploaded import with its settings; false when it is no longer `uploaded`. */
    async queue(
      id: number,
      v: Pick<typeof imports.$inferInsert, 'mapping' | 'mode' | 'companyId' | 'scope'>,
      tx: Db = db,
    ): Promise<boolean> {
      const r = await tx
        .update(imports)
        .set({ ...v, status: 'queued', updatedAt: new Date() })
        .where(and(eq(imports.id, id), eq(imports.status, 'uploaded')))
        .returning({ id: imports.id });
      return r.length > 0;
    },

    /** Waits until no job runs the import (its job lock), holding that lock until the transaction ends. */
    async waitForJob(id: number, tx: Db): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_IMPORT}::int, ${id}::int)`);
    },

    /** The import's status, its row locked until the transaction ends (undefined: no such import). */
    async lockStatus(id: number, tx: Db): Promise<ImportRow['status'] | undefined> {
      const [r] = await tx.select({ status: imports.status }).from(imports).where(eq(imports.id, id)).for('update');
      return r?.status;
    },

    /**
     * The batch's transaction commits without waiting for the WAL flush: a commit lost in a server crash
     * loses the batch and its cursor together, and the retry redoes it. (The final `done` commits
     * synchronously, which flushes all the batches before it.)
     */
    async deferFlush(tx: Db): Promise<void> {
      await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    },

    /**
     * The import's progress with its row locked until the transaction ends: the last step of a
     * batch's transaction (the batches write in parallel and meet only here). Undefined: no such import.
     */
    async lockProgress(id: number, tx: Db) {
      const [r] = await tx
        .select({ status: imports.status, cursor: imports.cursor, errorsCount: imports.errorsCount })
        .from(imports)
        .where(eq(imports.id, id))
        // Not FOR UPDATE: that would wait on the key-share locks a batch's own inserts into tables
        // referencing the import (catalogue links) take, and two batches would deadlock.
        .for('no key update');
      return r;
    },

    /** Whether the batch of rows (from, to] already committed (a retry after a commit whose answer was lost). */
    async spanCommitted(id: number, span: { from: number; to: number }, tx: Db = db): Promise<boolean> {
      const [r] = await rowsOf<{ done: boolean }>(
        tx,
        sql`SELECT (SELECT cursor FROM imports WHERE id = ${id}) >= ${span.to}
                OR EXISTS (SELECT 1 FROM ${importSpans} WHERE import_id = ${id} AND from_row = ${span.from}) AS done`,
      );
      return r?.done === true;
    },

    /** The heartbeat of a running import; false when it is no longer running (deleted, stopped). */
    async touchRunning(id: number): Promise<boolean> {
      const r = await db
        .update(imports)
        .set({ heartbeatAt: sql`now()` })
        .where(and(eq(imports.id, id), eq(imports.status, 'running')))
        .returning({ id: imports.id });
      return r.length > 0;
    },

    /** The batches committed past the cursor, in file order (a resumed job skips their rows). */
    spans(id: number, tx: Db = db) {
      return tx
        .select({ from: importSpans.fromRow, to: importSpans.toRow })
        .from(importSpans)
        .where(eq(importSpans.importId, id))
        .orderBy(importSpans.fromRow);
    },

    /**
     * Records the committed batch of rows (from, to] — under the lock of `lockProgress` — and returns
     * the new cursor: a batch that starts at the cursor moves it past itself and past every recorded
     * span that follows without a gap (those spans are deleted); any other batch is recorded as a span.
     */
    async foldSpan(id: number, cursor: number, span: { from: number; to: number }, tx: Db): Promise<number> {
      if (span.from !== cursor) {
        await tx.insert(importSpans).values({ importId: id, fromRow: span.from, toRow: span.to });
        return cursor;
      }
      let at = span.to;
      for (;;) {
        const [next] = await tx
          .delete(importSpans)
          .where(and(eq(importSpans.importId, id), eq(importSpans.fromRow, at)))
          .returning({ to: importSpans.toRow });
        if (!next) return at;
        at = next.to;
      }
    },

    /** Adds a committed batch to the counters and moves the cursor. */
    async advance(id: number, c: BatchCounts, tx: Db): Promise<void> {
      await tx
        .update(imports)
        .set({
          cursor: c.cursor,
          rowsRead: plus(imports.rowsRead, c.rows),
          created: plus(imports.created, c.created),
          updated: plus(imports.updated, c.updated),
          skipped: plus(imports.skipped, c.skipped),
          failed: plus(imports.failed, c.failed),
          errorsCount: plus(imports.errorsCount, c.errors),
          heartbeatAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(imports.id, id));
    },

    /** Deletes an import and its file's doc (its row errors and catalogue links go with it). */
    async remove(id: number, docId: number | null, tx: Db = db): Promise<void> {
      await tx.delete(imports).where(eq(imports.id, id));
      if (docId) await tx.delete(docs).where(eq(docs.id, docId));
    },

    /**
     * Marks an import undone: it stays in the history with its counters and the message; its row
     * errors and its file's doc go (there is nothing left to download).
     */
    async markUndone(id: number, docId: number | null, message: string, tx: Db = db): Promise<void> {
      await tx.delete(importRowErrors).where(eq(importRowErrors.importId, id));
      await tx
        .update(imports)
        .set({ status: 'undone', message, docId: null, errorsCount: 0, updatedAt: sql`now()` })
        .where(eq(imports.id, id));
      if (docId) await tx.delete(docs).where(eq(docs.id, docId));
    },

    async insertDoc(v: typeof docs.$inferInsert, tx: Db = db): Promise<number> {
      const [d] = await tx.insert(docs).values(v).returning({ id: docs.id });
      if (!d) throw new Error('doc insert returned nothing');
      return d.id;
    },

    async setDocCompany(docId: number, companyId: number | null, tx: Db = db): Promise<void> {
      await tx.update(docs).set({ companyId, updatedAt: new Date() }).where(eq(docs.id, docId));
    },

    /** Stores row errors in the job's transaction (one statement, however many). */
    async insertErrors(importId: number, errors: RowError[], tx: Db): Promise<void> {
      if (!errors.length) return;
      const col = (f: (e: RowError) => unknown) => sql.param(errors.map(f));
      await tx.execute(
        sql`INSERT INTO ${importRowErrors} (import_id, row, "column", value, message)
            SELECT ${importId}::int, * FROM unnest(${col((e) => e.row)}::int[], ${col((e) => e.column)}::text[],
                                                   ${col((e) => (e.value == null ? null : e.value.slice(0, 1000)))}::text[],
                                                   ${col((e) => e.message)}::text[])`,
      );
    },

    /** Row errors in file order, a page at a time (keyset on row, then id). */
    errorsAfter(importId: number, after: { row: number; id: number }, limit: number) {
      return db
        .select({
          id: importRowErrors.id,
          row: importRowErrors.row,
          column: importRowErrors.column,
          value: importRowErrors.value,
          message: importRowErrors.message,
        })
        .from(importRowErrors)
        .where(
          and(
            eq(importRowErrors.importId, importId),
            sql`(${importRowErrors.row}, ${importRowErrors.id}) > (${after.row}::int, ${after.id}::bigint)`,
          ),
        )
        .orderBy(importRowErrors.row, importRowErrors.id)
        .limit(limit);
    },

    /** Uploads never started, older than a week (a page of them). */
    abandoned(limit: number) {
      return db
        .select({ id: imports.id, docId: imports.docId, storageKey: docs.storageKey })
        .from(imports)
        .leftJoin(docs, eq(docs.id, imports.docId))
        .where(and(eq(imports.status, 'uploaded'), lt(imports.createdAt, sql`now() - interval '7 days'`)))
        .limit(limit);
    },

    /** Drops an abandoned upload and its doc; false when it was started meanwhile (then both stay). */
    async dropUploaded(id: number, docId: number | null, tx: Db = db): Promise<boolean> {
      const gone = await tx
        .delete(imports)
        .where(and(eq(imports.id, id), eq(imports.status, 'uploaded')))
        .returning({ id: imports.id });
      if (!gone.length) return false;
      if (docId) await tx.delete(docs).where(eq(docs.id, docId));
      return true;
    },
  };
}
export type ImportsRepo = ReturnType<typeof createImportsRepo>;
