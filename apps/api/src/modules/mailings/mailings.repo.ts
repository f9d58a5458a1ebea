/* SQL of notification mailings: CRUD, matching events, the delivery ledger and deliveries. */
import type { DeliveryStatus, MailingFilters } from '@forpost/contract/mailings';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { and, containing, intArray, rowsOf, textArray } from '../../db/sql';
import { tsQueryOf } from '../events/events.query';
import type { DigestEvent } from './mailings.render';

export interface MailingRow {
  id: number;
  company_id: number | null;
  company_name: string | null;
  company_active: boolean | null;
  name: string;
  recipients: string[];
  filters: Record<string, unknown>;
  params: Record<string, unknown>;
  is_active: boolean;
  starts_at: Date;
  collected_until: Date | null;
  next_digest_at: Date | null;
  last_sent_at: Date | null;
  created_by: number | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  events_sent: number;
  events_pending: number;
  deliveries_sent: number;
  deliveries_failed: number;
}

export interface DeliveryRow {
  id: number;
  mailing_id: number;
  status: DeliveryStatus;
  attempts: number;
  event_count: number;
  listed_count: number;
  subject: string;
  recipients: string[];
  last_error: string | null;
  message_id: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  sent_at: Date | null;
}

/** Conditions on `events e` for a mailing's filters (codes of statuses and priorities are the same in every module). */
export function filterSql(companies: 'all' | number[], f: MailingFilters): SQL[] {
  const w: SQL[] = [];
  if (companies !== 'all')
    w.push(companies.length === 1 ? sql`e.company_id = ${companies[0]}` : sql`e.company_id = ANY(${intArray(companies)})`);
  if (f.modules.length) w.push(sql`e.module = ANY(${textArray(f.modules)})`);
  if (f.statuses.length) w.push(sql`e.status_id IN (SELECT id FROM event_statuses WHERE code = ANY(${textArray(f.statuses)}))`);
  if (f.priorities.length)
    w.push(sql`e.priority_id IN (SELECT id FROM event_priorities WHERE code = ANY(${textArray(f.priorities)}))`);
  if (f.sources.length) w.push(sql`e.source = ANY(${textArray(f.sources)})`);
  if (f.tags.length) w.push(sql`e.tags && ${intArray(f.tags)}`);
  if (f.text) {
    const ts = tsQueryOf(f.text);
    if (ts) w.push(sql`e.search @@ (${ts})`);
  }
  return w;
}

const SELECT_MAILING = sql`
  SELECT m.id, m.company_id, c.name AS company_name, c.is_active AS company_active, m.name, m.recipients, m.filters, m.params,
         m.is_active, m.starts_at, m.collected_until, m.next_digest_at, m.last_sent_at, m.created_by, u.name AS created_by_name,
         m.created_at, m.updated_at,
         (SELECT coalesce(sum(d.event_count), 0) FROM mailing_deliveries d WHERE d.mailing_id = m.id AND d.status = 'sent')::int AS events_sent,
         (SELECT count(*) FROM mailing_events me LEFT JOIN mailing_deliveries d ON d.id = me.delivery_id
            WHERE me.mailing_id = m.id AND (me.delivery_id IS NULL OR d.status IN ('pending', 'sending', 'retry')))::int AS events_pending,
         (SELECT count(*) FROM mailing_deliveries d WHERE d.mailing_id = m.id AND d.status = 'sent')::int AS deliveries_sent,
         (SELECT count(*) FROM mailing_deliveries d WHERE d.mailing_id = m.id AND d.status IN ('failed', 'retry'))::int AS deliveries_failed
  FROM mailings m
  LEFT JOIN companies c ON c.id = m.company_id
  LEFT JOIN users u ON u.id = m.created_by`;

/** Advisory lock namespace of a mailing's "decide and create a delivery" step. */
const MAILING_LOCK = 7_320_114;

export function createMailingsRepo(db: Db) {
  const rows = <T>(q: SQL, tx: Db = db): Promise<T[]> => rowsOf<T>(tx, q);

  return {
    async list(p: { scope: 'all' | number[]; companyId?: number; q?: string; limit: number; offset: number }) {
      const w: SQL[] = [];
      if (p.scope !== 'all') w.push(p.scope.length ? sql`m.company_id = ANY(${intArray(p.scope)})` : sql`FALSE`);
      if (p.companyId !== undefined) w.push(sql`m.company_id = ${p.companyId}`);
      if (p.q) w.push(sql`m.name ILIKE ${containing(p.q)}`);
      const [items, total] = await Promise.all([
        rows<MailingRow>(sql`${SELECT_MAILING} WHERE ${and(w)} ORDER BY m.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`),
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM mailings m WHERE ${and(w)}`),
      ]);
      return { items, total: total[0]?.n ?? 0 };
    },

    async get(id: number, tx: Db = db): Promise<MailingRow | undefined> {
      const [r] = await rows<MailingRow>(sql`${SELECT_MAILING} WHERE m.id = ${id}`, tx);
      return r;
    },

    async insert(
      v: {
        companyId: number | null;
        name: string;
        recipients: string[];
        filters: MailingFilters;
        params: Record<string, unknown>;
        isActive: boolean;
        createdBy: number | null;
      },
      tx: Db = db,
    ): Promise<number> {
      const [r] = await rows<{ id: number }>(
        sql`
        INSERT INTO mailings (company_id, name, recipients, filters, params, is_active, created_by, starts_at, collected_until)
        VALUES (${v.companyId}, ${v.name}, ${textArray(v.recipients)}, ${JSON.stringify(v.filters)}::jsonb, ${JSON.stringify(v.params)}::jsonb,
                ${v.isActive}, ${v.createdBy}, now(), now())
        RETURNING id`,
        tx,
      );
      if (!r) throw new Error('mailing insert returned nothing');
      return r.id;
    },

    async update(
      id: number,
      v: {
        companyId: number | null;
        name: string;
        recipients: string[];
        filters: unknown;
        params: unknown;
        isActive: boolean;
        resetSchedule: boolean;
        restart: boolean;
      },
      tx: Db = db,
    ): Promise<void> {
      await tx.execute(sql`
        UPDATE mailings SET company_id = ${v.companyId}, name = ${v.name}, recipients = ${textArray(v.recipients)},
          filters = ${JSON.stringify(v.filters)}::jsonb, params = ${JSON.stringify(v.params)}::jsonb, is_active = ${v.isActive},
          next_digest_at = CASE WHEN ${v.resetSchedule} THEN NULL ELSE next_digest_at END,
          starts_at = CASE WHEN ${v.restart} THEN now() ELSE starts_at END,
          collected_until = CASE WHEN ${v.restart} THEN now() ELSE collected_until END,
          updated_at = now()
        WHERE id = ${id}`);
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.execute(sql`DELETE FROM mailings WHERE id = ${id}`);
    },

    async deliveries(mailingId: number, limit: number, offset: number) {
      const [items, total] = await Promise.all([
        rows<DeliveryRow>(
          sql`SELECT * FROM mailing_deliveries WHERE mailing_id = ${mailingId} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
        ),
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM mailing_deliveries WHERE mailing_id = ${mailingId}`),
      ]);
      return { items, total: total[0]?.n ?? 0 };
    },

    /** Events the filters match since `since` (at most `cap` counted) and the latest few. */
    async preview(companies: 'all' | number[], f: MailingFilters, since: Date, cap: number) {
      const where = and([sql`e.created_at >= ${since.toISOString()}::timestamptz`, ...filterSql(companies, f)]);
      const [count, sample] = await Promise.all([
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events e WHERE ${where} LIMIT ${cap + 1}) s`),
        rows<{ id: number; module: string; title: string; created_at: Date }>(
          sql`SELECT e.id, e.module, e.title, e.created_at FROM events e WHERE ${where} ORDER BY e.created_at DESC, e.id DESC LIMIT 5`,
        ),
      ]);
      return { count: count[0]?.n ?? 0, sample };
    },

    /** Mailings that may send: switched on, and their company (if any) active. */
    async active(): Promise<MailingRow[]> {
      return rows<MailingRow>(sql`${SELECT_MAILING} WHERE m.is_active AND (m.company_id IS NULL OR c.is_active) ORDER BY m.id`);
    },

    /**
     * Adds events matching the mailing to its ledger (once: the primary key (mailing_id, event_id)),
     * from a day before the last pass (late commits) but never before the mailing started.
     */
    async collect(m: MailingRow, filters: MailingFilters, now: Date, cap: number): Promise<number> {
      const from = new Date(
        Math.max(
          new Date(m.starts_at).getTime(),
          (m.collected_until ? new Date(m.collected_until).getTime() : now.getTime()) - 86_400_000,
        ),
      );
      const companies: 'all' | number[] = m.company_id == null ? 'all' : [m.company_id];
      const where = and([
        sql`e.created_at >= ${from.toISOString()}::timestamptz`,
        sql`e.created_at >= ${new Date(m.starts_at).toISOString()}::timestamptz`,
        ...filterSql(companies, filters),
        sql`NOT EXISTS (SELECT 1 FROM mailing_events x WHERE x.mailing_id = ${m.id} AND x.event_id = e.id)`,
      ]);
      const inserted = await rows<{ event_id: number }>(sql`
        INSERT INTO mailing_events (mailing_id, event_id)
        SELECT ${m.id}, e.id FROM events e JOIN companies c ON c.id = e.company_id AND c.is_active
        WHERE ${where}
        ORDER BY e.id LIMIT ${cap}
        ON CONFLICT DO NOTHING
        RETURNING event_id`);
      // A capped pass leaves the watermark where it was, so the rest is picked up next time.
      if (inserted.length < cap)
        await db.execute(sql`UPDATE mailings SET collected_until = ${now.toISOString()}::timestamptz WHERE id = ${m.id}`);
      return inserted.length;
    },

    async pendingCount(mailingId: number): Promise<number> {
      const [r] = await rows<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM mailing_events WHERE mailing_id = ${mailingId} AND delivery_id IS NULL`,
      );
      return r?.n ?? 0;
    },

    async setNextDigest(mailingId: number, at: Date | null): Promise<void> {
      await db.execute(
        sql`UPDATE mailings SET next_digest_at = ${at?.toISOString() ?? null}::timestamptz WHERE id = ${mailingId}`,
      );
    },

    /**
     * One delivery with every waiting ledger row of the mailing (under the mailing's lock, so two
     * workers never split or double a digest). Returns null when there was nothing to send.
     */
    async createDelivery(m: MailingRow, nextDigest: Date | null): Promise<{ id: number; count: number } | null> {
      return db.transaction(async (tx) => {
        const [lock] = await rows<{ ok: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${MAILING_LOCK}, ${m.id}) AS ok`, tx);
        if (!lock?.ok) return null;
        const [d] = await rows<{ id: number }>(
          sql`INSERT INTO mailing_deliveries (mailing_id, recipients, next_attempt_at) VALUES (${m.id}, ${textArray(m.recipients)}, now()) RETURNING id`,
          tx,
        );
        if (!d) return null;
        const attached = await rows<{ event_id: number }>(
          sql`UPDATE mailing_events SET delivery_id = ${d.id} WHERE mailing_id = ${m.id} AND delivery_id IS NULL RETURNING event_id`,
          tx,
        );
        if (!attached.length) {
          await tx.execute(sql`DELETE FROM mailing_deliveries WHERE id = ${d.id}`);
          return null;
        }
        await tx.execute(sql`UPDATE mailing_deliveries SET event_count = ${attached.length} WHERE id = ${d.id}`);
        await tx.execute(
          sql`UPDATE mailings SET next_digest_at = ${nextDigest?.toISOString() ?? null}::timestamptz WHERE id = ${m.id}`,
        );
        return { id: d.id, count: attached.length };
      });
    },

    /**
     * Deliveries to send now: new ones, failed ones whose retry time has come, and ones left "sending"
     * by a worker that died. Marked sending with one more attempt; other workers skip them.
     */
    async claimDue(now: Date, limit = 20): Promise<DeliveryRow[]> {
      return rows<DeliveryRow>(sql`
        UPDATE mailing_deliveries d SET status = 'sending', attempts = d.attempts + 1, updated_at = now()
        WHERE d.id IN (
          SELECT d2.id FROM mailing_deliveries d2
          JOIN mailings m ON m.id = d2.mailing_id
          LEFT JOIN companies c ON c.id = m.company_id
          WHERE m.is_active AND (m.company_id IS NULL OR c.is_active)
            AND (d2.status = 'pending'
              OR (d2.status = 'retry' AND d2.next_attempt_at <= ${now.toISOString()}::timestamptz)
              OR (d2.status = 'sending' AND d2.updated_at < ${new Date(now.getTime() - 10 * 60_000).toISOString()}::timestamptz))
          ORDER BY d2.id LIMIT ${limit}
          FOR UPDATE OF d2 SKIP LOCKED
        )
        RETURNING d.*`);
    },

    /** The events of a delivery that still exist: the first `limit` by priority, and how many in all. */
    async deliveryEvents(deliveryId: number, limit: number): Promise<{ events: DigestEvent[]; total: number }> {
      const [events, total] = await Promise.all([
        rows<DigestEvent>(sql`
          SELECT e.id, e.module, e.title, c.name AS company_name, st.name AS status_name, pr.name AS priority_name, pr.level AS priority_level,
                 e.source, e.created_at, e.data
          FROM mailing_events me
          JOIN events e ON e.id = me.event_id
          JOIN companies c ON c.id = e.company_id
          LEFT JOIN event_statuses st ON st.id = e.status_id
          LEFT JOIN event_priorities pr ON pr.id = e.priority_id
          WHERE me.delivery_id = ${deliveryId}
          ORDER BY pr.level DESC NULLS LAST, e.created_at DESC, e.id DESC
          LIMIT ${limit}`),
        rows<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM mailing_events me JOIN events e ON e.id = me.event_id WHERE me.delivery_id = ${deliveryId}`,
        ),
      ]);
      return { events, total: total[0]?.n ?? 0 };
    },

    async markSent(d: {
      id: number;
      mailingId: number;
      subject: string;
      messageId: string;
      listed: number;
      total: number;
      /** Sent, but with a remark (recipients the server refused). */
      note?: string | null;
    }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          UPDATE mailing_deliveries SET status = 'sent', sent_at = now(), updated_at = now(), subject = ${d.subject}, message_id = ${d.messageId},
            listed_count = ${d.listed}, event_count = ${d.total}, last_error = ${d.note ?? null}, next_attempt_at = NULL
          WHERE id = ${d.id}`);
        await tx.execute(sql`UPDATE mailings SET last_sent_at = now() WHERE id = ${d.mailingId}`);
      });
    },

    async markFailed(d: { id: number; subject: string; error: string; retryAt: Date | null }): Promise<void> {
      await db.execute(sql`
        UPDATE mailing_deliveries SET status = ${d.retryAt ? 'retry' : 'failed'}, updated_at = now(), subject = ${d.subject},
          last_error = ${d.error}, next_attempt_at = ${d.retryAt?.toISOString() ?? null}::timestamptz
        WHERE id = ${d.id}`);
    },

    /** Nothing left to send (its events were deleted): closed without an email, and not an error. */
    async markSkipped(d: { id: number; subject: string; note: string }): Promise<void> {
      await db.execute(sql`
        UPDATE mailing_deliveries SET status = 'skipped', updated_at = now(), subject = ${d.subject}, event_count = 0, listed_count = 0,
          last_error = ${d.note}, next_attempt_at = NULL
        WHERE id = ${d.id}`);
    },

    async companies(scope: 'all' | number[]) {
      const w = scope === 'all' ? sql`TRUE` : scope.length ? sql`id = ANY(${intArray(scope)})` : sql`FALSE`;
      return rows<{ id: number; name: string; is_active: boolean }>(
        sql`SELECT id, name, is_active FROM companies WHERE ${w} ORDER BY lower(name)`,
      );
    },
    async tags() {
      return rows<{ id: number; name: string; color: string }>(sql`SELECT id, name, color FROM tags ORDER BY lower(name)`);
    },
    async existingTags(ids: number[]): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const r = await rows<{ id: number }>(sql`SELECT id FROM tags WHERE id = ANY(${intArray(ids)})`);
      return new Set(r.map((x) => x.id));
    },
  };
}
export type MailingsRepo = ReturnType<typeof createMailingsRepo>;
