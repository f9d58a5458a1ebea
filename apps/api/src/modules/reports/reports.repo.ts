/* SQL of reports: the list, the render queue, and the figures a report shows. */
import type { ReportSendStatus, ReportStatus } from '@forpost/contract/reports';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { and, intArray, rowsOf, textArray } from '../../db/sql';

export interface ReportRow {
  id: number;
  company_id: number;
  company_name: string;
  name: string;
  period_from: string;
  period_to: string;
  modules: string[];
  summary: string | null;
  status: ReportStatus;
  error: string | null;
  attempts: number;
  doc_id: number | null;
  size: number | null;
  storage_key: string | null;
  created_by: number | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  generated_at: Date | null;
  last_sent_at: Date | null;
  /** The latest send (null columns when the report was never sent). */
  send_id: number | null;
  send_status: ReportSendRow['status'] | null;
  send_recipients: string[] | null;
  send_attempts: number | null;
  send_error: string | null;
  send_created_at: Date | null;
  send_sent_at: Date | null;
}

export interface ReportSendRow {
  id: number;
  report_id: number;
  recipients: string[];
  status: ReportSendStatus;
  attempts: number;
  error: string | null;
  message_id: string | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
}

/** A domain snapshot's screenshot of one of the report's events (its latest one). */
export interface ReportScreenshotRow {
  id: number;
  module: string;
  title: string;
  page_title: string | null;
  taken_at: Date;
  storage_key: string;
  mimetype: string;
}

export interface ReportEventRow {
  id: number;
  module: string;
  title: string;
  status_name: string | null;
  status_final: boolean | null;
  priority_name: string | null;
  priority_level: number | null;
  created_at: Date;
}

const SELECT_REPORT = sql`
  SELECT r.id, r.company_id, c.name AS company_name, r.name, to_char(r.period_from, 'YYYY-MM-DD') AS period_from,
         to_char(r.period_to, 'YYYY-MM-DD') AS period_to, r.modules, r.summary, r.status, r.error, r.attempts, r.doc_id, d.size, d.storage_key,
         r.created_by, u.name AS created_by_name, r.created_at, r.updated_at, r.generated_at, r.last_sent_at,
         ls.id AS send_id, ls.status AS send_status, ls.recipients AS send_recipients, ls.attempts AS send_attempts,
         ls.error AS send_error, ls.created_at AS send_created_at, ls.sent_at AS send_sent_at
  FROM reports r
  JOIN companies c ON c.id = r.company_id
  LEFT JOIN docs d ON d.id = r.doc_id
  LEFT JOIN users u ON u.id = r.created_by
  LEFT JOIN LATERAL (
    SELECT s.id::int AS id, s.status, s.recipients, s.attempts, s.error, s.created_at, s.sent_at
    FROM report_sends s WHERE s.report_id = r.id ORDER BY s.id DESC LIMIT 1
  ) ls ON TRUE`;

/** The columns of a `ReportSendRow`. */
const SEND_COLUMNS = sql.raw(
  'id::int AS id, report_id, recipients, status, attempts, error, message_id, created_by, created_at, updated_at, sent_at',
);

/** A send stuck in `sending` this long (its worker died mid-send) may be taken again. */
const SENDING_STALE = sql`interval '10 minutes'`;

export function createReportsRepo(db: Db) {
  /** Events of the report's company, modules and period (`from`/`to` are instants). */
  const scope = (companyId: number, modules: string[], from: Date, to: Date) =>
    sql`e.company_id = ${companyId} AND e.module = ANY(${textArray(modules)}) AND e.created_at >= ${from.toISOString()}::timestamptz AND e.created_at < ${to.toISOString()}::timestamptz`;

  return {
    async list(p: { scope: 'all' | number[]; companyId?: number; status?: string; limit: number; offset: number }) {
      const w: SQL[] = [];
      if (p.scope !== 'all') w.push(p.scope.length ? sql`r.company_id = ANY(${intArray(p.scope)})` : sql`FALSE`);
      if (p.companyId !== undefined) w.push(sql`r.company_id = ${p.companyId}`);
      if (p.status) w.push(sql`r.status = ${p.status}`);
      const where = and(w);
      const [items, total] = await Promise.all([
        rowsOf<ReportRow>(db, sql`${SELECT_REPORT} WHERE ${where} ORDER BY r.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`),
        rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM reports r WHERE ${where}`),
      ]);
      return { items, total: total[0]?.n ?? 0 };
    },

    async get(id: number): Promise<ReportRow | undefined> {
      const [r] = await rowsOf<ReportRow>(db, sql`${SELECT_REPORT} WHERE r.id = ${id}`);
      return r;
    },

    async insert(
      v: {
        companyId: number;
        name: string;
        from: string;
        to: string;
        modules: string[];
        summary: string | null;
        createdBy: number | null;
      },
      tx: Db = db,
    ): Promise<number> {
      const [r] = await rowsOf<{ id: number }>(
        tx,
        sql`
        INSERT INTO reports (company_id, name, period_from, period_to, modules, summary, created_by)
        VALUES (${v.companyId}, ${v.name}, ${v.from}::date, ${v.to}::date, ${textArray(v.modules)}, ${v.summary}, ${v.createdBy})
        RETURNING id`,
      );
      if (!r) throw new Error('report insert returned nothing');
      return r.id;
    },

    async requeue(id: number, tx: Db = db): Promise<void> {
      await tx.execute(
        sql`UPDATE reports SET status = 'queued', error = NULL, attempts = 0, updated_at = now() WHERE id = ${id}`,
      );
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.execute(sql`DELETE FROM reports WHERE id = ${id}`);
    },

    /** Takes a report for rendering (any state but ready; a second worker gets nothing). */
    async claim(id: number): Promise<boolean> {
      const r = await rowsOf(
        db,
        sql`
        UPDATE reports SET status = 'rendering', attempts = attempts + 1, updated_at = now()
        WHERE id = ${id} AND (status IN ('queued', 'failed') OR (status = 'rendering' AND updated_at < now() - interval '10 minutes'))
        RETURNING id`,
      );
      return r.length > 0;
    },

    /** Reports waiting longer than `olderThan` (their job was lost, or sent before pg-boss was up). */
    async stale(olderThan: Date): Promise<number[]> {
      const r = await rowsOf<{ id: number }>(
        db,
        sql`
        SELECT id FROM reports WHERE (status = 'queued' AND updated_at < ${olderThan.toISOString()}::timestamptz)
           OR (status = 'rendering' AND updated_at < now() - interval '10 minutes')
        ORDER BY id LIMIT 20`,
      );
      return r.map((x) => x.id);
    },

    /** The report's current document and its storage key, the report row locked. */
    async lockDoc(id: number, tx: Db): Promise<{ doc_id: number | null; storage_key: string | null } | undefined> {
      const [r] = await rowsOf<{ doc_id: number | null; storage_key: string | null }>(
        tx,
        sql`SELECT r.doc_id, d.storage_key FROM reports r LEFT JOIN docs d ON d.id = r.doc_id WHERE r.id = ${id} FOR UPDATE OF r`,
      );
      return r;
    },

    /** Ready with this rendered document. */
    async ready(id: number, docId: number, tx: Db = db): Promise<void> {
      await tx.execute(
        sql`UPDATE reports SET status = 'ready', doc_id = ${docId}, error = NULL, generated_at = now(), updated_at = now() WHERE id = ${id}`,
      );
    },

    async failed(id: number, error: string, final: boolean): Promise<void> {
      await db.execute(
        sql`UPDATE reports SET status = ${final ? 'failed' : 'queued'}, error = ${error}, updated_at = now() WHERE id = ${id}`,
      );
    },

    /* --- sends by email ----------------------------------------------------------------- */

    /** Locks the report row (two identical send requests cannot both insert); false when it is gone. */
    async lock(id: number, tx: Db): Promise<boolean> {
      return (await rowsOf(tx, sql`SELECT id FROM reports WHERE id = ${id} FOR UPDATE`)).length > 0;
    },

    /** The latest send of the report to exactly these recipients that is still queued or being sent. */
    async pendingSend(reportId: number, recipients: string[], tx: Db = db): Promise<ReportSendRow | undefined> {
      const [r] = await rowsOf<ReportSendRow>(
        tx,
        sql`SELECT ${SEND_COLUMNS}
            FROM report_sends WHERE report_id = ${reportId} AND status IN ('queued', 'sending') AND recipients = ${textArray(recipients)}
            ORDER BY id DESC LIMIT 1`,
      );
      return r;
    },

    async insertSend(
      v: { reportId: number; recipients: string[]; createdBy: number | null },
      tx: Db = db,
    ): Promise<ReportSendRow> {
      const [row] = await rowsOf<ReportSendRow>(
        tx,
        sql`INSERT INTO report_sends (report_id, recipients, created_by) VALUES (${v.reportId}, ${textArray(v.recipients)}, ${v.createdBy})
            RETURNING ${SEND_COLUMNS}`,
      );
      if (!row) throw new Error('report send insert returned nothing');
      return row;
    },

    /**
     * Compare-and-set: takes a queued send for one attempt — only while it has attempts left. A
     * second worker, a duplicate job or a sent/failed row gets nothing (null) — the same row is never
     * mailed twice by two workers at once, and never again once sent. A row that may not be taken
     * again ends failed instead (`'failed'`): a queued row out of attempts (keeping its last reason),
     * or one stuck in `sending` (its worker died mid-attempt, perhaps after the server took the
     * message: sending it again could mail it twice — `stalled` is the reason).
     */
    async claimSend(id: number, maxAttempts: number, stalled: string): Promise<ReportSendRow | 'failed' | null> {
      const [r] = await rowsOf<ReportSendRow>(
        db,
        sql`
        UPDATE report_sends SET status = 'sending', attempts = attempts + 1, updated_at = now()
        WHERE id = ${id} AND status = 'queued' AND attempts < ${maxAttempts}
        RETURNING ${SEND_COLUMNS}`,
      );
      if (r) return r;
      const ended = await rowsOf(
        db,
        sql`
        UPDATE report_sends
        SET status = 'failed', updated_at = now(), error = CASE WHEN status = 'sending' THEN ${stalled} ELSE error END
        WHERE id = ${id} AND ((status = 'queued' AND attempts >= ${maxAttempts})
           OR (status = 'sending' AND updated_at < now() - ${SENDING_STALE}))
        RETURNING id`,
      );
      return ended.length ? 'failed' : null;
    },

    /** The send went out (`note`: addresses the server refused while accepting the rest, else null). */
    async sendSent(id: number, messageId: string, note: string | null, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        UPDATE report_sends SET status = 'sent', sent_at = now(), updated_at = now(), error = ${note}, message_id = ${messageId}
        WHERE id = ${id} AND status = 'sending'`);
    },

    async markSent(reportId: number, tx: Db = db): Promise<void> {
      await tx.execute(sql`UPDATE reports SET last_sent_at = now() WHERE id = ${reportId}`);
    },

    /** A failed attempt: back to `queued` for the next retry, or `failed` for good. */
    async sendFailed(id: number, error: string, final: boolean): Promise<void> {
      await db.execute(sql`
        UPDATE report_sends SET status = ${final ? 'failed' : 'queued'}, error = ${error}, updated_at = now()
        WHERE id = ${id} AND status = 'sending'`);
    },

    /** Sends whose job was lost: queued longer than `olderThan` (past any retry backoff), or stuck sending. */
    async staleSends(olderThan: Date): Promise<number[]> {
      const r = await rowsOf<{ id: number }>(
        db,
        sql`
        SELECT id::int AS id FROM report_sends
        WHERE (status = 'queued' AND updated_at < ${olderThan.toISOString()}::timestamptz)
           OR (status = 'sending' AND updated_at < now() - ${SENDING_STALE})
        ORDER BY id LIMIT 20`,
      );
      return r.map((x) => x.id);
    },

    async exists(id: number): Promise<boolean> {
      return (await rowsOf(db, sql`SELECT 1 FROM reports WHERE id = ${id}`)).length > 0;
    },

    /* --- figures ------------------------------------------------------------------------- */

    async topCritical(companyId: number, modules: string[], from: Date, to: Date, limit: number): Promise<ReportEventRow[]> {
      return rowsOf<ReportEventRow>(
        db,
        sql`
        SELECT e.id, e.module, e.title, st.name AS status_name, st.is_final AS status_final, p.name AS priority_name, p.level AS priority_level, e.created_at
        FROM events e
        JOIN event_priorities p ON p.id = e.priority_id AND p.code = 'critical'
        LEFT JOIN event_statuses st ON st.id = e.status_id
        WHERE ${scope(companyId, modules, from, to)}
        ORDER BY st.is_final ASC NULLS FIRST, e.created_at DESC, e.id DESC
        LIMIT ${limit}`,
      );
    },

    async topOfModule(companyId: number, module: string, from: Date, to: Date, limit: number): Promise<ReportEventRow[]> {
      return rowsOf<ReportEventRow>(
        db,
        sql`
        SELECT e.id, e.module, e.title, st.name AS status_name, st.is_final AS status_final, p.name AS priority_name, p.level AS priority_level, e.created_at
        FROM events e
        LEFT JOIN event_priorities p ON p.id = e.priority_id
        LEFT JOIN event_statuses st ON st.id = e.status_id
        WHERE ${scope(companyId, [module], from, to)}
        ORDER BY p.level DESC NULLS LAST, e.created_at DESC, e.id DESC
        LIMIT ${limit}`,
      );
    },

    /**
     * The latest screenshot (a domain snapshot's PNG/JPEG of the company, at most `maxBytes`) of the
     * period's most important events that have one: highest priority first, then the latest.
     */
    async screenshots(
      companyId: number,
      modules: string[],
      from: Date,
      to: Date,
      limit: number,
      maxBytes: number,
    ): Promise<ReportScreenshotRow[]> {
      return rowsOf<ReportScreenshotRow>(
        db,
        sql`
        SELECT x.id, x.module, x.title, x.page_title, x.taken_at, x.storage_key, x.mimetype FROM (
          SELECT DISTINCT ON (e.id) e.id, e.module, e.title, e.created_at, p.level, s.page_title, s.taken_at, d.storage_key, d.mimetype
          FROM events e
          JOIN domain_snapshots s ON s.event_id = e.id
          JOIN docs d ON d.id = s.screenshot_doc_id AND d.company_id = e.company_id
          LEFT JOIN event_priorities p ON p.id = e.priority_id
          WHERE ${scope(companyId, modules, from, to)} AND d.mimetype IN ('image/png', 'image/jpeg') AND d.size <= ${maxBytes}
          ORDER BY e.id, s.taken_at DESC, s.id DESC
        ) x
        ORDER BY x.level DESC NULLS LAST, x.created_at DESC, x.id DESC
        LIMIT ${limit}`,
      );
    },

    /**
     * Time to resolve, per module: from creation to the first change into a final status (resolved,
     * false positive), for the period's events whose status is final now — the report's «Решено /
     * закрыто» (an event reopened since is not counted; one that came in closed has no such change).
     */
    /** Takedown requests (#32) of the company drafted in the period: the report's «Блокировки». */
    async takedowns(companyId: number, from: Date, to: Date) {
      return rowsOf<{
        created_at: Date;
        sent_at: Date | null;
        down_at: Date | null;
        registrar: string | null;
        hosting: string | null;
      }>(
        db,
        sql`SELECT created_at, sent_at, down_at, registrar, hosting FROM takedown_requests
            WHERE company_id = ${companyId} AND created_at >= ${from} AND created_at < ${to}`,
      );
    },
    async timeToResolve(
      companyId: number,
      modules: string[],
      from: Date,
      to: Date,
    ): Promise<{ module: string; n: number; avg_s: number; median_s: number }[]> {
      return rowsOf(
        db,
        sql`
        SELECT e.module, count(*)::int AS n, avg(extract(epoch FROM r.at - e.created_at))::float8 AS avg_s,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.at - e.created_at))::float8 AS median_s
        FROM events e
        JOIN LATERAL (
          SELECT min(h.at) AS at FROM event_history h
          WHERE h.event_id = e.id AND h.field = 'status_id'
            AND jsonb_typeof(h.after) = 'number'
            AND (h.after #>> '{}')::int IN (SELECT id FROM event_statuses WHERE is_final)
        ) r ON r.at IS NOT NULL
        JOIN event_statuses st ON st.id = e.status_id AND st.is_final
        WHERE ${scope(companyId, modules, from, to)}
        GROUP BY e.module`,
      );
    },
  };
}
export type ReportsRepo = ReturnType<typeof createReportsRepo>;
