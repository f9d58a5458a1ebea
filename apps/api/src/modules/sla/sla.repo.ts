/* SQL of SLA: policies, the recompute of open events after a policy change, the breach job's rows. */
import type { SlaPolicyItem } from '@forpost/contract/sla';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { slaPolicies } from '../../db/schema/index';
import { bigArray, intArray, rowsOf } from '../../db/sql';

/** Open events recomputed per statement when a policy changes. */
export const RECOMPUTE_BATCH = 10_000;

export interface BreachRow {
  id: number;
  company_id: number;
  module: string;
  title: string;
  stage: 'triage' | 'resolve';
  assignee_id: number | null;
}

export function createSlaRepo(db: Db) {
  return {
    /** The rows of a company (null: the installation default), by priority. */
    async policies(companyId: number | null, tx: Db = db): Promise<SlaPolicyItem[]> {
      return tx
        .select({
          priority: slaPolicies.priority,
          triage_minutes: slaPolicies.triageMinutes,
          resolve_minutes: slaPolicies.resolveMinutes,
        })
        .from(slaPolicies)
        .where(companyId === null ? isNull(slaPolicies.companyId) : eq(slaPolicies.companyId, companyId))
        .orderBy(asc(slaPolicies.priority)) as Promise<SlaPolicyItem[]>;
    },

    /** Replaces the rows of a company (null: the default); `items: []` removes a company's override. */
    async replace(companyId: number | null, items: readonly SlaPolicyItem[], tx: Db): Promise<void> {
      await tx
        .delete(slaPolicies)
        .where(companyId === null ? isNull(slaPolicies.companyId) : and(eq(slaPolicies.companyId, companyId)));
      if (items.length)
        await tx.insert(slaPolicies).values(
          items.map((i) => ({
            companyId,
            priority: i.priority,
            triageMinutes: i.triage_minutes,
            resolveMinutes: i.resolve_minutes,
          })),
        );
    },

    /**
     * Recomputes the pending deadline of open events (of these companies; 'all' after a default change)
     * with the policies now in force (sla_due, migration 0029), RECOMPUTE_BATCH events per statement
     * walking the primary key; only the events whose deadline changes are written. Returns how many.
     */
    async recompute(companies: number[] | 'all', tx: Db = db): Promise<number> {
      const scope = companies === 'all' ? sql`TRUE` : sql`e.company_id = ANY(${intArray(companies)})`;
      let after = 0;
      let changed = 0;
      for (;;) {
        const [r] = await rowsOf<{ last: number | null; n: number }>(
          tx,
          sql`WITH batch AS (
                SELECT e.id, sla_due(e.company_id, e.priority_id, e.created_at, e.triaged_at, e.resolved_at) AS due
                  FROM events e
                 WHERE e.id > ${after} AND e.resolved_at IS NULL AND ${scope}
                 ORDER BY e.id LIMIT ${RECOMPUTE_BATCH}),
              upd AS (
                UPDATE events e SET sla_due_at = b.due,
                       sla_stage = CASE WHEN b.due IS NULL THEN NULL WHEN e.triaged_at IS NULL THEN 'triage' ELSE 'resolve' END
                  FROM batch b WHERE e.id = b.id AND e.sla_due_at IS DISTINCT FROM b.due
                RETURNING 1)
              SELECT (SELECT max(id) FROM batch)::bigint AS last, (SELECT count(*) FROM upd)::int AS n`,
        );
        changed += r?.n ?? 0;
        if (r?.last == null) return changed;
        after = Number(r.last);
      }
    },

    /**
     * Open events whose pending deadline passed and whose breach of that stage was not notified yet
     * (index events_sla_notify_idx), oldest deadline first, locked (SKIP LOCKED: two workers share them).
     */
    async breaches(limit: number, tx: Db): Promise<BreachRow[]> {
      return rowsOf<BreachRow>(
        tx,
        sql`SELECT e.id, e.company_id, e.module, e.title, e.sla_stage AS stage, e.assignee_id
              FROM events e
             WHERE e.sla_due_at < now() AND e.sla_due_at IS NOT NULL
               AND e.sla_notified_stage IS DISTINCT FROM e.sla_stage
             ORDER BY e.sla_due_at LIMIT ${limit}
             FOR UPDATE SKIP LOCKED`,
      );
    },

    /** Marks the breaches notified (the stage each one was in). */
    async markNotified(ids: number[], tx: Db): Promise<void> {
      if (ids.length) await tx.execute(sql`UPDATE events SET sla_notified_stage = sla_stage WHERE id = ANY(${bigArray(ids)})`);
    },
  };
}
export type SlaRepo = ReturnType<typeof createSlaRepo>;
