/* SQL of the discovery runs: the run rows, their progress, the due companies of the schedule. */
import type { RunIssues, RunTrigger } from '@forpost/contract/discovery';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, discoveryAssets, discoveryRuns, users } from '../../db/schema/index';

export type RunRow = typeof discoveryRuns.$inferSelect & { companyName: string; createdByName: string | null };
export interface RunProgress {
  candidates?: number;
  resolved: number;
  registered: number;
  newEvents: number;
  errors: number;
  /** Why names went unchecked (replaces the stored value when given). */
  issues?: RunIssues;
}

/** A run whose worker has not written for this long is considered interrupted. */
export const STALE_SECONDS = 300;
/** A run asked to stop this long ago, silent as long, has no worker left to end it. */
export const CANCEL_STALE_SECONDS = 60;

export function createRunsRepo(db: Db) {
  const select = (tx: Db) =>
    tx
      .select({
        run: discoveryRuns,
        companyName: companies.name,
        createdByName: users.name,
      })
      .from(discoveryRuns)
      .innerJoin(companies, eq(companies.id, discoveryRuns.companyId))
      .leftJoin(users, eq(users.id, discoveryRuns.createdBy));
  const flat = (r: { run: typeof discoveryRuns.$inferSelect; companyName: string; createdByName: string | null }): RunRow => ({
    ...r.run,
    companyName: r.companyName,
    createdByName: r.createdByName,
  });

  return {
    /** A new queued run; null when the company already has an unfinished one. */
    async insert(v: { companyId: number; trigger: RunTrigger; createdBy: number | null }, tx: Db = db): Promise<number | null> {
      const rows = await tx
        .insert(discoveryRuns)
        .values(v)
        .onConflictDoNothing({ target: discoveryRuns.companyId, where: sql`status IN ('queued', 'running')` })
        .returning({ id: discoveryRuns.id });
      return rows[0]?.id ?? null;
    },

    async setJob(id: number, jobId: string | null, tx: Db = db) {
      await tx.update(discoveryRuns).set({ jobId }).where(eq(discoveryRuns.id, id));
    },

    async list(scope: 'all' | number[], q: { page: number; page_size: number; companyId?: number }) {
      const where = and(
        scope === 'all' ? undefined : inArray(discoveryRuns.companyId, scope.length ? scope : [-1]),
        q.companyId !== undefined ? eq(discoveryRuns.companyId, q.companyId) : undefined,
      );
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(discoveryRuns).where(where);
      const rows = await select(db)
        .where(where)
        .orderBy(desc(discoveryRuns.createdAt), desc(discoveryRuns.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { rows: rows.map(flat), total: n };
    },

    async find(id: number, tx: Db = db): Promise<RunRow | undefined> {
      const [r] = await select(tx).where(eq(discoveryRuns.id, id)).limit(1);
      return r ? flat(r) : undefined;
    },

    /**
     * Takes a run for this worker: a queued one, or a running one whose worker went silent (a retried
     * job after a crash). Null when it is finished or another worker holds it.
     */
    async claim(id: number): Promise<RunRow | undefined> {
      const [r] = await db
        .update(discoveryRuns)
        .set({ status: 'running', startedAt: sql`coalesce(${discoveryRuns.startedAt}, now())`, heartbeatAt: sql`now()` })
        .where(
          and(
            eq(discoveryRuns.id, id),
            sql`(${discoveryRuns.status} = 'queued' OR (${discoveryRuns.status} = 'running' AND ${discoveryRuns.cancelRequestedAt} IS NULL AND ${discoveryRuns.heartbeatAt} < now() - make_interval(secs => ${STALE_SECONDS})))`,
          ),
        )
        .returning({ id: discoveryRuns.id });
      return r ? this.find(r.id) : undefined;
    },

    /**
     * Asks a run to stop: a queued one becomes «cancelled» at once (its job will not claim it), a running
     * one gets `cancel_requested_at` for its worker to see. One statement, so a claim racing it is
     * serialised by the row lock and the CASE sees the claimed row. Undefined when the run has ended.
     */
    async requestCancel(id: number, tx: Db = db): Promise<{ status: RunRow['status'] } | undefined> {
      const [r] = await tx
        .update(discoveryRuns)
        .set({
          cancelRequestedAt: sql`coalesce(${discoveryRuns.cancelRequestedAt}, now())`,
          status: sql`CASE WHEN ${discoveryRuns.status} = 'queued' THEN 'cancelled' ELSE ${discoveryRuns.status} END`,
          finishedAt: sql`CASE WHEN ${discoveryRuns.status} = 'queued' THEN now() ELSE ${discoveryRuns.finishedAt} END`,
        })
        .where(and(eq(discoveryRuns.id, id), inArray(discoveryRuns.status, ['queued', 'running'])))
        .returning({ status: discoveryRuns.status });
      return r;
    },

    /** Whether a stop of the run was asked for (read by its worker between DNS queries). */
    async cancelRequested(id: number): Promise<boolean> {
      const [r] = await db
        .select({ at: discoveryRuns.cancelRequestedAt })
        .from(discoveryRuns)
        .where(eq(discoveryRuns.id, id))
        .limit(1);
      return !r || r.at !== null;
    },

    async progress(id: number, p: RunProgress, tx: Db = db) {
      await tx
        .update(discoveryRuns)
        .set({ ...p, heartbeatAt: sql`now()` })
        .where(eq(discoveryRuns.id, id));
    },

    async finish(id: number, status: 'done' | 'failed' | 'cancelled', error: string | null, tx: Db = db) {
      await tx
        .update(discoveryRuns)
        .set({ status, error, finishedAt: sql`now()`, heartbeatAt: sql`now()` })
        .where(eq(discoveryRuns.id, id));
    },

    /** Queued runs that got no job (queued by an API process without a queue, or a lost send). */
    async unqueued(): Promise<number[]> {
      const rows = await db
        .select({ id: discoveryRuns.id })
        .from(discoveryRuns)
        .where(
          and(
            eq(discoveryRuns.status, 'queued'),
            sql`${discoveryRuns.jobId} IS NULL AND ${discoveryRuns.createdAt} < now() - interval '10 seconds'`,
          ),
        )
        .limit(100);
      return rows.map((r) => r.id);
    },

    /**
     * Runs whose worker went silent are failed with `reason` (their company may run again); one whose stop
     * was asked for ends as «cancelled» with the progress it had saved, and sooner: a live worker would
     * have ended it within seconds.
     */
    async failStale(reason: string): Promise<number> {
      const asked = sql`${discoveryRuns.cancelRequestedAt} IS NOT NULL`;
      const rows = await db
        .update(discoveryRuns)
        .set({
          status: sql`CASE WHEN ${asked} THEN 'cancelled' ELSE 'failed' END`,
          error: sql`CASE WHEN ${asked} THEN NULL ELSE ${reason}::text END`,
          finishedAt: sql`now()`,
        })
        .where(
          and(
            eq(discoveryRuns.status, 'running'),
            sql`(${discoveryRuns.heartbeatAt} < now() - make_interval(secs => ${STALE_SECONDS * 2}) OR (${asked}
              AND ${discoveryRuns.cancelRequestedAt} < now() - make_interval(secs => ${CANCEL_STALE_SECONDS})
              AND ${discoveryRuns.heartbeatAt} < now() - make_interval(secs => ${CANCEL_STALE_SECONDS})))`,
          ),
        )
        .returning({ id: discoveryRuns.id });
      return rows.length;
    },

    /**
     * Active companies with an enabled domain asset whose last run started more than `hours` ago (or
     * never), and none unfinished.
     */
    async dueCompanies(hours: number): Promise<number[]> {
      const last: SQL = sql`(SELECT max(r.created_at) FROM ${discoveryRuns} r WHERE r.company_id = ${companies.id})`;
      const rows = await db
        .selectDistinct({ id: companies.id })
        .from(companies)
        .innerJoin(discoveryAssets, eq(discoveryAssets.companyId, companies.id))
        .where(
          and(
            eq(companies.isActive, true),
            eq(discoveryAssets.enabled, true),
            eq(discoveryAssets.kind, 'domain'),
            sql`(${last} IS NULL OR ${last} < now() - make_interval(hours => ${hours}))`,
          ),
        );
      return rows.map((r) => r.id);
    },
  };
}
export type RunsRepo = ReturnType<typeof createRunsRepo>;
