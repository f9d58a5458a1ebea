/* SQL of the event engine. No permission checks here: the service passes the tenant scope in. */
import type { ModuleCode } from '@forpost/contract/modules';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { searchVector } from './events.query';

export interface EventRow {
  id: number;
  company_id: number;
  module: ModuleCode;
  title: string;
  status_id: number;
  priority_id: number | null;
  decision_id: number | null;
  source: string;
  ml_state: string;
  whitelist_kind: string | null;
  fingerprint: string;
  tags: number[];
  data: Record<string, unknown>;
  detected_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  author_id: number | null;
  author_key_id: number | null;
  import_id: number | null;
  company_name: string;
  author_name: string | null;
  rule_index?: number | null;
}

export interface NewEvent {
  companyId: number;
  module: ModuleCode;
  title: string;
  statusId: number;
  priorityId: number | null;
  decisionId: number | null;
  source: string;
  mlState: string;
  whitelistKind: string | null;
  fingerprint: string;
  tags: number[];
  data: Record<string, unknown>;
  searchText: string;
  detectedAt: string | null;
  authorId: number | null;
  authorKeyId: number | null;
  importId: number | null;
}

export interface HistoryEntry {
  eventId: number;
  actorUserId: number | null;
  actorKeyId: number | null;
  action: 'create' | 'update' | 'action' | 'link' | 'unlink';
  field: string | null;
  before?: unknown;
  after?: unknown;
}

const EVENT_COLUMNS = sql.raw(
  'e.id, e.company_id, e.module, e.title, e.status_id, e.priority_id, e.decision_id, e.source, e.ml_state, e.whitelist_kind, e.fingerprint, e.tags, e.data, e.detected_at, e.created_at, e.updated_at, e.author_id, e.author_key_id, e.import_id',
);
const intArray = (ids: number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;
const bigArray = (ids: number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::bigint[]`;
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

export function createEventsRepo(db: Db) {
  const rows = async <T>(q: SQL, tx: Db = db): Promise<T[]> => (await tx.execute(q)).rows as T[];

  return {
    rows,

    /** One page; the inner query walks an index in `order`, the joins only decorate the page. */
    async list(p: { where: SQL; order: SQL; limit: number; offset: number; ruleCase?: SQL }): Promise<EventRow[]> {
      const rule = p.ruleCase ? sql`, ${p.ruleCase} AS rule_index` : sql``;
      return rows<EventRow>(sql`
        SELECT e.*, c.name AS company_name, u.name AS author_name
        FROM (SELECT ${EVENT_COLUMNS}${rule} FROM events e WHERE ${p.where} ORDER BY ${p.order} LIMIT ${p.limit} OFFSET ${p.offset}) e
        JOIN companies c ON c.id = e.company_id
        LEFT JOIN users u ON u.id = e.author_id
        ORDER BY ${p.order}`);
    },

    /** Exact count up to `cap` (+1 to know it was capped). */
    async countCapped(where: SQL, cap: number): Promise<number> {
      const [r] = await rows<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events e WHERE ${where} LIMIT ${cap + 1}) s`,
      );
      return r?.n ?? 0;
    },

    async statusCounts(where: SQL): Promise<{ status_id: number; count: number }[]> {
      return rows(
        sql`SELECT e.status_id, count(*)::int AS count FROM events e WHERE ${where} GROUP BY e.status_id ORDER BY e.status_id`,
      );
    },

    async findById(module: ModuleCode, id: number, tx: Db = db, forUpdate = false): Promise<EventRow | undefined> {
      const lock = forUpdate ? sql` FOR UPDATE OF e` : sql``;
      const [r] = await rows<EventRow>(
        sql`SELECT ${EVENT_COLUMNS}, c.name AS company_name, u.name AS author_name
            FROM events e JOIN companies c ON c.id = e.company_id LEFT JOIN users u ON u.id = e.author_id
            WHERE e.id = ${id} AND e.module = ${module}${lock}`,
        tx,
      );
      return r;
    },

    /** Rows of these ids in this module, locked (batch operations), in id order. */
    async findByIdsForUpdate(module: ModuleCode, ids: number[], tx: Db): Promise<EventRow[]> {
      return rows<EventRow>(
        sql`SELECT ${EVENT_COLUMNS}, c.name AS company_name, NULL::text AS author_name
            FROM events e JOIN companies c ON c.id = e.company_id
            WHERE e.id = ANY(${bigArray(ids)}) AND e.module = ${module} ORDER BY e.id FOR UPDATE OF e`,
        tx,
      );
    },

    /** Inserts unless the fingerprint exists for the company and module; returns the new id or null. */
    async insert(v: NewEvent, tx: Db = db): Promise<number | null> {
      const [r] = await rows<{ id: number }>(
        sql`INSERT INTO events (company_id, module, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind,
                                fingerprint, tags, data, search, detected_at, author_id, author_key_id, import_id)
            VALUES (${v.companyId}, ${v.module}, ${v.title}, ${v.statusId}, ${v.priorityId}, ${v.decisionId}, ${v.source}, ${v.mlState},
                    ${v.whitelistKind}, ${v.fingerprint}, ${intArray(v.tags)}, ${JSON.stringify(v.data)}::jsonb, ${searchVector(v.searchText)},
                    ${v.detectedAt}::timestamptz, ${v.authorId}, ${v.authorKeyId}, ${v.importId})
            ON CONFLICT (company_id, module, fingerprint) DO NOTHING
            RETURNING id`,
        tx,
      );
      return r?.id ?? null;
    },

    async idByFingerprint(companyId: number, module: ModuleCode, fingerprint: string, tx: Db = db): Promise<number | undefined> {
      const [r] = await rows<{ id: number }>(
        sql`SELECT id FROM events WHERE company_id = ${companyId} AND module = ${module} AND fingerprint = ${fingerprint}`,
        tx,
      );
      return r?.id;
    },

    async update(
      id: number,
      v: {
        title: string;
        statusId: number;
        priorityId: number | null;
        decisionId: number | null;
        source: string;
        mlState: string;
        whitelistKind: string | null;
        fingerprint: string;
        tags: number[];
        data: Record<string, unknown>;
        searchText: string;
        detectedAt: string | null;
      },
      tx: Db,
    ): Promise<void> {
      await tx.execute(sql`
        UPDATE events SET title = ${v.title}, status_id = ${v.statusId}, priority_id = ${v.priorityId}, decision_id = ${v.decisionId},
          source = ${v.source}, ml_state = ${v.mlState}, whitelist_kind = ${v.whitelistKind}, fingerprint = ${v.fingerprint},
          tags = ${intArray(v.tags)}, data = ${JSON.stringify(v.data)}::jsonb, search = ${searchVector(v.searchText)},
          detected_at = ${v.detectedAt}::timestamptz, updated_at = now()
        WHERE id = ${id}`);
    },

    async deleteByIds(ids: number[], tx: Db): Promise<number[]> {
      const r = await rows<{ id: number }>(sql`DELETE FROM events WHERE id = ANY(${bigArray(ids)}) RETURNING id`, tx);
      return r.map((x) => x.id);
    },

    async insertHistory(entries: HistoryEntry[], tx: Db = db): Promise<number[]> {
      if (!entries.length) return [];
      const values = entries.map(
        (h) =>
          sql`(${h.eventId}, ${h.actorUserId}, ${h.actorKeyId}, ${h.action}, ${h.field}, ${json(h.before)}::jsonb, ${json(h.after)}::jsonb)`,
      );
      const r = await rows<{ id: number }>(
        sql`INSERT INTO event_history (event_id, actor_user_id, actor_key_id, action, field, before, after) VALUES ${sql.join(values, sql`, `)} RETURNING id`,
        tx,
      );
      return r.map((x) => x.id);
    },

    async history(eventId: number) {
      return rows<{
        id: number;
        at: Date | string;
        action: HistoryEntry['action'];
        field: string | null;
        before: unknown;
        after: unknown;
        actor_id: number | null;
        actor_name: string | null;
      }>(
        sql`SELECT h.id, h.at, h.action, h.field, h.before, h.after, h.actor_user_id AS actor_id, u.name AS actor_name
            FROM event_history h LEFT JOIN users u ON u.id = h.actor_user_id
            WHERE h.event_id = ${eventId} ORDER BY h.id DESC LIMIT 1000`,
      );
    },

    async commentsCount(eventId: number): Promise<number> {
      const [r] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM event_comments WHERE event_id = ${eventId}`);
      return r?.n ?? 0;
    },

    async attachments(eventId: number) {
      return rows<{ id: number; kind: string; name: string; mimetype: string; size: number; created_at: Date | string }>(
        sql`SELECT id, kind, name, mimetype, size, created_at FROM docs WHERE event_id = ${eventId} ORDER BY id`,
      );
    },

    async docKeysOfEvents(ids: number[], tx: Db): Promise<{ id: number; storage_key: string }[]> {
      return rows(sql`SELECT id, storage_key FROM docs WHERE event_id = ANY(${bigArray(ids)})`, tx);
    },
    async deleteDocs(ids: number[], tx: Db): Promise<void> {
      if (ids.length) await tx.execute(sql`DELETE FROM docs WHERE id = ANY(${intArray(ids)})`);
    },

    async companyExists(id: number): Promise<boolean> {
      return (await rows(sql`SELECT 1 FROM companies WHERE id = ${id}`)).length > 0;
    },

    /** The modules enabled for a company (empty = every module), or null when there is no such company. */
    async companyModules(id: number): Promise<string[] | null> {
      const r = (await rows(sql`SELECT modules FROM companies WHERE id = ${id}`)) as { modules: string[] }[];
      return r[0] ? r[0].modules : null;
    },

    /** Which of these ids exist in a reference table. */
    async existingIds(table: 'tags' | 'media_types' | 'leak_types' | 'leaks', ids: number[]): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const r = await rows<{ id: number }>(sql`SELECT id FROM ${sql.identifier(table)} WHERE id = ANY(${intArray(ids)})`);
      return new Set(r.map((x) => x.id));
    },
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
