/*
 * SQL of domain snapshots: the event to check, the recorded snapshot (by the producer or a collector),
 * an event's snapshot history, the throttle and the sweep.
 */
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { domainSnapshots, eventHistory, events } from '../../db/schema/index';
import { rowsOf } from '../../db/sql';

export type SnapshotRow = typeof domainSnapshots.$inferSelect;

/** What a check records (the probe's result, the screenshot document and the reason of a failure). */
export interface SnapshotValues {
  eventId: number;
  /** When it was taken (a collector's own time, ISO 8601); absent = now. */
  takenAt?: string;
  screenshotDocId: number | null;
  ip: string | null;
  httpStatus: number | null;
  pageTitle: string | null;
  finalUrl: string | null;
  error: string | null;
}

export function createSnapshotsRepo(db: Db) {
  return {
    /** The event to check, with its host (`domain_punycode`, else `domain`), when it is one of `modules`. */
    async target(eventId: number, modules: string[], tx: Db = db) {
      const [ev] = await tx
        .select({
          id: events.id,
          company_id: events.companyId,
          host: sql<string | null>`COALESCE(${events.data}->>'domain_punycode', ${events.data}->>'domain')`,
        })
        .from(events)
        .where(and(eq(events.id, eventId), inArray(events.module, modules)))
        .limit(1);
      return ev;
    },

    /** Records a snapshot (taken now unless `takenAt`), unless the event was deleted meanwhile (then null). */
    async record(v: SnapshotValues, tx: Db = db): Promise<number | null> {
      const [row] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO domain_snapshots (event_id, taken_at, screenshot_doc_id, ip, http_status, page_title, final_url, error)
            SELECT ${v.eventId}, COALESCE(${v.takenAt ?? null}::timestamptz, now()), ${v.screenshotDocId}, ${v.ip}, ${v.httpStatus}, ${v.pageTitle}, ${v.finalUrl}, ${v.error}
            WHERE EXISTS (SELECT 1 FROM events WHERE id = ${v.eventId})
            RETURNING id`,
      );
      return row ? Number(row.id) : null;
    },

    /** The event's snapshots, newest first (at most 500). */
    async history(eventId: number, tx: Db = db): Promise<SnapshotRow[]> {
      return tx
        .select()
        .from(domainSnapshots)
        .where(eq(domainSnapshots.eventId, eventId))
        .orderBy(desc(domainSnapshots.takenAt), desc(domainSnapshots.id))
        .limit(500);
    },

    /** Was a manual check of the event queued in the last `seconds` (the `recheck` action's history entry)? */
    async recheckedWithin(eventId: number, seconds: number, tx: Db = db): Promise<boolean> {
      const [r] = await tx
        .select({ id: eventHistory.id })
        .from(eventHistory)
        .where(
          and(
            eq(eventHistory.eventId, eventId),
            eq(eventHistory.action, 'action'),
            eq(eventHistory.field, 'recheck'),
            sql`${eventHistory.after}->>'snapshot_queued' = 'true'`,
            gt(eventHistory.at, sql`now() - make_interval(secs => ${seconds})`),
          ),
        )
        .limit(1);
      return r !== undefined;
    },

    /** Events of `modules` created in the last `minutes` without a snapshot, newest first. */
    async unsnapped(modules: string[], minutes: number, limit: number, tx: Db = db): Promise<number[]> {
      const rows = await tx
        .select({ id: events.id })
        .from(events)
        .where(
          and(
            inArray(events.module, modules),
            gt(events.createdAt, sql`now() - make_interval(mins => ${minutes})`),
            sql`NOT EXISTS (SELECT 1 FROM domain_snapshots s WHERE s.event_id = ${events.id})`,
          ),
        )
        .orderBy(desc(events.createdAt))
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}
export type SnapshotsRepo = ReturnType<typeof createSnapshotsRepo>;
