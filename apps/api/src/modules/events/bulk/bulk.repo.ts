/* SQL of the bulk operations: the jobs table and the events a list filter selects. No permission checks here. */
import { and, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { LOCK_BULK, stalledSql } from '../../../db/jobs-kit';
import { eventBulkJobs } from '../../../db/schema/index';
import { rowsOf } from '../../../db/sql';

export type BulkJobRow = typeof eventBulkJobs.$inferSelect & { stalled: boolean };
export type NewBulkJob = typeof eventBulkJobs.$inferInsert;
type BulkJobChange = Partial<Omit<NewBulkJob, 'id'>>;

const withStalled = {
  ...getTableColumns(eventBulkJobs),
  stalled: sql<boolean>`${sql.raw(stalledSql('event_bulk_jobs', LOCK_BULK))}`,
};

export function createBulkRepo(db: Db) {
  return {
    /** How many events the WHERE selects (over `events e`) and the newest of them. */
    async countAndMax(where: SQL, tx: Db = db): Promise<{ total: number; maxId: number }> {
      const [r] = await rowsOf<{ total: number; max_id: string }>(
        tx,
        sql`SELECT count(*)::int AS total, coalesce(max(e.id), 0)::bigint AS max_id FROM events e WHERE ${where}`,
      );
      return { total: r?.total ?? 0, maxId: Number(r?.max_id ?? 0) };
    },

    /** The next chunk of a job, locked: ids after `cursor` up to `maxId`, in id order. */
    async nextIds(where: SQL, cursor: number, maxId: number, limit: number, tx: Db): Promise<number[]> {
      const rows = await rowsOf<{ id: string | number }>(
        tx,
        sql`SELECT e.id FROM events e WHERE ${where} AND e.id > ${cursor} AND e.id <= ${maxId} ORDER BY e.id LIMIT ${limit} FOR UPDATE OF e`,
      );
      return rows.map((r) => Number(r.id));
    },

    async insert(v: NewBulkJob, tx: Db = db): Promise<number> {
      const [r] = await tx.insert(eventBulkJobs).values(v).returning({ id: eventBulkJobs.id });
      return r?.id as number;
    },

    async find(id: number, tx: Db = db): Promise<BulkJobRow | undefined> {
      const [r] = await tx.select(withStalled).from(eventBulkJobs).where(eq(eventBulkJobs.id, id));
      return r;
    },

    /** A job of `module` started by this user through this key (null: signed in). */
    async findOwn(id: number, module: string, userId: number, keyId: number | null): Promise<BulkJobRow | undefined> {
      const [r] = await db
        .select(withStalled)
        .from(eventBulkJobs)
        .where(
          and(
            eq(eventBulkJobs.id, id),
            eq(eventBulkJobs.module, module),
            eq(eventBulkJobs.authorId, userId),
            sql`${eventBulkJobs.authorKeyId} IS NOT DISTINCT FROM ${keyId}::int`,
          ),
        );
      return r;
    },

    /** The job's status, locked (a chunk commits only while its job is still running). */
    async statusForUpdate(id: number, tx: Db): Promise<string | undefined> {
      const [r] = await tx
        .select({ status: eventBulkJobs.status })
        .from(eventBulkJobs)
        .where(eq(eventBulkJobs.id, id))
        .for('update');
      return r?.status;
    },

    async update(id: number, v: BulkJobChange, tx: Db = db): Promise<void> {
      await tx
        .update(eventBulkJobs)
        .set({ ...v, updatedAt: new Date() })
        .where(eq(eventBulkJobs.id, id));
    },

    /** Marks a queued or running job failed. */
    async fail(id: number, message: string): Promise<void> {
      await db
        .update(eventBulkJobs)
        .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(eventBulkJobs.id, id), inArray(eventBulkJobs.status, ['queued', 'running'])));
    },

    /** Finished jobs are kept for a month (their changes stay in the events' history and the audit log). */
    async dropOld(): Promise<void> {
      await db.execute(
        sql`DELETE FROM event_bulk_jobs WHERE status IN ('done', 'failed') AND finished_at < now() - interval '30 days'`,
      );
    },
  };
}
export type BulkRepo = ReturnType<typeof createBulkRepo>;
