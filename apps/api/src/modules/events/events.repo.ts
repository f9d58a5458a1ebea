/* SQL of the event engine. No permission checks here: the service passes the tenant scope in. */
import type { ModuleCode } from '@forpost/contract/modules';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { arrayLiteral, bigArray, intArray, intLiteral, jsonParam, preparedRowsOf, rowsOf, textArrayLiteral } from '../../db/sql';
import { createCompaniesRepo } from '../companies/index';
import { emitEventHistory } from '../outbox/index';
import { searchVector } from './list/events.query';

/**
 * An event as the engine's hand-written page and card queries return it: the `events` columns in
 * snake_case plus the company's and author's names; timestamps are text when read by `db.execute`
 * (docs/decisions.md, «Слои API»), hence `Date | string`.
 */
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
  assignee_id: number | null;
  assignee_name: string | null;
  /** SLA columns (kept by the database trigger; contract sla.ts). */
  sla_due_at: Date | string | null;
  sla_stage: 'triage' | 'resolve' | null;
  triaged_at: Date | string | null;
  resolved_at: Date | string | null;
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
  /** `kind:value` indicators (contract indicatorsOf), sorted. */
  indicators: string[];
  detectedAt: string | null;
  authorId: number | null;
  authorKeyId: number | null;
  importId: number | null;
}

/** What an update of an event writes (a change: see changes.ts). */
export type EventUpdate = Pick<
  NewEvent,
  | 'title'
  | 'statusId'
  | 'priorityId'
  | 'decisionId'
  | 'source'
  | 'mlState'
  | 'whitelistKind'
  | 'fingerprint'
  | 'tags'
  | 'data'
  | 'searchText'
  | 'indicators'
  | 'detectedAt'
>;

export interface HistoryEntry {
  eventId: number;
  actorUserId: number | null;
  actorKeyId: number | null;
  action: 'create' | 'update' | 'action' | 'link' | 'unlink' | 'undo';
  field: string | null;
  before?: unknown;
  after?: unknown;
}

const EVENT_COLUMNS = sql.raw(
  'e.id, e.company_id, e.module, e.title, e.status_id, e.priority_id, e.decision_id, e.source, e.ml_state, e.whitelist_kind, e.fingerprint, e.tags, e.data, e.detected_at, e.created_at, e.updated_at, e.author_id, e.author_key_id, e.import_id, e.assignee_id, e.sla_due_at, e.sla_stage, e.triaged_at, e.resolved_at',
);
/** Rows of the ordered walk of a search page: the page fills within them when 1 row in 100 matches. */
const walkRows = (need: number) => Math.min(10_000, Math.max(2_000, need * 100));
/**
 * Longest walk that counts a search's matches (beyond it, the GIN index counts): ≈ 10 µs a row at
 * 10M events against ≈ 4 µs per match of a GIN bitmap. When it counts the per-status numbers too it
 * saves two bitmaps, not one, and may walk further.
 */
const DENSE_COUNT_ROWS = 8_000;
const DENSE_COUNT_ROWS_WITH_STATUSES = 30_000;

/*
 * The writes of events take many rows in one statement (arrays through unnest): the service writes
 * one, an import a batch of thousands, by the same SQL.
 */

/** Inserts the events whose fingerprint is new for their company and module; returns the ones inserted. */
async function insertEvents(vs: readonly NewEvent[], tx: Db): Promise<{ id: number; company_id: number; fingerprint: string }[]> {
  if (!vs.length) return [];
  const col = (f: (v: NewEvent) => unknown) => sql.param(vs.map(f));
  return rowsOf<{ id: number; company_id: number; fingerprint: string }>(
    tx,
    sql`INSERT INTO events (company_id, module, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind,
                            fingerprint, tags, data, search, detected_at, author_id, author_key_id, import_id, indicators)
        SELECT v.company_id, v.module, v.title, v.status_id, v.priority_id, v.decision_id, v.source, v.ml_state, v.whitelist_kind,
               v.fingerprint, v.tags::int[], v.data::jsonb, ${searchVector(sql`v.search`)}, v.detected_at::timestamptz,
               v.author_id, v.author_key_id, v.import_id, v.indicators::text[]
          FROM unnest(${col((v) => v.companyId)}::int[], ${col((v) => v.module)}::text[], ${col((v) => v.title)}::text[],
                      ${col((v) => v.statusId)}::int[], ${col((v) => v.priorityId)}::int[], ${col((v) => v.decisionId)}::int[],
                      ${col((v) => v.source)}::text[], ${col((v) => v.mlState)}::text[], ${col((v) => v.whitelistKind)}::text[],
                      ${col((v) => v.fingerprint)}::text[], ${col((v) => arrayLiteral(v.tags))}::text[],
                      ${col((v) => JSON.stringify(v.data))}::text[], ${col((v) => v.searchText)}::text[],
                      ${col((v) => v.detectedAt)}::text[], ${col((v) => v.authorId)}::int[], ${col((v) => v.authorKeyId)}::int[],
                      ${col((v) => v.importId)}::int[], ${col((v) => textArrayLiteral(v.indicators))}::text[])
            AS v(company_id, module, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind,
                 fingerprint, tags, data, search, detected_at, author_id, author_key_id, import_id, indicators)
        ON CONFLICT (company_id, module, fingerprint) DO NOTHING
        RETURNING id, company_id, fingerprint`,
  );
}

/** Updates events, each by its id. */
async function updateEvents(vs: readonly (EventUpdate & { id: number })[], tx: Db): Promise<void> {
  if (!vs.length) return;
  const col = (f: (v: EventUpdate & { id: number }) => unknown) => sql.param(vs.map(f));
  await tx.execute(sql`
    UPDATE events e SET title = v.title, status_id = v.status_id, priority_id = v.priority_id, decision_id = v.decision_id,
           source = v.source, ml_state = v.ml_state, whitelist_kind = v.whitelist_kind, fingerprint = v.fingerprint,
           tags = v.tags::int[], data = v.data::jsonb, search = ${searchVector(sql`v.search`)},
           detected_at = v.detected_at::timestamptz, indicators = v.indicators::text[], updated_at = now()
      FROM unnest(${col((v) => v.id)}::bigint[], ${col((v) => v.title)}::text[], ${col((v) => v.statusId)}::int[],
                  ${col((v) => v.priorityId)}::int[], ${col((v) => v.decisionId)}::int[], ${col((v) => v.source)}::text[],
                  ${col((v) => v.mlState)}::text[], ${col((v) => v.whitelistKind)}::text[], ${col((v) => v.fingerprint)}::text[],
                  ${col((v) => arrayLiteral(v.tags))}::text[], ${col((v) => JSON.stringify(v.data))}::text[],
                  ${col((v) => v.searchText)}::text[], ${col((v) => v.detectedAt)}::text[],
                  ${col((v) => textArrayLiteral(v.indicators))}::text[])
        AS v(id, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind, fingerprint, tags, data, search, detected_at,
             indicators)
     WHERE e.id = v.id`);
}

/** A file attached to an event, as its card lists it. */
export interface EventAttachmentRow {
  id: number;
  kind: string;
  name: string;
  mimetype: string;
  size: number;
  created_at: Date | string;
}

/** Per-status counts of a search: `capped` — more than the cap match, no numbers given. */
export interface SearchStatusCounts {
  items: { status_id: number; count: number }[];
  capped: boolean;
}

/** `, CASE WHEN <rule 0> THEN 0 WHEN … END AS rule_index` of a list with rules (nothing without). */
function ruleIndex(rules: SQL[] | undefined): SQL {
  if (!rules) return sql``;
  const whens = sql.join(
    rules.map((rc, i) => sql`WHEN ${rc} THEN ${i}`),
    sql` `,
  );
  return sql`, CASE ${whens} END AS rule_index`;
}

export function createEventsRepo(db: Db) {
  const rows = <T>(q: SQL, tx: Db = db): Promise<T[]> => rowsOf<T>(tx, q);
  const companies = createCompaniesRepo(db);
  /** Exact count up to `cap` (+1 to know it was capped). */
  const countCapped = async (where: SQL, cap: number): Promise<number> => {
    const [r] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events e WHERE ${where} LIMIT ${cap + 1}) s`,
    );
    return r?.n ?? 0;
  };

  /**
   * Per-status counts of `where`. With `cap` (a free-text search) at most `cap + 1` matches are
   * read: a broad word matches a large share of the table, and one GROUP BY over every match would
   * cost more than the page itself. `capped` then says the filter matches more than `cap` and the
   * counts are not given.
   */
  const statusCounts = async (p: { where: SQL; cap?: number }): Promise<SearchStatusCounts> => {
    const limited = p.cap === undefined ? sql`` : sql` LIMIT ${p.cap + 1}`;
    const items = await rows<{ status_id: number; count: number }>(
      sql`SELECT x.status_id, count(*)::int AS count FROM (SELECT e.status_id FROM events e WHERE ${p.where}${limited}) x
          GROUP BY x.status_id ORDER BY x.status_id`,
    );
    const capped = p.cap !== undefined && items.reduce((n, x) => n + x.count, 0) > p.cap;
    return capped ? { items: [], capped } : { items, capped };
  };

  return {
    /**
     * One page and, in the same statement, its count up to `cap` (+1 when capped) when the page is
     * full — a page that is not full gives the count itself; an empty page past the end counts apart.
     * The inner query walks an index in `order`, the joins only decorate the page. `prepared`: the
     * statement is named (db/sql.ts preparedRowsOf) — the first page of a list without free text,
     * the request the console sends most; LIMIT, OFFSET and the cap are in its text.
     */
    async list(p: {
      where: SQL;
      order: SQL;
      limit: number;
      offset: number;
      cap: number;
      /** The rules' conditions: each row gets the index of the first it matches (`rule_index`). */
      rules?: SQL[];
      prepared?: boolean;
      /** Keyset paging (events.query afterCondition): limits the page, not the count. */
      after?: SQL;
    }): Promise<{ rows: EventRow[]; counted: number }> {
      const rule = ruleIndex(p.rules);
      const limit = intLiteral(p.limit);
      const pageWhere = p.after ? sql`${p.where} AND ${p.after}` : p.where;
      // Past the first page the ids come first (an index-only walk over the skipped rows), then
      // the page's rows: OFFSET over whole rows read every skipped row from the table (page 10 000
      // of a 10M-row list: seconds — bench/README, case (c2)).
      const pageRows =
        p.offset === 0
          ? sql`SELECT ${EVENT_COLUMNS}${rule} FROM events e WHERE ${pageWhere} ORDER BY ${p.order} LIMIT ${limit}`
          : sql`SELECT ${EVENT_COLUMNS}${rule} FROM events e
                 WHERE e.id IN (SELECT e.id FROM events e WHERE ${pageWhere} ORDER BY ${p.order}
                                LIMIT ${limit} OFFSET ${intLiteral(p.offset)})`;
      const q = sql`
        WITH page AS MATERIALIZED (${pageRows})
        SELECT e.*, c.name AS company_name, u.name AS author_name, a.name AS assignee_name,
               CASE WHEN (SELECT count(*) FROM page) = ${limit}
                    THEN (SELECT count(*) FROM (SELECT 1 FROM events e WHERE ${p.where} LIMIT ${intLiteral(p.cap + 1)}) s)
               END::int AS counted_n
        FROM page e
        JOIN companies c ON c.id = e.company_id
        LEFT JOIN users u ON u.id = e.author_id
        LEFT JOIN users a ON a.id = e.assignee_id
        ORDER BY ${p.order}`;
      const page = await (p.prepared ? preparedRowsOf : rowsOf)<EventRow & { counted_n: number | null }>(db, q);
      const counted = page[0]?.counted_n;
      // (the rows keep counted_n: the view picks its fields, and copying 30 keys per row costs)
      const items: EventRow[] = page;
      if (counted != null) return { rows: items, counted };
      // (after a cursor, a short page does not tell the count: the rows before the cursor are not in it)
      if (!p.after && (items.length > 0 || p.offset === 0)) return { rows: items, counted: p.offset + items.length };
      return { rows: items, counted: await countCapped(p.where, p.cap) };
    },

    /**
     * A tsquery (events.query tsQueryOf) evaluated once — its prefix expanded through the lexicon —
     * and inlined as a constant: every statement of a request shares it, and the planner sees its
     * words and their frequencies.
     */
    async resolveQuery(query: SQL): Promise<SQL> {
      const [r] = await rows<{ q: string }>(sql`SELECT (${query})::text AS q`);
      return sql`${r?.q ?? ''}::tsquery`;
    },

    /**
     * A page of a free-text search and its count up to `cap` (+1 when capped), for a sort that an
     * index delivers in order (events.query orderedSort). `base` is the module and the companies,
     * `filter` every other condition but the text, `text` the condition of `q` (events.query
     * matching, over the tsquery from resolveQuery). See docs/architecture.md, «Поиск `q`: первая
     * страница и счёт».
     *
     * Page, one statement: a walk down the index of the sort over the base's rows (at most
     * walkRows), each checked against the filters and the text, stops at a full page — a frequent
     * word fills it within a few hundred rows, whereas the GIN index would read its whole posting
     * list and sort every match. Only the base narrows the walk, so that it always follows the sort's
     * index (a status filter would otherwise tempt the planner to read and sort every row of that
     * status). The walk's matches are the page when the page is full or the base ended inside the
     * walk; otherwise (a rare word) the page comes from the GIN index, all matches sorted (few, as
     * the walk found few).
     *
     * Count: a page that is not full gives it. A full page from the walk measures the word's
     * density; when cap + 1 matches are expected within DENSE_COUNT_ROWS rows, the count walks on
     * (the first rows are cached already), else — or when that walk falls short — the GIN index
     * counts (its cost grows with the posting lists, not with the base).
     *
     * Per-status counts (`statusWhere`: the filter without the status, when the console asks for
     * them): the count's walk counts them too, grouped by status — whatever decides the count decides
     * them (the filter's matches are among the status-less filter's, so more than `cap` of those means
     * «capped», and a walk over the whole base counts both exactly). A GIN bitmap of every match is
     * built only when the walk does not decide, and then for the count and the statuses at once.
     */
    async searchList(p: {
      base: SQL;
      filter: SQL;
      text: SQL;
      order: SQL;
      limit: number;
      offset: number;
      /** The rules' conditions: each row gets the index of the first it matches (`rule_index`). */
      rules?: SQL[];
      cap: number;
      /** The filter without the status condition: per-status counts are wanted (see above). */
      statusWhere?: SQL;
      /** `filter` has a status condition (else it is `statusWhere`, and one count serves both). */
      byStatus?: boolean;
    }): Promise<{ rows: EventRow[]; counted: number; statusCounts?: SearchStatusCounts }> {
      const { text } = p;
      const need = p.offset + p.limit;
      const walk = walkRows(need);
      const rule = ruleIndex(p.rules);
      const page = await rows<EventRow & { walk_rn: string | null }>(sql`
        WITH walk AS MATERIALIZED (
          SELECT ${EVENT_COLUMNS}${rule}, e.walk_rn
          FROM (SELECT e.*, row_number() OVER (ORDER BY ${p.order}) AS walk_rn
                FROM (SELECT * FROM events e WHERE ${p.base} ORDER BY ${p.order} LIMIT ${walk}) e) e
          WHERE ${p.filter} AND ${text}
          ORDER BY ${p.order} LIMIT ${p.limit} OFFSET ${p.offset}),
        base AS MATERIALIZED (SELECT count(*) AS n FROM (SELECT 1 FROM events e WHERE ${p.base} LIMIT ${walk}) s),
        found AS MATERIALIZED (SELECT count(*) AS n FROM walk)
        SELECT e.*, c.name AS company_name, u.name AS author_name, a.name AS assignee_name
        FROM (
          SELECT * FROM walk WHERE (SELECT n FROM found) = ${p.limit} OR (SELECT n FROM base) < ${walk}
          UNION ALL
          (SELECT ${EVENT_COLUMNS}${rule}, NULL::bigint
           FROM (SELECT * FROM events e WHERE ${p.base} AND ${p.filter} AND ${text} OFFSET 0) e
           WHERE (SELECT n FROM found) < ${p.limit} AND (SELECT n FROM base) >= ${walk}
           ORDER BY ${p.order} LIMIT ${p.limit} OFFSET ${p.offset})
        ) e
        JOIN companies c ON c.id = e.company_id
        LEFT JOIN users u ON u.id = e.author_id
        LEFT JOIN users a ON a.id = e.assignee_id
        ORDER BY ${p.order}`);
      const last = page.at(-1)?.walk_rn;
      const items: EventRow[] = page; // (walk_rn stays on the rows, as counted_n in list)
      // The count (unless `known`) and the per-status counts by the GIN index.
      const byIndex = async (known?: number) => {
        const count = () => known ?? countCapped(sql`${p.base} AND ${p.filter} AND ${text}`, p.cap);
        if (!p.statusWhere) return { rows: items, counted: await count() };
        const perStatus = statusCounts({ where: sql`${p.base} AND ${p.statusWhere} AND ${text}`, cap: p.cap });
        if (known === undefined && !p.byStatus) {
          // The same matches: their per-status counts give the total (one GIN bitmap, not two).
          const sc = await perStatus;
          return { rows: items, counted: sc.capped ? p.cap + 1 : sc.items.reduce((n, x) => n + x.count, 0), statusCounts: sc };
        }
        const [counted, sc] = await Promise.all([count(), perStatus]);
        return { rows: items, counted, statusCounts: sc };
      };
      if (items.length < p.limit && (items.length > 0 || p.offset === 0)) return byIndex(p.offset + items.length);
      if (last != null) {
        // `need` matches within `last` rows: the rows expected to hold cap + 1 matches, with a margin
        // of two standard deviations of that sample (a count of `need` varies by about √need).
        const expected = Math.ceil(((p.cap + 1) * Number(last) * (1 + 2 / Math.sqrt(need))) / need);
        if (expected <= (p.statusWhere ? DENSE_COUNT_ROWS_WITH_STATUSES : DENSE_COUNT_ROWS)) {
          const anyStatus = p.statusWhere ?? sql`false`;
          const walked = await rows<{ status_id: number; n: number; n_any: number; seen: number }>(sql`
            SELECT s.status_id, count(*) FILTER (WHERE s.t AND s.f)::int AS n, count(*) FILTER (WHERE s.t AND s.w)::int AS n_any,
                   count(*)::int AS seen
            FROM (SELECT e.status_id, ${text} AS t, ${p.filter} AS f, ${anyStatus} AS w
                  FROM events e WHERE ${p.base} ORDER BY ${p.order} LIMIT ${expected}) s
            GROUP BY s.status_id ORDER BY s.status_id`);
          const sum = (k: 'n' | 'n_any' | 'seen') => walked.reduce((a, r) => a + r[k], 0);
          const n = sum('n');
          // Capped, or the whole base walked: the count is known, and so are the per-status counts.
          if (n > p.cap || sum('seen') < expected) {
            const counted = Math.min(n, p.cap + 1);
            if (!p.statusWhere) return { rows: items, counted };
            const statusCounts =
              sum('n_any') > p.cap
                ? { items: [], capped: true }
                : {
                    items: walked.filter((r) => r.n_any > 0).map((r) => ({ status_id: r.status_id, count: r.n_any })),
                    capped: false,
                  };
            return { rows: items, counted, statusCounts };
          }
        }
      }
      return byIndex();
    },

    statusCounts,

    /**
     * Per-status counts of a list (no free text), each status of `module` counted up to `cap`
     * (`capped`: more, `count` is `cap`); statuses without events left out. Each count walks the
     * status's index (company|module, status, …) for at most cap + 1 entries, so a list of millions
     * of events counts in milliseconds, where one GROUP BY over every row took 0.6 s at 10M
     * (bench/README, case (c1)).
     */
    async statusCountsPerStatus(p: {
      module: ModuleCode;
      where: SQL;
      cap: number;
    }): Promise<{ status_id: number; count: number; capped?: boolean }[]> {
      const found = await rows<{ status_id: number; n: number }>(
        sql`SELECT s.id AS status_id, c.n::int AS n
              FROM event_statuses s
             CROSS JOIN LATERAL (SELECT count(*) AS n FROM (
                      SELECT 1 FROM events e WHERE ${p.where} AND e.status_id = s.id LIMIT ${intLiteral(p.cap + 1)}) x) c
             WHERE s.module = ${p.module} AND c.n > 0
             ORDER BY s.id`,
      );
      return found.map((r) =>
        r.n > p.cap ? { status_id: r.status_id, count: p.cap, capped: true } : { status_id: r.status_id, count: r.n },
      );
    },

    /** The company and module of an event of any module, or undefined (for what hangs on events: comments, documents). */
    async owner(id: number, tx: Db = db): Promise<{ companyId: number; module: ModuleCode; title: string } | undefined> {
      const [r] = await rows<{ companyId: number; module: ModuleCode; title: string }>(
        sql`SELECT company_id AS "companyId", module, title FROM events WHERE id = ${id}`,
        tx,
      );
      return r;
    },

    async findById(module: ModuleCode, id: number, tx: Db = db, forUpdate = false): Promise<EventRow | undefined> {
      const lock = forUpdate ? sql` FOR UPDATE OF e` : sql``;
      const [r] = await rows<EventRow>(
        sql`SELECT ${EVENT_COLUMNS}, c.name AS company_name, u.name AS author_name, a.name AS assignee_name
            FROM events e JOIN companies c ON c.id = e.company_id LEFT JOIN users u ON u.id = e.author_id
            LEFT JOIN users a ON a.id = e.assignee_id
            WHERE e.id = ${id} AND e.module = ${module}${lock}`,
        tx,
      );
      return r;
    },

    /**
     * The card of an event (GET …/events/{id}): the row with its comment count and attachments, in
     * one prepared statement (three round trips before; docs/decisions.md, «Путь запроса»).
     */
    async findDetail(
      module: ModuleCode,
      id: number,
      tx: Db = db,
    ): Promise<(EventRow & { comments_count: number; attachments: EventAttachmentRow[] }) | undefined> {
      const [r] = await preparedRowsOf<EventRow & { comments_count: number; attachments: EventAttachmentRow[] }>(
        tx,
        sql`SELECT ${EVENT_COLUMNS}, c.name AS company_name, u.name AS author_name, a.name AS assignee_name,
                   (SELECT count(*)::int FROM event_comments k WHERE k.event_id = e.id) AS comments_count,
                   COALESCE((SELECT json_agg(json_build_object('id', d.id, 'kind', d.kind, 'name', d.name, 'mimetype', d.mimetype,
                                                               'size', d.size, 'created_at', d.created_at) ORDER BY d.id)
                             FROM docs d WHERE d.event_id = e.id), '[]'::json) AS attachments
            FROM events e JOIN companies c ON c.id = e.company_id LEFT JOIN users u ON u.id = e.author_id
            LEFT JOIN users a ON a.id = e.assignee_id
            WHERE e.id = ${id} AND e.module = ${module}`,
      );
      return r;
    },

    /** Rows of these ids in this module, locked (batch operations), in id order. */
    async findByIdsForUpdate(module: ModuleCode, ids: number[], tx: Db): Promise<EventRow[]> {
      return rows<EventRow>(
        sql`SELECT ${EVENT_COLUMNS}, c.name AS company_name, NULL::text AS author_name, a.name AS assignee_name
            FROM events e JOIN companies c ON c.id = e.company_id LEFT JOIN users a ON a.id = e.assignee_id
            WHERE e.id = ANY(${bigArray(ids)}) AND e.module = ${module} ORDER BY e.id FOR UPDATE OF e`,
        tx,
      );
    },

    /** Inserts unless the fingerprint exists for the company and module; returns the new id or null. */
    async insert(v: NewEvent, tx: Db = db): Promise<number | null> {
      const [r] = await insertEvents([v], tx);
      return r?.id ?? null;
    },

    /** Inserts a batch (an import's); the events whose fingerprint exists are left out of the result. */
    insertMany: (vs: readonly NewEvent[], tx: Db) => insertEvents(vs, tx),

    async idByFingerprint(companyId: number, module: ModuleCode, fingerprint: string, tx: Db = db): Promise<number | undefined> {
      const [r] = await rows<{ id: number }>(
        sql`SELECT id FROM events WHERE company_id = ${companyId} AND module = ${module} AND fingerprint = ${fingerprint}`,
        tx,
      );
      return r?.id;
    },

    async update(id: number, v: EventUpdate, tx: Db): Promise<void> {
      await updateEvents([{ id, ...v }], tx);
    },

    /** Sets the assignee of these events (null: unassigned), in one statement. */
    async setAssignee(ids: readonly number[], assigneeId: number | null, tx: Db): Promise<void> {
      if (ids.length)
        await tx.execute(
          sql`UPDATE events SET assignee_id = ${assigneeId}, updated_at = now() WHERE id = ANY(${bigArray([...ids])})`,
        );
    },

    /** Updates a batch (an import's), each event by its id. */
    updateMany: updateEvents,

    /**
     * The events of a module with these (company, fingerprint) keys, locked, in id order: one unique-index
     * probe per key (a lateral lookup, so stale statistics during a big import cannot turn it into a scan).
     */
    async lockByFingerprints(
      module: ModuleCode,
      keys: readonly { companyId: number; fingerprint: string }[],
      tx: Db,
    ): Promise<Omit<EventRow, 'company_name' | 'author_name' | 'assignee_name' | 'rule_index'>[]> {
      if (!keys.length) return [];
      return rows(
        sql`SELECT x.* FROM unnest(${sql.param(keys.map((k) => k.companyId))}::int[], ${sql.param(keys.map((k) => k.fingerprint))}::text[])
                AS k(company_id, fingerprint)
              CROSS JOIN LATERAL (
                SELECT ${EVENT_COLUMNS} FROM events e
                 WHERE e.company_id = k.company_id AND e.module = ${module} AND e.fingerprint = k.fingerprint FOR UPDATE) x
             ORDER BY x.id`,
        tx,
      );
    },

    async deleteByIds(ids: number[], tx: Db): Promise<number[]> {
      const r = await rows<{ id: number }>(sql`DELETE FROM events WHERE id = ANY(${bigArray(ids)}) RETURNING id`, tx);
      return r.map((x) => x.id);
    },

    /** History rows in one statement (a batch or an import writes thousands); their ids, in order. */
    async insertHistory(entries: readonly HistoryEntry[], tx: Db = db): Promise<number[]> {
      if (!entries.length) return [];
      const col = (f: (h: HistoryEntry) => unknown) => sql.param(entries.map(f));
      const r = await rows<{ id: number }>(
        sql`INSERT INTO event_history (event_id, actor_user_id, actor_key_id, action, field, before, after)
            SELECT * FROM unnest(${col((h) => h.eventId)}::bigint[], ${col((h) => h.actorUserId)}::int[],
                                 ${col((h) => h.actorKeyId)}::int[], ${col((h) => h.action)}::text[], ${col((h) => h.field)}::text[],
                                 ${col((h) => jsonParam(h.before))}::jsonb[], ${col((h) => jsonParam(h.after))}::jsonb[])
            RETURNING id`,
        tx,
      );
      // What the history records goes to the integrations too (webhooks, syslog), in the same transaction.
      await emitEventHistory(tx, entries);
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

    async docKeysOfEvents(ids: number[], tx: Db): Promise<{ id: number; storage_key: string }[]> {
      return rows(sql`SELECT id, storage_key FROM docs WHERE event_id = ANY(${bigArray(ids)})`, tx);
    },
    async deleteDocs(ids: number[], tx: Db): Promise<void> {
      if (ids.length) await tx.execute(sql`DELETE FROM docs WHERE id = ANY(${intArray(ids)})`);
    },

    /** The modules enabled for a company (companies.repo). */
    companyModules: companies.modules,

    /** Which of these ids exist in a reference table. */
    /** Tag names by id (the words of a change in the audit log). */
    async tagNames(ids: number[], tx: Db = db): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const r = await rows<{ id: number; name: string }>(sql`SELECT id, name FROM tags WHERE id = ANY(${intArray(ids)})`, tx);
      return new Map(r.map((x) => [x.id, x.name]));
    },

    async existingIds(table: 'tags' | 'media_types' | 'leak_types' | 'leaks', ids: number[]): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const r = await rows<{ id: number }>(sql`SELECT id FROM ${sql.identifier(table)} WHERE id = ANY(${intArray(ids)})`);
      return new Set(r.map((x) => x.id));
    },
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
