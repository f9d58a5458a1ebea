/*
 * SQL of the dashboards. Counts come from the rollups `event_day_counts` (company × module × day, the
 * priority and sentiment split as columns) and `event_day_status_counts` (… × status) — or, for «all
 * companies», from their company-less twins `event_module_day_counts` / `event_module_day_status_counts`
 * (module × day: a tenth of the rows with 10 companies) — plus the not yet folded `event_count_deltas`
 * (all maintained by triggers on `events` and the fold) — never from `events`.
 */
import { CHART_MODULES } from '@forpost/contract/analytics';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createSeeds } from '../../db/seeds';
import { and, intArray, preparedRowsOf, rowsOf, textArray } from '../../db/sql';

export interface RollupFilter {
  from: string;
  to: string;
  /** 'all' = every company; otherwise these ids (never empty: the service answers empty itself). */
  companies: 'all' | number[];
  /** Module codes (never empty). */
  modules: string[];
}

/** The count columns of `event_day_counts`. */
export const COUNT_COLUMNS = [
  'total',
  'p_none',
  'p_low',
  'p_medium',
  'p_high',
  'p_critical',
  'c_positive',
  'c_negative',
  'c_neutral',
  'c_undefined',
] as const;
export type CountColumn = (typeof COUNT_COLUMNS)[number];
export type Counts = Record<CountColumn, number>;
export type DayGroup = 'day' | 'module';
export type StatusGroup = 'day' | 'module' | 'status_id';
/** How `day` comes back: 'YYYY-MM-DD', or the number of days since `from` (cheaper: no formatting). */
type DayAs = 'text' | 'offset';

/** The rollups a filter reads: the all-companies ones when no company restriction applies. */
function tablesOf(f: RollupFilter) {
  return f.companies === 'all'
    ? { counts: 'event_module_day_counts', statuses: 'event_module_day_status_counts' }
    : { counts: 'event_day_counts', statuses: 'event_day_status_counts' };
}

/** The output expression of a group column (applied after the GROUP BY: once per group, not per row). */
function outOf(col: string, f: RollupFilter, dayAs: DayAs): SQL {
  if (col !== 'day') return sql.raw(col);
  return dayAs === 'offset' ? sql`(day - ${f.from}::date) AS day` : sql.raw(`to_char(day, 'YYYY-MM-DD') AS day`);
}

/**
 * The modules whose sentiment is counted (`connotation` columns): those of the sentiment chart. The
 * rollup triggers (migration 0005) count the same module; changing one means a migration for the other.
 */
const SENTIMENT_MODULES = `'{${(CHART_MODULES.connotationevents ?? []).join(',')}}'::text[]`;

/**
 * WHERE of a rollup `r` or of the deltas `d`. «All companies» has no company condition (and the
 * company-less rollups no company column).
 */
function whereOf(f: RollupFilter, alias: 'r' | 'd'): SQL {
  const c = (col: string) => sql.raw(`${alias}.${col}`);
  const parts: SQL[] = [sql`${c('day')} BETWEEN ${f.from}::date AND ${f.to}::date`];
  if (f.companies !== 'all')
    parts.push(
      f.companies.length === 1
        ? sql`${c('company_id')} = ${f.companies[0]}`
        : sql`${c('company_id')} = ANY(${intArray(f.companies)})`,
    );
  parts.push(f.modules.length === 1 ? sql`${c('module')} = ${f.modules[0]}` : sql`${c('module')} = ANY(${textArray(f.modules)})`);
  return and(parts);
}

/** Each count column from a row of `event_count_deltas d` (priority code from `p`). */
const DELTA_EXPR: Record<CountColumn, string> = {
  total: 'd.delta',
  p_none: 'CASE WHEN p.code IS NULL THEN d.delta ELSE 0 END',
  p_low: "CASE WHEN p.code = 'low' THEN d.delta ELSE 0 END",
  p_medium: "CASE WHEN p.code = 'medium' THEN d.delta ELSE 0 END",
  p_high: "CASE WHEN p.code = 'high' THEN d.delta ELSE 0 END",
  p_critical: "CASE WHEN p.code = 'critical' THEN d.delta ELSE 0 END",
  c_positive: "CASE WHEN d.connotation = 'Positive' THEN d.delta ELSE 0 END",
  c_negative: "CASE WHEN d.connotation = 'Negative' THEN d.delta ELSE 0 END",
  c_neutral: "CASE WHEN d.connotation = 'Neutral' THEN d.delta ELSE 0 END",
  c_undefined: "CASE WHEN d.connotation = 'Undefined' THEN d.delta ELSE 0 END",
};

/** The `only` count columns of rows of `event_count_deltas d` (the fold's pivot: all of them). */
const deltaPivot = (only: readonly CountColumn[] = COUNT_COLUMNS) =>
  sql.raw(only.map((c) => `${DELTA_EXPR[c]} AS ${c}`).join(', '));

/** Raises the rollups' generation (in the transaction that changed them). */
const BUMP_GENERATION = sql`
  INSERT INTO event_rollup_state AS s (id, generation) VALUES (1, 1)
  ON CONFLICT (id) DO UPDATE SET generation = s.generation + 1`;

/** Advisory lock key of the fold (one folder at a time across instances). */
const FOLD_LOCK = 7_320_114_101;

/** Which figures a read covers: the rollups and the pending deltas (the answer), or one of them. */
export type Part = 'all' | 'rollup' | 'deltas';
/** A `daySeriesSql` row: one series' day offsets and counts. */
export type SeriesRow = { key: string; d: number[]; n: number[] };

/** `UNION ALL` of the parts a read covers. */
const partsOf = (part: Part, rollup: SQL, deltas: SQL): SQL =>
  part === 'rollup' ? rollup : part === 'deltas' ? deltas : sql`${rollup} UNION ALL ${deltas}`;

/** Counts (total, per priority, per sentiment) grouped by day and/or module, over `part`. */
function countsSql(f: RollupFilter, group: readonly DayGroup[], only: readonly CountColumn[], dayAs: DayAs, part: Part): SQL {
  /** The group columns of a part, each followed by a comma. */
  const keys = (alias: 'r' | 'd') => sql.raw(group.map((x) => `${alias}.${x}, `).join(''));
  const rollup = sql`SELECT ${keys('r')}${sql.raw(only.map((c) => `r.${c}`).join(', '))} FROM ${sql.raw(tablesOf(f).counts)} r WHERE ${whereOf(f, 'r')}`;
  const deltas = sql`SELECT ${keys('d')}${deltaPivot(only)}
      FROM event_count_deltas d LEFT JOIN event_priorities p ON p.id = d.priority_id WHERE ${whereOf(f, 'd')}`;
  const out = group.length
    ? sql`${sql.join(
        group.map((x) => outOf(x, f, dayAs)),
        sql`, `,
      )}, `
    : sql``;
  const total = sql.raw(only.map((c) => `sum(${c})::bigint AS ${c}`).join(', '));
  return sql`
    SELECT ${out}${total} FROM (${partsOf(part, rollup, deltas)}) t${sql.raw(group.length ? ` GROUP BY ${group.join(', ')}` : '')}`;
}

/** One row per series key (module for a count column, or status) with day-offset and count arrays, over `part`. */
function daySeriesSql(f: RollupFilter, of: CountColumn | 'status', part: Part): SQL {
  const t = tablesOf(f);
  const [rollup, deltas] =
    of === 'status'
      ? [
          sql`SELECT r.day, r.status_id AS key, r.n FROM ${sql.raw(t.statuses)} r WHERE ${whereOf(f, 'r')}`,
          sql`SELECT d.day, d.status_id AS key, d.delta AS n FROM event_count_deltas d WHERE ${whereOf(f, 'd')}`,
        ]
      : [
          sql`SELECT r.day, r.module AS key, ${sql.raw(`r.${of}`)} AS n FROM ${sql.raw(t.counts)} r WHERE ${whereOf(f, 'r')}`,
          sql`SELECT d.day, d.module AS key, ${sql.raw(DELTA_EXPR[of])} AS n
              FROM event_count_deltas d LEFT JOIN event_priorities p ON p.id = d.priority_id WHERE ${whereOf(f, 'd')}`,
        ];
  return sql`
    SELECT key::text AS key, array_agg(day - ${f.from}::date) AS d, array_agg(n) AS n
    FROM (SELECT day, key, sum(n)::int AS n FROM (${partsOf(part, rollup, deltas)}) u GROUP BY day, key) g
    WHERE n <> 0 GROUP BY key`;
}

export function createAnalyticsRepo(db: Db) {
  const seeds = createSeeds(db);
  /** A dashboard read, planned once per connection (db/sql.ts preparedRowsOf): texts vary only in structure. */
  const prepared = <T>(q: SQL): Promise<T[]> => preparedRowsOf<T>(db, q);

  return {
    /** Counts (total, per priority, per sentiment) grouped by day and/or module; `only` limits the columns summed. */
    async counts<G extends DayGroup>(
      f: RollupFilter,
      group: readonly G[],
      only: readonly CountColumn[] = COUNT_COLUMNS,
    ): Promise<(Record<G, string> & Counts)[]> {
      return prepared(countsSql(f, group, only, 'text', 'all'));
    },

    /**
     * The SQL of the dashboards' reads over a part of the figures (the answer cache reads them apart):
     * `countsSql` as `counts`; `daySeriesSql` one chart series per key — module (for a count column) or
     * status — with its days as arrays: `d` the day offsets from `from`, `n` the counts (non-zero days
     * only). A handful of rows instead of one per key and day: less to send and parse.
     */
    countsSql,
    daySeriesSql,
    /** Runs a read as a named prepared statement. */
    prepared,

    /**
     * Reads one or two row sets (`countsSql`/`daySeriesSql`) and the rollups' generation in one
     * snapshot: the rows are exactly the figures of that generation (plus, for the deltas part, what
     * is pending at that moment).
     */
    async withGeneration<T>(a: SQL, b?: SQL): Promise<{ generation: string; a: T[]; b: T[] }> {
      const [r] = await prepared<{ generation: string | null; a: T[]; b: T[] }>(sql`
        SELECT (SELECT generation::text FROM event_rollup_state WHERE id = 1) AS generation,
               coalesce((SELECT json_agg(q) FROM (${a}) q), '[]'::json) AS a,
               ${b ? sql`coalesce((SELECT json_agg(q) FROM (${b}) q), '[]'::json)` : sql`'[]'::json`} AS b`);
      return { generation: r?.generation ?? '0', a: r?.a ?? [], b: r?.b ?? [] };
    },

    /** Counts per status, grouped by day and/or module. */
    async statusCounts<G extends StatusGroup>(
      f: RollupFilter,
      group: readonly G[],
    ): Promise<(Record<G, string | number> & { n: number })[]> {
      const cols = (alias: string) => sql.raw(group.map((x) => `${alias}.${x}`).join(', '));
      const out = sql.join(
        group.map((x) => outOf(x, f, 'text')),
        sql`, `,
      );
      return prepared(sql`
        SELECT ${out}, sum(n)::bigint AS n FROM (
          SELECT ${cols('r')}, r.n FROM ${sql.raw(tablesOf(f).statuses)} r WHERE ${whereOf(f, 'r')}
          UNION ALL
          SELECT ${cols('d')}, d.delta AS n FROM event_count_deltas d WHERE ${whereOf(f, 'd')}
        ) t GROUP BY ${sql.raw(group.join(', '))}`);
    },

    /** The same figures straight from `events` (the benchmark's baseline and the tests' cross-check). */
    async countsFromEvents(f: RollupFilter & { tz: string }, group: readonly DayGroup[]): Promise<Record<string, unknown>[]> {
      const expr: Record<DayGroup, string> = {
        day: `to_char((e.created_at AT TIME ZONE '${f.tz.replace(/'/g, '')}')::date, 'YYYY-MM-DD') AS day`,
        module: 'e.module',
      };
      const conn = "coalesce(e.data ->> 'connotation', 'Undefined')";
      const media = `e.module = ANY(${SENTIMENT_MODULES})`;
      const pivot = sql.raw(`count(*)::bigint AS total,
        count(*) FILTER (WHERE p.code IS NULL)::bigint AS p_none, count(*) FILTER (WHERE p.code = 'low')::bigint AS p_low,
        count(*) FILTER (WHERE p.code = 'medium')::bigint AS p_medium, count(*) FILTER (WHERE p.code = 'high')::bigint AS p_high,
        count(*) FILTER (WHERE p.code = 'critical')::bigint AS p_critical,
        count(*) FILTER (WHERE ${media} AND ${conn} = 'Positive')::bigint AS c_positive,
        count(*) FILTER (WHERE ${media} AND ${conn} = 'Negative')::bigint AS c_negative,
        count(*) FILTER (WHERE ${media} AND ${conn} = 'Neutral')::bigint AS c_neutral,
        count(*) FILTER (WHERE ${media} AND ${conn} = 'Undefined')::bigint AS c_undefined`);
      const where: SQL[] = [
        sql`e.created_at >= (${f.from}::date::timestamp AT TIME ZONE ${f.tz})`,
        sql`e.created_at < ((${f.to}::date + 1)::timestamp AT TIME ZONE ${f.tz})`,
        sql`e.module = ANY(${textArray(f.modules)})`,
      ];
      if (f.companies !== 'all') where.push(sql`e.company_id = ANY(${intArray(f.companies)})`);
      const sel = group.length ? sql.raw(`${group.map((x) => expr[x]).join(', ')}, `) : sql``;
      const by = group.length ? sql.raw(` GROUP BY ${group.map((_, i) => String(i + 1)).join(', ')}`) : sql``;
      return rowsOf(
        db,
        sql`SELECT ${sel}${pivot} FROM events e LEFT JOIN event_priorities p ON p.id = e.priority_id WHERE ${and(where)}${by}`,
      );
    },

    /** Per status from `events` (cross-check of statusCounts). */
    async statusCountsFromEvents(
      f: RollupFilter & { tz: string },
    ): Promise<{ day: string; module: string; status_id: number; n: number }[]> {
      const where: SQL[] = [
        sql`e.created_at >= (${f.from}::date::timestamp AT TIME ZONE ${f.tz})`,
        sql`e.created_at < ((${f.to}::date + 1)::timestamp AT TIME ZONE ${f.tz})`,
        sql`e.module = ANY(${textArray(f.modules)})`,
      ];
      if (f.companies !== 'all') where.push(sql`e.company_id = ANY(${intArray(f.companies)})`);
      return rowsOf(
        db,
        sql`
        SELECT to_char((e.created_at AT TIME ZONE ${f.tz})::date, 'YYYY-MM-DD') AS day, e.module, e.status_id, count(*)::bigint AS n
        FROM events e WHERE ${and(where)} GROUP BY 1, 2, 3`,
      );
    },

    /**
     * Folds pending deltas into the rollups — per company (live companies' deltas) and all companies
     * (every delta) — in one transaction (readers see either the deltas or their sum, never both).
     * Rows that drop to zero are removed. Returns the number of deltas folded.
     */
    async fold(limit = 200_000): Promise<number> {
      return db.transaction(async (tx) => {
        const [lock] = await rowsOf<{ ok: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`);
        if (!lock?.ok) return 0;
        const [r] = await rowsOf<{ n: number }>(
          tx,
          sql`
          WITH moved AS (
            DELETE FROM event_count_deltas WHERE id IN (SELECT id FROM event_count_deltas ORDER BY id LIMIT ${limit})
            RETURNING company_id, module, day, priority_id, status_id, connotation, delta
          ), live AS (
            SELECT d.* FROM moved d JOIN companies c ON c.id = d.company_id
          ), days AS (
            INSERT INTO event_day_counts AS r (company_id, module, day, ${sql.raw(COUNT_COLUMNS.join(', '))})
            SELECT company_id, module, day, ${sql.raw(COUNT_COLUMNS.map((c) => `sum(${c})`).join(', '))}
            FROM (SELECT d.company_id, d.module, d.day, ${deltaPivot()} FROM live d LEFT JOIN event_priorities p ON p.id = d.priority_id) x
            GROUP BY 1, 2, 3
            ORDER BY 1, 2, 3
            ON CONFLICT (company_id, module, day) DO UPDATE SET ${sql.raw(COUNT_COLUMNS.map((c) => `${c} = r.${c} + EXCLUDED.${c}`).join(', '))}
            RETURNING 1
          ), statuses AS (
            INSERT INTO event_day_status_counts AS r (company_id, module, day, status_id, n)
            SELECT company_id, module, day, status_id, sum(delta) FROM live GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
            ORDER BY 1, 2, 3, 4
            ON CONFLICT (company_id, module, day, status_id) DO UPDATE SET n = r.n + EXCLUDED.n
            RETURNING 1
          ), all_days AS (
            -- Every delta, deleted companies' too: their events have left the all-companies totals.
            INSERT INTO event_module_day_counts AS r (module, day, ${sql.raw(COUNT_COLUMNS.join(', '))})
            SELECT module, day, ${sql.raw(COUNT_COLUMNS.map((c) => `sum(${c})`).join(', '))}
            FROM (SELECT d.module, d.day, ${deltaPivot()} FROM moved d LEFT JOIN event_priorities p ON p.id = d.priority_id) x
            GROUP BY 1, 2
            ORDER BY 1, 2
            ON CONFLICT (module, day) DO UPDATE SET ${sql.raw(COUNT_COLUMNS.map((c) => `${c} = r.${c} + EXCLUDED.${c}`).join(', '))}
            RETURNING 1
          ), all_statuses AS (
            INSERT INTO event_module_day_status_counts AS r (module, day, status_id, n)
            SELECT module, day, status_id, sum(delta) FROM moved GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
            ORDER BY 1, 2, 3
            ON CONFLICT (module, day, status_id) DO UPDATE SET n = r.n + EXCLUDED.n
            RETURNING 1
          )
          SELECT count(*)::int AS n FROM moved`,
        );
        if (!r?.n) return 0; // nothing folded: no row can have dropped to zero
        const zero = sql.raw(COUNT_COLUMNS.map((c) => `${c} = 0`).join(' AND '));
        await tx.execute(sql`DELETE FROM event_day_counts WHERE ${zero}`);
        await tx.execute(sql`DELETE FROM event_day_status_counts WHERE n = 0`);
        await tx.execute(sql`DELETE FROM event_module_day_counts WHERE ${zero}`);
        await tx.execute(sql`DELETE FROM event_module_day_status_counts WHERE n = 0`);
        await tx.execute(BUMP_GENERATION);
        return r?.n ?? 0;
      });
    },

    /**
     * Rebuilds the rollups from `events` (first start after the upgrade, or after a repair). Holds a
     * SHARE lock on events meanwhile, so no write slips between the count and the reset of the deltas.
     */
    async rebuild(tz: string): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE events IN SHARE MODE`);
        await tx.execute(sql`DELETE FROM event_count_deltas`);
        await tx.execute(sql`DELETE FROM event_day_counts`);
        await tx.execute(sql`DELETE FROM event_day_status_counts`);
        await tx.execute(sql`DELETE FROM event_module_day_counts`);
        await tx.execute(sql`DELETE FROM event_module_day_status_counts`);
        await tx.execute(sql`
          INSERT INTO event_count_deltas (company_id, module, day, priority_id, status_id, connotation, delta)
          SELECT company_id, module, (created_at AT TIME ZONE ${tz})::date, coalesce(priority_id, 0), status_id,
                 CASE WHEN module = ANY(${sql.raw(SENTIMENT_MODULES)}) THEN coalesce(data ->> 'connotation', 'Undefined') ELSE '' END, count(*)
          FROM events GROUP BY 1, 2, 3, 4, 5, 6`);
        await tx.execute(BUMP_GENERATION);
        const [n] = await rowsOf<{ n: number }>(tx, sql`SELECT count(*)::bigint AS n FROM events`);
        return Number(n?.n ?? 0);
      });
    },

    /** Reclaims the folded deltas' space (VACUUM cannot run inside a transaction: a plain statement). */
    async vacuumDeltas(): Promise<void> {
      await db.execute(sql`VACUUM (ANALYZE) event_count_deltas`);
    },

    /** Was the one-time seeding `name` (the rollup backfill) done? */
    seeded: seeds.done,
    markSeeded: seeds.mark,

    /**
     * SLA figures of the home page (not from the rollups: the events' SLA columns are read directly,
     * by index). Overdue and open now — open events with a pending deadline (partial index
     * events_sla_due_idx, index-only); medians — percentile_cont of the seconds from creation to first
     * triage / to resolution over the events created in the period (events_*_created_idx ranges).
     * Grouped by module and by company (GROUPING SETS): a module's median is over all its events.
     */
    async slaSummary(f: RollupFilter & { tz: string }): Promise<
      {
        module: string | null;
        company_id: number | null;
        company_name: string | null;
        overdue: number;
        open: number;
        mt: number | null;
        mr: number | null;
      }[]
    > {
      const scope = and([
        sql`e.module = ANY(${textArray(f.modules)})`,
        ...(f.companies === 'all' ? [] : [sql`e.company_id = ANY(${intArray(f.companies)})`]),
      ]);
      const from = sql`(${f.from}::date::timestamp AT TIME ZONE ${f.tz})`;
      const to = sql`((${f.to}::date + 1)::timestamp AT TIME ZONE ${f.tz})`;
      return rowsOf(
        db,
        sql`WITH o AS (
              SELECT coalesce(e.module, '#' || e.company_id) AS k, e.module, e.company_id, count(*) FILTER (WHERE e.sla_due_at < now())::int AS overdue, count(*)::int AS open
                FROM events e WHERE e.sla_due_at IS NOT NULL AND ${scope}
               GROUP BY GROUPING SETS ((e.module), (e.company_id))),
            m AS (
              SELECT coalesce(e.module, '#' || e.company_id) AS k, e.module, e.company_id,
                     percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.triaged_at - e.created_at))
                       FILTER (WHERE e.triaged_at IS NOT NULL) AS mt,
                     percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.resolved_at - e.created_at))
                       FILTER (WHERE e.resolved_at IS NOT NULL) AS mr
                FROM events e WHERE e.created_at >= ${from} AND e.created_at < ${to} AND ${scope}
               GROUP BY GROUPING SETS ((e.module), (e.company_id)))
            SELECT coalesce(o.module, m.module) AS module, coalesce(o.company_id, m.company_id) AS company_id,
                   coalesce(o.overdue, 0) AS overdue, coalesce(o.open, 0) AS open, m.mt, m.mr, c.name AS company_name
              FROM o FULL JOIN m USING (k)
              LEFT JOIN companies c ON c.id = coalesce(o.company_id, m.company_id)`,
      );
    },

    async refs(): Promise<{
      statuses: { id: number; module: string; code: string; name: string; color: string; sort: number; is_final: boolean }[];
      priorities: { id: number; module: string; code: string; name: string; color: string; level: number }[];
    }> {
      const [statuses, priorities] = await Promise.all([
        rowsOf<{ id: number; module: string; code: string; name: string; color: string; sort: number; is_final: boolean }>(
          db,
          sql`SELECT id, module, code, name, color, sort, is_final FROM event_statuses ORDER BY module, sort`,
        ),
        rowsOf<{ id: number; module: string; code: string; name: string; color: string; level: number }>(
          db,
          sql`SELECT id, module, code, name, color, level FROM event_priorities ORDER BY module, level`,
        ),
      ]);
      return { statuses, priorities };
    },
  };
}
export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
