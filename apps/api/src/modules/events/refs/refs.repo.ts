/* SQL of the event reference data: statuses, priorities and decisions per module, and the editable lists seeded once. */
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { eventDecisions, eventPriorities, eventStatuses, leakTypes, mediaTypes } from '../../../db/schema/index';
import { createSeeds } from '../../../db/seeds';

export type NewStatus = typeof eventStatuses.$inferInsert;
export type NewPriority = typeof eventPriorities.$inferInsert;
export type NewDecision = typeof eventDecisions.$inferInsert;
export type NewLeakType = typeof leakTypes.$inferInsert;
export type NewMediaType = typeof mediaTypes.$inferInsert;

export function createRefsRepo(db: Db) {
  return {
    /** Upserts by (module, code); a row that did not change is not written. */
    async upsertStatuses(rows: NewStatus[], tx: Db = db): Promise<void> {
      if (!rows.length) return;
      await tx
        .insert(eventStatuses)
        .values(rows)
        .onConflictDoUpdate({
          target: [eventStatuses.module, eventStatuses.code],
          set: {
            name: sql`excluded.name`,
            sort: sql`excluded.sort`,
            isFinal: sql`excluded.is_final`,
            color: sql`excluded.color`,
          },
          setWhere: sql`(${eventStatuses.name}, ${eventStatuses.sort}, ${eventStatuses.isFinal}, ${eventStatuses.color}) IS DISTINCT FROM (excluded.name, excluded.sort, excluded.is_final, excluded.color)`,
        });
    },

    async upsertPriorities(rows: NewPriority[], tx: Db = db): Promise<void> {
      if (!rows.length) return;
      await tx
        .insert(eventPriorities)
        .values(rows)
        .onConflictDoUpdate({
          target: [eventPriorities.module, eventPriorities.code],
          set: { name: sql`excluded.name`, level: sql`excluded.level`, color: sql`excluded.color` },
          setWhere: sql`(${eventPriorities.name}, ${eventPriorities.level}, ${eventPriorities.color}) IS DISTINCT FROM (excluded.name, excluded.level, excluded.color)`,
        });
    },

    async upsertDecisions(rows: NewDecision[], tx: Db = db): Promise<void> {
      if (!rows.length) return;
      await tx
        .insert(eventDecisions)
        .values(rows)
        .onConflictDoUpdate({
          target: [eventDecisions.module, eventDecisions.code],
          set: { name: sql`excluded.name`, sort: sql`excluded.sort` },
          setWhere: sql`(${eventDecisions.name}, ${eventDecisions.sort}) IS DISTINCT FROM (excluded.name, excluded.sort)`,
        });
    },

    /** Records the seed `name`; false when it was recorded before (the seeding is done). */
    markSeeded: createSeeds(db).mark,

    async insertLeakTypes(rows: NewLeakType[], tx: Db = db): Promise<void> {
      if (rows.length) await tx.insert(leakTypes).values(rows).onConflictDoNothing();
    },

    async insertMediaTypes(rows: NewMediaType[], tx: Db = db): Promise<void> {
      if (rows.length) await tx.insert(mediaTypes).values(rows).onConflictDoNothing();
    },

    /** Every status, priority and decision, in the order the lists show them. */
    async all(tx: Db = db) {
      const [statuses, priorities, decisions] = await Promise.all([
        tx.select().from(eventStatuses).orderBy(asc(eventStatuses.module), asc(eventStatuses.sort)),
        tx.select().from(eventPriorities).orderBy(asc(eventPriorities.module), asc(eventPriorities.level)),
        tx.select().from(eventDecisions).orderBy(asc(eventDecisions.module), asc(eventDecisions.sort)),
      ]);
      return { statuses, priorities, decisions };
    },
  };
}
export type RefsRepo = ReturnType<typeof createRefsRepo>;
