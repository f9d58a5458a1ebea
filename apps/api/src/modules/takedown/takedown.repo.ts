/*
 * SQL of takedown requests: the requests, their recipients and log, the company settings, what a
 * draft reads (the event, the watch's last state, the latest screenshot), the follower's reads of the
 * watch (is the domain down, for how many observations), the hourly count per recipient and the figures.
 */
import type { RecipientKind, RecipientStatus, TakedownState, XarfType } from '@forpost/contract/takedown';
import type { WatchState } from '@forpost/contract/watch';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { and, bigArray, containing, intArray, jsonParam, rowsOf } from '../../db/sql';

export interface RequestRow {
  id: number;
  company_id: number;
  company_name: string | null;
  event_id: number;
  domain: string;
  state: TakedownState;
  xarf_type: XarfType;
  comment: string | null;
  registrar: string | null;
  hosting: string | null;
  evidence: Record<string, unknown>;
  previous_id: number | null;
  created_at: Date;
  sent_at: Date | null;
  acknowledged_at: Date | null;
  down_at: Date | null;
  escalated_at: Date | null;
  closed_at: Date | null;
  recipients?: number;
}
export interface RecipientRow {
  id: number;
  request_id: number;
  position: number;
  kind: RecipientKind;
  email: string;
  name: string | null;
  source: string | null;
  status: RecipientStatus;
  message_id: string | null;
  sent_at: Date | null;
  error: string | null;
}
export interface LogRow {
  id: number;
  at: Date;
  action: string;
  from_state: TakedownState | null;
  to_state: TakedownState | null;
  comment: string | null;
  actor: string | null;
}
export interface SettingsRow {
  company_id: number;
  registrar_sla_hours: number;
  hosting_sla_hours: number;
  extra_recipients: { email: string; name: string | null; zone: string | null }[];
}
export interface NewRecipient {
  kind: RecipientKind;
  email: string;
  name: string | null;
  source: string | null;
  status: RecipientStatus;
}
export interface LogEntry {
  requestId: number;
  action: string;
  from: TakedownState | null;
  to: TakedownState | null;
  comment?: string | null;
  userId?: number | null;
  keyId?: number | null;
}

const COLS = sql`r.id, r.company_id, c.name AS company_name, r.event_id, r.domain, r.state, r.xarf_type, r.comment,
  r.registrar, r.hosting, r.evidence, r.previous_id, r.created_at, r.sent_at, r.acknowledged_at, r.down_at,
  r.escalated_at, r.closed_at`;

export function createTakedownRepo(db: Db) {
  return {
    async companyExists(id: number, tx: Db = db) {
      return (await rowsOf<{ id: number }>(tx, sql`SELECT id FROM companies WHERE id = ${id}`)).length > 0;
    },

    async settings(companyId: number, tx: Db = db): Promise<SettingsRow> {
      const [r] = await rowsOf<SettingsRow>(
        tx,
        sql`SELECT company_id, registrar_sla_hours, hosting_sla_hours, extra_recipients FROM takedown_settings WHERE company_id = ${companyId}`,
      );
      return r ?? { company_id: companyId, registrar_sla_hours: 48, hosting_sla_hours: 24, extra_recipients: [] };
    },
    async putSettings(s: SettingsRow, tx: Db = db) {
      await tx.execute(sql`INSERT INTO takedown_settings (company_id, registrar_sla_hours, hosting_sla_hours, extra_recipients, updated_at)
        VALUES (${s.company_id}, ${s.registrar_sla_hours}, ${s.hosting_sla_hours}, ${jsonParam(s.extra_recipients)}::jsonb, now())
        ON CONFLICT (company_id) DO UPDATE SET registrar_sla_hours = EXCLUDED.registrar_sla_hours,
          hosting_sla_hours = EXCLUDED.hosting_sla_hours, extra_recipients = EXCLUDED.extra_recipients, updated_at = now()`);
    },

    /** A domain event as a draft reads it: its company, fields, and the latest screenshot document. */
    async event(id: number, tx: Db = db) {
      const [r] = await rowsOf<{
        id: number;
        company_id: number;
        company_name: string;
        module: string;
        data: Record<string, unknown>;
        created_at: Date;
        shot_doc_id: number | null;
        shot_taken_at: Date | null;
        shot_key: string | null;
        shot_sha256: string | null;
        shot_size: number | null;
        shot_type: string | null;
        shot_ip: string | null;
      }>(
        tx,
        sql`SELECT e.id, e.company_id, c.name AS company_name, e.module, e.data, e.created_at,
              s.screenshot_doc_id AS shot_doc_id, s.taken_at AS shot_taken_at, d.storage_key AS shot_key,
              d.sha256 AS shot_sha256, d.size AS shot_size, d.mimetype AS shot_type, s.ip AS shot_ip
            FROM events e JOIN companies c ON c.id = e.company_id
            LEFT JOIN LATERAL (SELECT * FROM domain_snapshots s WHERE s.event_id = e.id AND s.screenshot_doc_id IS NOT NULL
                               ORDER BY s.taken_at DESC LIMIT 1) s ON TRUE
            LEFT JOIN docs d ON d.id = s.screenshot_doc_id AND d.company_id = e.company_id
            WHERE e.id = ${id}`,
      );
      return r ?? null;
    },

    /** The watch's last state of an event (null: not watched yet). */
    async watchState(eventId: number, tx: Db = db) {
      const [r] = await rowsOf<{ state: WatchState; observed_at: Date | null }>(
        tx,
        sql`SELECT s.state, t.observed_at FROM watch_targets t JOIN watch_states s ON s.id = t.state_id WHERE t.event_id = ${eventId}`,
      );
      return r ?? null;
    },

    /**
     * For the follower: per event, is the domain down now (the watch's `offline` not followed by
     * `came_back`), since when, and how many observations it has been down for (the observations of
     * the states first seen since then).
     */
    async downStatus(eventIds: number[], tx: Db = db) {
      if (!eventIds.length) return new Map<number, { down_since: Date | null; observations: number }>();
      const rows = await rowsOf<{ event_id: number; down_since: Date | null; observations: number }>(
        tx,
        sql`SELECT t.event_id, t.down_since,
              COALESCE((SELECT sum(s.observations)::int FROM watch_states s
                        WHERE s.event_id = t.event_id AND t.down_since IS NOT NULL AND s.first_seen >= t.down_since), 0) AS observations
            FROM watch_targets t WHERE t.event_id = ANY(${bigArray(eventIds)})`,
      );
      return new Map(rows.map((r) => [Number(r.event_id), { down_since: r.down_since, observations: r.observations }]));
    },

    async insertRequest(
      v: {
        companyId: number;
        eventId: number;
        domain: string;
        xarfType: XarfType;
        comment: string | null;
        registrar: string | null;
        hosting: string | null;
        evidence: unknown;
        previousId: number | null;
        createdBy: number | null;
      },
      tx: Db = db,
    ): Promise<number> {
      const [r] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO takedown_requests (company_id, event_id, domain, xarf_type, comment, registrar, hosting, evidence, previous_id, created_by)
            VALUES (${v.companyId}, ${v.eventId}, ${v.domain}, ${v.xarfType}, ${v.comment}, ${v.registrar}, ${v.hosting},
                    ${jsonParam(v.evidence)}::jsonb, ${v.previousId}, ${v.createdBy}) RETURNING id`,
      );
      return Number(r?.id);
    },
    async setRecipients(requestId: number, companyId: number, list: NewRecipient[], tx: Db = db) {
      await tx.execute(
        sql`DELETE FROM takedown_recipients WHERE request_id = ${requestId} AND status IN ('proposed', 'held', 'limited', 'failed')`,
      );
      const [m] = await rowsOf<{ n: number }>(
        tx,
        sql`SELECT COALESCE(max(position), 0)::int AS n FROM takedown_recipients WHERE request_id = ${requestId}`,
      );
      let pos = m?.n ?? 0;
      for (const r of list)
        await tx.execute(sql`INSERT INTO takedown_recipients (request_id, company_id, position, kind, email, name, source, status)
          VALUES (${requestId}, ${companyId}, ${++pos}, ${r.kind}, ${r.email}, ${r.name}, ${r.source}, ${r.status})`);
    },
    async recipients(requestIds: number[], tx: Db = db): Promise<RecipientRow[]> {
      if (!requestIds.length) return [];
      return rowsOf<RecipientRow>(
        tx,
        sql`SELECT id, request_id, position, kind, email, name, source, status, message_id, sent_at, error
            FROM takedown_recipients WHERE request_id = ANY(${bigArray(requestIds)}) ORDER BY request_id, position`,
      );
    },
    async markRecipient(
      id: number,
      v: { status: RecipientStatus; messageId?: string | null; error?: string | null },
      tx: Db = db,
    ) {
      await tx.execute(sql`UPDATE takedown_recipients SET status = ${v.status}, message_id = COALESCE(${v.messageId ?? null}, message_id),
        error = ${v.error ?? null}, sent_at = CASE WHEN ${v.status} = 'sent' THEN now() ELSE sent_at END WHERE id = ${id}`);
    },
    async promoteHeld(requestId: number, tx: Db = db): Promise<number> {
      const r = await rowsOf<{ id: number }>(
        tx,
        sql`UPDATE takedown_recipients SET status = 'proposed' WHERE request_id = ${requestId} AND status = 'held' RETURNING id`,
      );
      return r.length;
    },
    /** Messages sent to an address in the last hour (every company: the abuse desk is one). */
    async sentLastHour(email: string, tx: Db = db): Promise<number> {
      const [r] = await rowsOf<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM takedown_recipients WHERE lower(email) = lower(${email}) AND sent_at > now() - interval '1 hour'`,
      );
      return r?.n ?? 0;
    },

    async get(id: number, tx: Db = db): Promise<RequestRow | null> {
      const [r] = await rowsOf<RequestRow>(
        tx,
        sql`SELECT ${COLS} FROM takedown_requests r LEFT JOIN companies c ON c.id = r.company_id WHERE r.id = ${id}`,
      );
      return r ?? null;
    },
    async lockForUpdate(id: number, tx: Db): Promise<RequestRow | null> {
      const [r] = await rowsOf<RequestRow>(
        tx,
        sql`SELECT ${COLS} FROM takedown_requests r LEFT JOIN companies c ON c.id = r.company_id WHERE r.id = ${id} FOR UPDATE OF r`,
      );
      return r ?? null;
    },
    /** The request of an event that is still being worked on (not closed, rejected or reopened). */
    async openOfEvent(eventId: number, tx: Db = db): Promise<number | null> {
      const [r] = await rowsOf<{ id: number }>(
        tx,
        sql`SELECT id FROM takedown_requests WHERE event_id = ${eventId} AND state NOT IN ('closed', 'rejected', 'reopened') ORDER BY id DESC LIMIT 1`,
      );
      return r ? Number(r.id) : null;
    },
    async list(
      f: { companies: 'all' | number[]; state?: TakedownState; eventId?: number; q?: string; limit: number; offset: number },
      tx: Db = db,
    ): Promise<{ items: RequestRow[]; total: number }> {
      const where: SQL[] = [];
      if (f.companies !== 'all') where.push(sql`r.company_id = ANY(${intArray(f.companies)})`);
      if (f.state) where.push(sql`r.state = ${f.state}`);
      if (f.eventId) where.push(sql`r.event_id = ${f.eventId}`);
      if (f.q)
        where.push(
          sql`(r.domain ILIKE ${containing(f.q)} OR r.registrar ILIKE ${containing(f.q)} OR r.hosting ILIKE ${containing(f.q)})`,
        );
      const items = await rowsOf<RequestRow & { total: number }>(
        tx,
        sql`SELECT ${COLS}, (SELECT count(*)::int FROM takedown_recipients x WHERE x.request_id = r.id) AS recipients,
              count(*) OVER ()::int AS total
            FROM takedown_requests r LEFT JOIN companies c ON c.id = r.company_id
            WHERE ${and(where)} ORDER BY r.id DESC LIMIT ${f.limit} OFFSET ${f.offset}`,
      );
      return { items, total: items[0]?.total ?? 0 };
    },
    async setState(
      id: number,
      state: TakedownState,
      stamp: 'sent_at' | 'acknowledged_at' | 'down_at' | 'escalated_at' | 'closed_at' | null,
      tx: Db = db,
    ) {
      const col = stamp ? sql.raw(stamp) : null;
      await tx.execute(
        col
          ? sql`UPDATE takedown_requests SET state = ${state}, ${col} = now(), updated_at = now() WHERE id = ${id}`
          : sql`UPDATE takedown_requests SET state = ${state}, updated_at = now() WHERE id = ${id}`,
      );
    },
    async log(e: LogEntry, tx: Db = db) {
      await tx.execute(sql`INSERT INTO takedown_log (request_id, actor_user_id, actor_key_id, action, from_state, to_state, comment)
        VALUES (${e.requestId}, ${e.userId ?? null}, ${e.keyId ?? null}, ${e.action}, ${e.from}, ${e.to}, ${e.comment ?? null})`);
    },
    async logOf(requestId: number, tx: Db = db): Promise<LogRow[]> {
      return rowsOf<LogRow>(
        tx,
        sql`SELECT l.id, l.at, l.action, l.from_state, l.to_state, l.comment,
              COALESCE(u.name, u.email, CASE WHEN l.actor_key_id IS NOT NULL THEN 'API-ключ №' || l.actor_key_id END) AS actor
            FROM takedown_log l LEFT JOIN users u ON u.id = l.actor_user_id WHERE l.request_id = ${requestId} ORDER BY l.id`,
      );
    },
    /** Requests the follower looks at: being followed, or down (it may come back). */
    async followed(eventIds: number[] | null, tx: Db = db): Promise<RequestRow[]> {
      return rowsOf<RequestRow>(
        tx,
        sql`SELECT ${COLS} FROM takedown_requests r LEFT JOIN companies c ON c.id = r.company_id
            WHERE r.state IN ('sent', 'acknowledged', 'escalated', 'down')
              ${eventIds ? sql`AND r.event_id = ANY(${bigArray(eventIds)})` : sql``}
            ORDER BY r.id`,
      );
    },
    /** Requests of the scope for the figures (sent or later). */
    async forFigures(companies: 'all' | number[], tx: Db = db) {
      return rowsOf<{
        created_at: Date;
        sent_at: Date | null;
        down_at: Date | null;
        registrar: string | null;
        hosting: string | null;
      }>(
        tx,
        sql`SELECT created_at, sent_at, down_at, registrar, hosting FROM takedown_requests r
            WHERE ${companies === 'all' ? sql`TRUE` : sql`r.company_id = ANY(${intArray(companies)})`}`,
      );
    },
  };
}
export type TakedownRepo = ReturnType<typeof createTakedownRepo>;
