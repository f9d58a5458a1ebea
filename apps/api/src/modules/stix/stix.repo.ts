/*
 * SQL of the STIX area: event rows as the mapping reads them, pages of a TAXII collection in the
 * order of the «added» cursor (`stix_added`, id — index events_company_module_stix_idx), and the
 * horizon a page may reach (see `horizon`).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bigArray, intArray, rowsOf, textArray } from '../../db/sql';

export interface StixEventRow {
  id: number;
  company_id: number;
  company_name: string;
  module: string;
  title: string;
  status_id: number | null;
  priority_id: number | null;
  decision_id: number | null;
  tags: number[];
  data: Record<string, unknown>;
  detected_at: number | null;
  created_at: number;
  updated_at: number;
  /** `stix_added` in UTC with microseconds (`2026-11-29T03:00:00.123456Z`): the cursor's exact value. */
  added: string;
}

/** Times in epoch ms rounded as the export's columns round them (NODE_ROW_COLUMNS): the same `created`/`modified` from TAXII and from a file. */
const COLUMNS = sql.raw(`e.id::float8 AS id, e.company_id, c.name AS company_name, e.module, e.title, e.status_id, e.priority_id,
  e.decision_id, e.tags, e.data, (extract(epoch FROM e.detected_at) * 1000)::bigint::float8 AS detected_at,
  (extract(epoch FROM e.created_at) * 1000)::bigint::float8 AS created_at, (extract(epoch FROM e.updated_at) * 1000)::bigint::float8 AS updated_at,
  to_char(e.stix_added AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS added`);
const FROM = sql.raw('FROM events e JOIN companies c ON c.id = e.company_id');

/** Where a page starts: the event at (`added`, `id`) or after it. */
export interface StixPosition {
  added: string;
  id: number;
}

/** How long a reader waits for writers that stamped rows before its horizon, and how often it looks. */
const WAIT_MS = 5000;
const POLL_MS = 10;

export function createStixRepo(db: Db) {
  return {
    /**
     * The latest `stix_added` a page may serve without a later commit landing behind it: the clock now,
     * once every transaction that was writing events at that moment has ended. A writer stamps a row
     * after taking its transaction id (trigger events_stix_added), so every row stamped up to the
     * horizon belongs to a transaction that held an xid and RowExclusiveLock on events when the clock
     * was read; the reader waits for those (pg_locks, polled: SQL cannot wait on another transaction).
     * Null when they have not ended within WAIT_MS (the caller answers «retry»).
     */
    async horizon(): Promise<string | null> {
      const [h] = await rowsOf<{ h: string; xids: string[] | null }>(
        db,
        sql`WITH h AS (SELECT clock_timestamp() AS t)
            SELECT to_char((SELECT t FROM h) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS h,
                   (SELECT array_agg(DISTINCT x.transactionid::text)
                      FROM pg_locks r
                      JOIN pg_locks x ON x.pid = r.pid AND x.locktype = 'transactionid' AND x.mode = 'ExclusiveLock'
                     WHERE r.locktype = 'relation' AND r.relation = 'events'::regclass AND r.mode = 'RowExclusiveLock'
                       AND r.pid <> pg_backend_pid() AND (SELECT t FROM h) IS NOT NULL) AS xids`,
      );
      if (!h) return null;
      let xids = h.xids ?? [];
      const until = Date.now() + WAIT_MS;
      while (xids.length) {
        if (Date.now() > until) return null;
        await new Promise((r) => setTimeout(r, POLL_MS));
        const rows = await rowsOf<{ x: string }>(
          db,
          sql`SELECT transactionid::text AS x FROM pg_locks
               WHERE locktype = 'transactionid' AND mode = 'ExclusiveLock' AND transactionid::text = ANY(${textArray(xids)})`,
        );
        xids = rows.map((r) => r.x);
      }
      return h.h;
    },

    /** Events of a company's module from `from` on (inclusive), stamped after `after` and up to `horizon`. */
    async page(
      companyId: number,
      module: string,
      o: { from: StixPosition | null; after: string | null; horizon: string; limit: number; ids?: number[] },
    ): Promise<StixEventRow[]> {
      const conds: SQL[] = [
        sql`e.company_id = ${companyId}`,
        sql`e.module = ${module}`,
        sql`e.stix_added <= ${o.horizon}::timestamptz`,
      ];
      if (o.from) conds.push(sql`(e.stix_added, e.id) >= (${o.from.added}::timestamptz, ${o.from.id}::bigint)`);
      if (o.after) conds.push(sql`e.stix_added > ${o.after}::timestamptz`);
      if (o.ids) conds.push(sql`e.id = ANY(${bigArray(o.ids)})`);
      return rowsOf<StixEventRow>(
        db,
        sql`SELECT ${COLUMNS} ${FROM} WHERE ${sql.join(conds, sql` AND `)} ORDER BY e.stix_added, e.id LIMIT ${o.limit}`,
      );
    },

    /** One event of any company (the caller checks the company), or undefined. */
    async event(module: string, id: number): Promise<StixEventRow | undefined> {
      const [r] = await rowsOf<StixEventRow>(db, sql`SELECT ${COLUMNS} ${FROM} WHERE e.id = ${id} AND e.module = ${module}`);
      return r;
    },

    async tagNames(ids: number[]): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const rows = await rowsOf<{ id: number; name: string }>(
        db,
        sql`SELECT id, name FROM tags WHERE id = ANY(${intArray(ids)})`,
      );
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** Active companies among `ids` (null: every active company), by id. */
    async companies(ids: number[] | null): Promise<{ id: number; name: string }[]> {
      return rowsOf<{ id: number; name: string }>(
        db,
        sql`SELECT id, name FROM companies WHERE is_active ${ids ? sql`AND id = ANY(${intArray(ids)})` : sql``} ORDER BY id`,
      );
    },
  };
}
export type StixRepo = ReturnType<typeof createStixRepo>;
