/*
 * SQL of notification mailings: CRUD, matching events, the delivery ledger and deliveries. No rules
 * and no transactions of its own: the service decides and passes `tx` where statements go together.
 */
import type { MailingFilters } from '@forpost/contract/mailings';
import { and, count, desc, eq, getTableColumns, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, mailingDeliveries, mailings, users } from '../../db/schema/index';
import { and as andAll, containing, intArray, rowsOf, textArray } from '../../db/sql';
import { matching, textQueryOf } from '../events/index';
import type { DigestEvent } from './mailings.render';

/** A mailing with its company, author and delivery statistics. */
export type MailingRow = typeof mailings.$inferSelect & {
  companyName: string | null;
  companyActive: boolean | null;
  createdByName: string | null;
  eventsSent: number;
  eventsPending: number;
  deliveriesSent: number;
  deliveriesFailed: number;
};
export type DeliveryRow = typeof mailingDeliveries.$inferSelect;

/** Conditions on `events e` for a mailing's filters (codes of statuses and priorities are the same in every module). */
function filterSql(companyIds: 'all' | number[], f: MailingFilters): SQL[] {
  const w: SQL[] = [];
  if (companyIds !== 'all')
    w.push(companyIds.length === 1 ? sql`e.company_id = ${companyIds[0]}` : sql`e.company_id = ANY(${intArray(companyIds)})`);
  if (f.modules.length) w.push(sql`e.module = ANY(${textArray(f.modules)})`);
  if (f.statuses.length) w.push(sql`e.status_id IN (SELECT id FROM event_statuses WHERE code = ANY(${textArray(f.statuses)}))`);
  if (f.priorities.length)
    w.push(sql`e.priority_id IN (SELECT id FROM event_priorities WHERE code = ANY(${textArray(f.priorities)}))`);
  if (f.sources.length) w.push(sql`e.source = ANY(${textArray(f.sources)})`);
  if (f.tags.length) w.push(sql`e.tags && ${intArray(f.tags)}`);
  // Filters stored before the assignee existed have none (anyone).
  if (f.assignee === 'none') w.push(sql`e.assignee_id IS NULL`);
  else if (typeof f.assignee === 'number') w.push(sql`e.assignee_id = ${f.assignee}`);
  if (f.text) {
    const t = textQueryOf(f.text);
    // A mailing's words filter the text; a number in them is not an event's number.
    if (t) w.push(matching({ ...t, id: null }));
  }
  return w;
}

const stats = {
  eventsSent: sql<number>`(SELECT coalesce(sum(d.event_count), 0) FROM mailing_deliveries d WHERE d.mailing_id = ${mailings.id} AND d.status = 'sent')::int`,
  eventsPending: sql<number>`((SELECT count(*) FROM mailing_events me LEFT JOIN mailing_deliveries d ON d.id = me.delivery_id
      WHERE me.mailing_id = ${mailings.id} AND (me.delivery_id IS NULL OR d.status IN ('pending', 'sending', 'retry')))
    + (SELECT count(*) FROM mailing_transitions mt LEFT JOIN mailing_deliveries d ON d.id = mt.delivery_id
      WHERE mt.mailing_id = ${mailings.id} AND (mt.delivery_id IS NULL OR d.status IN ('pending', 'sending', 'retry'))))::int`,
  deliveriesSent: sql<number>`(SELECT count(*) FROM mailing_deliveries d WHERE d.mailing_id = ${mailings.id} AND d.status = 'sent')::int`,
  deliveriesFailed: sql<number>`(SELECT count(*) FROM mailing_deliveries d WHERE d.mailing_id = ${mailings.id} AND d.status IN ('failed', 'retry'))::int`,
};
/** A mailing that may send: switched on, and its company (if any) active. */
const mayRun = sql`${mailings.isActive} AND (${mailings.companyId} IS NULL OR ${companies.isActive})`;

/** Advisory lock namespace of a mailing's "decide and create a delivery" step. */
const MAILING_LOCK = 7_320_114;

export function createMailingsRepo(db: Db) {
  const rows = <T>(q: SQL, tx: Db = db): Promise<T[]> => rowsOf<T>(tx, q);
  const selectMailing = (tx: Db) =>
    tx
      .select({
        ...getTableColumns(mailings),
        companyName: companies.name,
        companyActive: companies.isActive,
        createdByName: users.name,
        ...stats,
      })
      .from(mailings)
      .leftJoin(companies, eq(companies.id, mailings.companyId))
      .leftJoin(users, eq(users.id, mailings.createdBy));

  return {
    async list(p: { scope: 'all' | number[]; companyId?: number; q?: string; limit: number; offset: number }) {
      const where = and(
        p.scope === 'all' ? undefined : p.scope.length ? inArray(mailings.companyId, p.scope) : sql`FALSE`,
        p.companyId === undefined ? undefined : eq(mailings.companyId, p.companyId),
        p.q ? ilike(mailings.name, containing(p.q)) : undefined,
      );
      const [items, [total]] = await Promise.all([
        selectMailing(db).where(where).orderBy(desc(mailings.id)).limit(p.limit).offset(p.offset),
        db.select({ n: count() }).from(mailings).where(where),
      ]);
      return { items, total: total?.n ?? 0 };
    },

    async get(id: number, tx: Db = db): Promise<MailingRow | undefined> {
      const [r] = await selectMailing(tx).where(eq(mailings.id, id));
      return r;
    },

    /** Mailings that may send (see `mayRun`). */
    async active(): Promise<MailingRow[]> {
      return selectMailing(db).where(mayRun).orderBy(mailings.id);
    },

    async insert(
      v: Pick<
        typeof mailings.$inferInsert,
        'companyId' | 'name' | 'recipients' | 'filters' | 'params' | 'isActive' | 'createdBy'
      >,
      tx: Db = db,
    ): Promise<number> {
      const [r] = await tx
        .insert(mailings)
        .values({ ...v, startsAt: sql`now()`, collectedUntil: sql`now()` })
        .returning({ id: mailings.id });
      if (!r) throw new Error('mailing insert returned nothing');
      return r.id;
    },

    /**
     * Saves a mailing. `resetSchedule`: the next digest is planned anew; `restart` (switched back on):
     * it matches events from now on, not the ones it missed while off.
     */
    async update(
      id: number,
      v: Pick<typeof mailings.$inferInsert, 'companyId' | 'name' | 'recipients' | 'filters' | 'params' | 'isActive'> & {
        resetSchedule: boolean;
        restart: boolean;
      },
      tx: Db = db,
    ): Promise<void> {
      const { resetSchedule, restart, ...set } = v;
      await tx
        .update(mailings)
        .set({
          ...set,
          ...(resetSchedule && { nextDigestAt: null }),
          ...(restart && { startsAt: sql`now()`, collectedUntil: sql`now()` }),
          updatedAt: sql`now()`,
        })
        .where(eq(mailings.id, id));
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(mailings).where(eq(mailings.id, id));
    },

    async deliveries(mailingId: number, limit: number, offset: number): Promise<{ items: DeliveryRow[]; total: number }> {
      const where = eq(mailingDeliveries.mailingId, mailingId);
      const [items, [total]] = await Promise.all([
        db.select().from(mailingDeliveries).where(where).orderBy(desc(mailingDeliveries.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(mailingDeliveries).where(where),
      ]);
      return { items, total: total?.n ?? 0 };
    },

    /**
     * Events the filters match since `since` (at most `cap` counted) and the latest few; with
     * transitions, the transitions of those kinds that happened to matching events since `since`.
     */
    async preview(companyIds: 'all' | number[], f: MailingFilters, since: Date, cap: number) {
      if (f.transitions.length) {
        const where = andAll([
          sql`wt.at >= ${since.toISOString()}::timestamptz`,
          sql`wt.kind = ANY(${textArray(f.transitions)})`,
          ...filterSql(companyIds, f),
        ]);
        const from = sql`watch_transitions wt JOIN events e ON e.id = wt.event_id`;
        const [counted, sample] = await Promise.all([
          rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ${cap + 1}) s`),
          rows<{ id: number; module: string; title: string; created_at: Date }>(
            sql`SELECT e.id, e.module, e.title, wt.at AS created_at FROM ${from} WHERE ${where} ORDER BY wt.at DESC, wt.id DESC LIMIT 5`,
          ),
        ]);
        return { count: counted[0]?.n ?? 0, sample };
      }
      const where = andAll([sql`e.created_at >= ${since.toISOString()}::timestamptz`, ...filterSql(companyIds, f)]);
      const [counted, sample] = await Promise.all([
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events e WHERE ${where} LIMIT ${cap + 1}) s`),
        rows<{ id: number; module: string; title: string; created_at: Date }>(
          sql`SELECT e.id, e.module, e.title, e.created_at FROM events e WHERE ${where} ORDER BY e.created_at DESC, e.id DESC LIMIT 5`,
        ),
      ]);
      return { count: counted[0]?.n ?? 0, sample };
    },

    /**
     * Adds events of active companies matching `filters`, created from `from` on, to the mailing's
     * ledger (once: the primary key (mailing_id, event_id)), at most `cap`; returns how many.
     */
    async collect(mailingId: number, companyIds: 'all' | number[], filters: MailingFilters, from: Date, cap: number) {
      const where = andAll([
        sql`e.created_at >= ${from.toISOString()}::timestamptz`,
        ...filterSql(companyIds, filters),
        sql`NOT EXISTS (SELECT 1 FROM mailing_events x WHERE x.mailing_id = ${mailingId} AND x.event_id = e.id)`,
      ]);
      const inserted = await rows<{ event_id: number }>(sql`
        INSERT INTO mailing_events (mailing_id, event_id)
        SELECT ${mailingId}, e.id FROM events e JOIN companies c ON c.id = e.company_id AND c.is_active
        WHERE ${where}
        ORDER BY e.id LIMIT ${cap}
        ON CONFLICT DO NOTHING
        RETURNING event_id`);
      return inserted.length;
    },

    /**
     * Adds the watch transitions of the subscribed kinds (`filters.transitions`) that happened from
     * `from` on to events of active companies matching the other filters, to the mailing's transitions
     * ledger (once: the primary key (mailing_id, transition_id)), at most `cap`; returns how many.
     */
    async collectTransitions(mailingId: number, companyIds: 'all' | number[], filters: MailingFilters, from: Date, cap: number) {
      const where = andAll([
        sql`wt.at >= ${from.toISOString()}::timestamptz`,
        sql`wt.kind = ANY(${textArray(filters.transitions)})`,
        ...filterSql(companyIds, filters),
        sql`NOT EXISTS (SELECT 1 FROM mailing_transitions x WHERE x.mailing_id = ${mailingId} AND x.transition_id = wt.id)`,
      ]);
      const inserted = await rows<{ transition_id: number }>(sql`
        INSERT INTO mailing_transitions (mailing_id, transition_id, event_id)
        SELECT ${mailingId}, wt.id, wt.event_id FROM watch_transitions wt
          JOIN events e ON e.id = wt.event_id
          JOIN companies c ON c.id = e.company_id AND c.is_active
        WHERE ${where}
        ORDER BY wt.id LIMIT ${cap}
        ON CONFLICT DO NOTHING
        RETURNING transition_id`);
      return inserted.length;
    },

    /** Events created up to `at` have been matched. */
    async setCollectedUntil(mailingId: number, at: Date): Promise<void> {
      await db.update(mailings).set({ collectedUntil: at }).where(eq(mailings.id, mailingId));
    },

    async pendingCount(mailingId: number): Promise<number> {
      const [r] = await rows<{ n: number }>(
        sql`SELECT ((SELECT count(*) FROM mailing_events WHERE mailing_id = ${mailingId} AND delivery_id IS NULL)
                  + (SELECT count(*) FROM mailing_transitions WHERE mailing_id = ${mailingId} AND delivery_id IS NULL))::int AS n`,
      );
      return r?.n ?? 0;
    },

    async setNextDigest(mailingId: number, at: Date | null, tx: Db = db): Promise<void> {
      await tx.update(mailings).set({ nextDigestAt: at }).where(eq(mailings.id, mailingId));
    },

    /** The mailing's "decide and create a delivery" lock for this transaction; false when another holds it. */
    async tryLock(mailingId: number, tx: Db): Promise<boolean> {
      const [lock] = await rows<{ ok: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${MAILING_LOCK}, ${mailingId}) AS ok`, tx);
      return lock?.ok === true;
    },

    /** A new delivery of the mailing to `recipients`, due now. */
    async insertDelivery(mailingId: number, recipients: string[], tx: Db): Promise<number> {
      const [d] = await tx
        .insert(mailingDeliveries)
        .values({ mailingId, recipients, nextAttemptAt: sql`now()` })
        .returning({ id: mailingDeliveries.id });
      if (!d) throw new Error('delivery insert returned nothing');
      return d.id;
    },

    /**
     * Every waiting ledger row of the mailing (events and transitions) joins the delivery; returns how
     * many, and the delivery counts them.
     */
    async attachWaiting(mailingId: number, deliveryId: number, tx: Db): Promise<number> {
      const attached = await rows<{ event_id: number }>(
        sql`UPDATE mailing_events SET delivery_id = ${deliveryId} WHERE mailing_id = ${mailingId} AND delivery_id IS NULL RETURNING event_id`,
        tx,
      );
      const transitions = await rows<{ transition_id: number }>(
        sql`UPDATE mailing_transitions SET delivery_id = ${deliveryId} WHERE mailing_id = ${mailingId} AND delivery_id IS NULL RETURNING transition_id`,
        tx,
      );
      const n = attached.length + transitions.length;
      if (n) await tx.update(mailingDeliveries).set({ eventCount: n }).where(eq(mailingDeliveries.id, deliveryId));
      return n;
    },

    async removeDelivery(id: number, tx: Db): Promise<void> {
      await tx.delete(mailingDeliveries).where(eq(mailingDeliveries.id, id));
    },

    /**
     * Deliveries to send now: new ones, failed ones whose retry time has come, and ones left "sending"
     * by a worker that died. Marked sending with one more attempt; other workers skip them.
     */
    async claimDue(now: Date, limit = 20): Promise<DeliveryRow[]> {
      const due = sql`(
        SELECT d2.id FROM mailing_deliveries d2
        JOIN mailings m ON m.id = d2.mailing_id
        LEFT JOIN companies c ON c.id = m.company_id
        WHERE m.is_active AND (m.company_id IS NULL OR c.is_active)
          AND (d2.status = 'pending'
            OR (d2.status = 'retry' AND d2.next_attempt_at <= ${now.toISOString()}::timestamptz)
            OR (d2.status = 'sending' AND d2.updated_at < ${new Date(now.getTime() - 10 * 60_000).toISOString()}::timestamptz))
        ORDER BY d2.id LIMIT ${limit}
        FOR UPDATE OF d2 SKIP LOCKED)`;
      return db
        .update(mailingDeliveries)
        .set({ status: 'sending', attempts: sql`${mailingDeliveries.attempts} + 1`, updatedAt: sql`now()` })
        .where(inArray(mailingDeliveries.id, due))
        .returning();
    },

    /**
     * The items of a delivery whose events still exist — new events, and events with the transitions
     * that happened to them (one item per event: its transitions together, the newest time) — the first
     * `limit` by priority, and how many in all.
     */
    async deliveryEvents(deliveryId: number, limit: number): Promise<{ events: DigestEvent[]; total: number }> {
      const items = sql`
          SELECT me.event_id, NULL::text[] AS transition_kinds, NULL::timestamptz AS transition_at, 0::bigint AS transition_id
            FROM mailing_events me WHERE me.delivery_id = ${deliveryId}
          UNION ALL
          SELECT mt.event_id, array_agg(wt.kind ORDER BY wt.id), max(wt.at), max(wt.id)
            FROM mailing_transitions mt JOIN watch_transitions wt ON wt.id = mt.transition_id
           WHERE mt.delivery_id = ${deliveryId}
           GROUP BY mt.event_id`;
      const [events, total] = await Promise.all([
        rows<DigestEvent>(sql`
          SELECT e.id, e.module, e.title, c.name AS company_name, st.name AS status_name, pr.name AS priority_name, pr.level AS priority_level,
                 e.source, e.created_at, e.data, i.transition_kinds[1] AS transition_kind, i.transition_kinds, i.transition_at
          FROM (${items}) i
          JOIN events e ON e.id = i.event_id
          JOIN companies c ON c.id = e.company_id
          LEFT JOIN event_statuses st ON st.id = e.status_id
          LEFT JOIN event_priorities pr ON pr.id = e.priority_id
          ORDER BY pr.level DESC NULLS LAST, coalesce(i.transition_at, e.created_at) DESC, e.id DESC, i.transition_id DESC
          LIMIT ${limit}`),
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM (${items}) i JOIN events e ON e.id = i.event_id`),
      ]);
      return { events, total: total[0]?.n ?? 0 };
    },

    async markSent(
      d: {
        id: number;
        subject: string;
        messageId: string;
        listed: number;
        total: number;
        /** Sent, but with a remark (recipients the server refused). */
        note?: string | null;
      },
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(mailingDeliveries)
        .set({
          status: 'sent',
          sentAt: sql`now()`,
          updatedAt: sql`now()`,
          subject: d.subject,
          messageId: d.messageId,
          listedCount: d.listed,
          eventCount: d.total,
          lastError: d.note ?? null,
          nextAttemptAt: null,
        })
        .where(eq(mailingDeliveries.id, d.id));
    },

    async stampSent(mailingId: number, tx: Db = db): Promise<void> {
      await tx.update(mailings).set({ lastSentAt: sql`now()` }).where(eq(mailings.id, mailingId));
    },

    async markFailed(d: { id: number; subject: string; error: string; retryAt: Date | null }): Promise<void> {
      await db
        .update(mailingDeliveries)
        .set({
          status: d.retryAt ? 'retry' : 'failed',
          updatedAt: sql`now()`,
          subject: d.subject,
          lastError: d.error,
          nextAttemptAt: d.retryAt,
        })
        .where(eq(mailingDeliveries.id, d.id));
    },

    /** Nothing left to send (its events were deleted): closed without an email, and not an error. */
    async markSkipped(d: { id: number; subject: string; note: string }): Promise<void> {
      await db
        .update(mailingDeliveries)
        .set({
          status: 'skipped',
          updatedAt: sql`now()`,
          subject: d.subject,
          eventCount: 0,
          listedCount: 0,
          lastError: d.note,
          nextAttemptAt: null,
        })
        .where(eq(mailingDeliveries.id, d.id));
    },
  };
}
export type MailingsRepo = ReturnType<typeof createMailingsRepo>;
