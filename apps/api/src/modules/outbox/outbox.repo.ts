/*
 * SQL of the outbox (#33): writing messages with their deliveries in the caller's transaction (one
 * statement per batch: the messages, then one delivery per matching target), claiming due deliveries
 * under a lease (FOR UPDATE SKIP LOCKED: two workers never send one delivery at once), recording
 * attempts in batches, and the targets and delivery logs the API shows.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jsonParam, rowsOf, textArrayLiteral } from '../../db/sql';

export interface OutboxItem {
  /** null: the instance's own message (only instance-wide targets get it). */
  companyId: number | null;
  type: string;
  module?: string | null;
  priorityLevel?: number | null;
  payload: Record<string, unknown>;
}

/** An event-related message: the event row supplies company, module, priority and names. */
export interface EventOutboxItem {
  eventId: number;
  type: string;
  /** The field that changed (status_id, decision_id, priority_id, assignee_id) and its before/after. */
  field?: string | null;
  before?: unknown;
  after?: unknown;
  extra?: Record<string, unknown>;
}

/** The fan-out: a delivery for every enabled target of the message's company (or the instance) that wants it. */
const FAN_OUT = sql`
  INSERT INTO integration_deliveries (target_id, message_id)
  SELECT t.id, m.id FROM m JOIN integration_targets t
    ON t.enabled AND (t.company_id = m.company_id OR t.company_id IS NULL)
   AND (cardinality(t.types) = 0 OR m.type = ANY(t.types))
   AND (cardinality(t.modules) = 0 OR m.module = ANY(t.modules))
   AND (t.min_priority IS NULL OR coalesce(m.priority_level, 0) >= t.min_priority)`;

/** Is any target on for these companies (or the instance)? Messages nobody wants are not written. */
const ANY_TARGET = (company: ReturnType<typeof sql>) =>
  sql`EXISTS (SELECT 1 FROM integration_targets t WHERE t.enabled AND (t.company_id = ${company} OR t.company_id IS NULL))`;

export async function insertOutbox(tx: Db, items: readonly OutboxItem[]): Promise<number> {
  if (!items.length) return 0;
  const col = (f: (i: OutboxItem) => unknown) => sql.param(items.map(f));
  const r = await rowsOf<{ n: number }>(
    tx,
    sql`WITH x AS (
          SELECT * FROM unnest(${col((i) => i.companyId)}::int[], ${col((i) => i.type)}::text[], ${col((i) => i.module ?? null)}::text[],
                               ${col((i) => i.priorityLevel ?? null)}::int[], ${col((i) => jsonParam(i.payload))}::jsonb[])
            AS x(company_id, type, module, priority_level, payload)
        ), m AS (
          INSERT INTO outbox_messages (company_id, type, module, priority_level, payload)
          SELECT company_id, type, module, priority_level, payload FROM x WHERE ${ANY_TARGET(sql`x.company_id`)}
          RETURNING id, company_id, type, module, priority_level
        ), d AS (${FAN_OUT} RETURNING 1)
        SELECT count(*)::int AS n FROM d`,
  );
  return r[0]?.n ?? 0;
}

export async function insertEventOutbox(tx: Db, items: readonly EventOutboxItem[]): Promise<number> {
  if (!items.length) return 0;
  const col = (f: (i: EventOutboxItem) => unknown) => sql.param(items.map(f));
  const idText = (v: unknown) => (typeof v === 'number' ? String(v) : null);
  const r = await rowsOf<{ n: number }>(
    tx,
    sql`WITH x AS (
          SELECT * FROM unnest(${col((i) => i.eventId)}::bigint[], ${col((i) => i.type)}::text[], ${col((i) => i.field ?? null)}::text[],
                               ${col((i) => idText(i.before))}::int[], ${col((i) => idText(i.after))}::int[], ${col((i) => jsonParam(i.extra ?? {}))}::jsonb[])
            AS x(event_id, type, field, before_id, after_id, extra)
        ), m AS (
          INSERT INTO outbox_messages (company_id, type, module, priority_level, payload)
          SELECT e.company_id, x.type, e.module, p.level,
                 jsonb_build_object(
                   'event_id', e.id, 'company_id', e.company_id, 'company', c.name, 'module', e.module, 'title', e.title,
                   'status', CASE WHEN s.id IS NULL THEN NULL ELSE jsonb_build_object('code', s.code, 'name', s.name) END,
                   'priority', CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('code', p.code, 'name', p.name, 'level', p.level) END,
                   'decision', CASE WHEN d.id IS NULL THEN NULL ELSE jsonb_build_object('code', d.code, 'name', d.name) END,
                   'assignee_id', e.assignee_id, 'detected_at', e.detected_at
                 )
                 || CASE WHEN x.field IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('change', jsonb_build_object(
                      'field', x.field, 'before', x.before_id, 'after', x.after_id,
                      'before_name', CASE x.field
                        WHEN 'status_id' THEN (SELECT name FROM event_statuses WHERE id = x.before_id)
                        WHEN 'priority_id' THEN (SELECT name FROM event_priorities WHERE id = x.before_id)
                        WHEN 'decision_id' THEN (SELECT name FROM event_decisions WHERE id = x.before_id)
                        WHEN 'assignee_id' THEN (SELECT name FROM users WHERE id = x.before_id) END,
                      'after_name', CASE x.field
                        WHEN 'status_id' THEN (SELECT name FROM event_statuses WHERE id = x.after_id)
                        WHEN 'priority_id' THEN (SELECT name FROM event_priorities WHERE id = x.after_id)
                        WHEN 'decision_id' THEN (SELECT name FROM event_decisions WHERE id = x.after_id)
                        WHEN 'assignee_id' THEN (SELECT name FROM users WHERE id = x.after_id) END)) END
                 || x.extra
          FROM x JOIN events e ON e.id = x.event_id JOIN companies c ON c.id = e.company_id
          LEFT JOIN event_priorities p ON p.id = e.priority_id
          LEFT JOIN event_statuses s ON s.id = e.status_id
          LEFT JOIN event_decisions d ON d.id = e.decision_id
          WHERE ${ANY_TARGET(sql`e.company_id`)}
          RETURNING id, company_id, type, module, priority_level
        ), d AS (${FAN_OUT} RETURNING 1)
        SELECT count(*)::int AS n FROM d`,
  );
  return r[0]?.n ?? 0;
}

export interface ClaimedDelivery {
  id: number;
  target_id: number;
  attempts: number;
  message_id: number;
  type: string;
  priority_level: number | null;
  payload: Record<string, unknown>;
  created_at: string;
}

export interface TargetRow {
  id: number;
  company_id: number | null;
  company_name: string | null;
  kind: 'webhook' | 'syslog';
  name: string;
  enabled: boolean;
  disabled_reason: string | null;
  types: string[];
  modules: string[];
  min_priority: number | null;
  url: string | null;
  host: string | null;
  port: number | null;
  tls: boolean;
  facility: number;
  secret: string | null;
  previous_secret: string | null;
  previous_until: string | null;
  created_at: string;
  pending: number;
  failed: number;
}

export interface AttemptResult {
  id: number;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: Date | null;
  status: number | null;
  error: string | null;
  ms: number | null;
  response: string | null;
}

const TARGET_COLUMNS = sql`t.id, t.company_id, c.name AS company_name, t.kind, t.name, t.enabled, t.disabled_reason, t.types, t.modules,
  t.min_priority, t.url, t.host, t.port, t.tls, t.facility, t.secret, t.previous_secret, t.previous_until, t.created_at,
  (SELECT count(*)::int FROM integration_deliveries d WHERE d.target_id = t.id AND d.state = 'pending') AS pending,
  (SELECT count(*)::int FROM integration_deliveries d WHERE d.target_id = t.id AND d.state = 'failed') AS failed`;

export function createOutboxRepo(db: Db) {
  return {
    /** Due deliveries of enabled targets not backing off, leased for `leaseSeconds`. */
    async claim(limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
      return rowsOf(
        db,
        sql`WITH c AS (
              SELECT d.id FROM integration_deliveries d JOIN integration_targets t ON t.id = d.target_id
              WHERE d.state = 'pending' AND d.next_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())
                AND t.enabled AND (t.backoff_until IS NULL OR t.backoff_until <= now())
              ORDER BY d.next_at, d.id LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED
            ), u AS (
              UPDATE integration_deliveries d SET lease_until = now() + make_interval(secs => ${leaseSeconds})
              FROM c WHERE d.id = c.id RETURNING d.id, d.target_id, d.attempts, d.message_id
            )
            SELECT u.id::int, u.target_id, u.attempts, u.message_id::int, m.type, m.priority_level, m.payload, m.created_at
            FROM u JOIN outbox_messages m ON m.id = u.message_id ORDER BY u.id`,
      );
    },

    /** The worker's view of targets (no queue counts: the API's list has them). */
    async targetsByIds(ids: number[]): Promise<TargetRow[]> {
      if (!ids.length) return [];
      return rowsOf(
        db,
        sql`SELECT t.id, t.company_id, NULL AS company_name, t.kind, t.name, t.enabled, t.disabled_reason, t.types, t.modules,
                   t.min_priority, t.url, t.host, t.port, t.tls, t.facility, t.secret, t.previous_secret, t.previous_until,
                   t.created_at, 0 AS pending, 0 AS failed
            FROM integration_targets t WHERE t.id = ANY(${`{${ids.join(',')}}`}::int[])`,
      );
    },

    /** Records attempts in one statement; the lease is dropped. */
    async record(results: readonly AttemptResult[]): Promise<void> {
      if (!results.length) return;
      const col = (f: (r: AttemptResult) => unknown) => sql.param(results.map(f));
      await db.execute(
        sql`UPDATE integration_deliveries d SET state = x.state, attempts = x.attempts, next_at = coalesce(x.next_at, d.next_at),
              lease_until = NULL, last_at = now(), last_status = x.status, last_error = x.error, last_ms = x.ms,
              last_response = x.response, delivered_at = CASE WHEN x.state = 'delivered' THEN now() ELSE d.delivered_at END
            FROM unnest(${col((r) => r.id)}::bigint[], ${col((r) => r.state)}::text[], ${col((r) => r.attempts)}::int[],
                        ${col((r) => r.nextAt?.toISOString() ?? null)}::timestamptz[], ${col((r) => r.status)}::int[],
                        ${col((r) => r.error)}::text[], ${col((r) => r.ms)}::int[], ${col((r) => r.response)}::text[])
              AS x(id, state, attempts, next_at, status, error, ms, response)
            WHERE d.id = x.id`,
      );
    },

    /** Leased deliveries given back untried (their target backs off). */
    async release(ids: number[]): Promise<void> {
      if (!ids.length) return;
      await db.execute(
        sql`UPDATE integration_deliveries SET lease_until = NULL WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
      );
    },

    async backoff(targetId: number, until: Date): Promise<void> {
      await db.execute(
        sql`UPDATE integration_targets SET backoff_until = ${until.toISOString()}::timestamptz WHERE id = ${targetId}`,
      );
    },

    async disable(targetId: number, reason: string): Promise<void> {
      await db.execute(
        sql`UPDATE integration_targets SET enabled = false, disabled_reason = ${reason}, updated_at = now() WHERE id = ${targetId}`,
      );
    },

    /** Messages older than `days` with nothing left to send (their deliveries go with them); returns how many. */
    async prune(days: number, limit = 10_000): Promise<number> {
      const r = await rowsOf<{ n: number }>(
        db,
        sql`WITH old AS (
              SELECT m.id FROM outbox_messages m
              WHERE m.created_at < now() - make_interval(days => ${days})
                AND NOT EXISTS (SELECT 1 FROM integration_deliveries d WHERE d.message_id = m.id AND d.state = 'pending')
              LIMIT ${limit}
            ), del AS (DELETE FROM outbox_messages m USING old WHERE m.id = old.id RETURNING 1)
            SELECT count(*)::int AS n FROM del`,
      );
      return r[0]?.n ?? 0;
    },

    // ---- the API's reads and writes ----

    async list(scope: 'all' | number[], companyId?: number): Promise<TargetRow[]> {
      const where =
        scope === 'all'
          ? companyId
            ? sql`t.company_id = ${companyId}`
            : sql`TRUE`
          : sql`t.company_id = ANY(${`{${scope.join(',')}}`}::int[])${companyId ? sql` AND t.company_id = ${companyId}` : sql``}`;
      return rowsOf(
        db,
        sql`SELECT ${TARGET_COLUMNS} FROM integration_targets t LEFT JOIN companies c ON c.id = t.company_id WHERE ${where} ORDER BY t.id`,
      );
    },

    async get(id: number, tx: Db = db): Promise<TargetRow | undefined> {
      const r = await rowsOf<TargetRow>(
        tx,
        sql`SELECT ${TARGET_COLUMNS} FROM integration_targets t LEFT JOIN companies c ON c.id = t.company_id WHERE t.id = ${id}`,
      );
      return r[0];
    },

    async companyExists(id: number): Promise<boolean> {
      return (await rowsOf(db, sql`SELECT 1 FROM companies WHERE id = ${id}`)).length > 0;
    },

    async insert(
      tx: Db,
      v: {
        companyId: number | null;
        kind: 'webhook' | 'syslog';
        name: string;
        types: string[];
        modules: string[];
        minPriority: number | null;
        url?: string | null;
        host?: string | null;
        port?: number | null;
        tls?: boolean;
        facility?: number;
        secret?: string | null;
      },
    ): Promise<number> {
      const r = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO integration_targets (company_id, kind, name, types, modules, min_priority, url, host, port, tls, facility, secret)
            VALUES (${v.companyId}, ${v.kind}, ${v.name}, ${textArrayLiteral(v.types)}::text[], ${textArrayLiteral(v.modules)}::text[],
                    ${v.minPriority}, ${v.url ?? null}, ${v.host ?? null}, ${v.port ?? null}, ${v.tls ?? false}, ${v.facility ?? 16},
                    ${v.secret ?? null})
            RETURNING id`,
      );
      return (r[0] as { id: number }).id;
    },

    async update(
      tx: Db,
      id: number,
      v: Partial<{
        name: string;
        enabled: boolean;
        url: string;
        host: string;
        port: number;
        tls: boolean;
        facility: number;
        types: string[];
        modules: string[];
        min_priority: number | null;
      }>,
    ): Promise<void> {
      const sets = [sql`updated_at = now()`];
      if (v.name !== undefined) sets.push(sql`name = ${v.name}`);
      if (v.enabled !== undefined)
        sets.push(sql`enabled = ${v.enabled}`, ...(v.enabled ? [sql`disabled_reason = NULL`, sql`backoff_until = NULL`] : []));
      if (v.url !== undefined) sets.push(sql`url = ${v.url}`);
      if (v.host !== undefined) sets.push(sql`host = ${v.host}`);
      if (v.port !== undefined) sets.push(sql`port = ${v.port}`);
      if (v.tls !== undefined) sets.push(sql`tls = ${v.tls}`);
      if (v.facility !== undefined) sets.push(sql`facility = ${v.facility}`);
      if (v.types !== undefined) sets.push(sql`types = ${textArrayLiteral(v.types)}::text[]`);
      if (v.modules !== undefined) sets.push(sql`modules = ${textArrayLiteral(v.modules)}::text[]`);
      if (v.min_priority !== undefined) sets.push(sql`min_priority = ${v.min_priority}`);
      await tx.execute(sql`UPDATE integration_targets SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
    },

    async rotate(tx: Db, id: number, secret: string, previousUntil: Date): Promise<void> {
      await tx.execute(
        sql`UPDATE integration_targets SET previous_secret = secret, secret = ${secret},
              previous_until = ${previousUntil.toISOString()}::timestamptz, updated_at = now() WHERE id = ${id}`,
      );
    },

    async remove(tx: Db, id: number): Promise<void> {
      await tx.execute(sql`DELETE FROM integration_targets WHERE id = ${id}`);
    },

    async deliveries(targetId: number, state: string | undefined, limit: number) {
      return rowsOf<{
        id: number;
        message_id: number;
        type: string;
        state: 'pending' | 'delivered' | 'failed';
        attempts: number;
        next_at: string | null;
        last_at: string | null;
        last_status: number | null;
        last_error: string | null;
        last_ms: number | null;
        last_response: string | null;
        payload: Record<string, unknown>;
        priority_level: number | null;
        created_at: string;
      }>(
        db,
        sql`SELECT d.id::int, d.message_id::int, m.type, d.state, d.attempts, d.next_at, d.last_at, d.last_status, d.last_error,
                   d.last_ms, d.last_response, m.payload, m.priority_level, m.created_at
            FROM integration_deliveries d JOIN outbox_messages m ON m.id = d.message_id
            WHERE d.target_id = ${targetId} ${state ? sql`AND d.state = ${state}` : sql``}
            ORDER BY d.id DESC LIMIT ${limit}`,
      );
    },

    /** «Отправить ещё раз»: the delivery is due now again (a delivered one is sent once more with the same id). */
    async resend(tx: Db, targetId: number, deliveryId: number): Promise<boolean> {
      const r = await rowsOf(
        tx,
        sql`UPDATE integration_deliveries SET state = 'pending', attempts = 0, next_at = now(), lease_until = NULL
            WHERE id = ${deliveryId} AND target_id = ${targetId} RETURNING id`,
      );
      return r.length > 0;
    },
  };
}
export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
