/* SQL of related events: events sharing an indicator (events.indicators, GIN), within a tenant scope. */
import type { ModuleCode } from '@forpost/contract/modules';
import { RELATED_COUNT_CAP, RELATED_ITEMS } from '@forpost/contract/related';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { and, intArray, rowsOf, textArray } from '../../../db/sql';

export interface RelatedScope {
  /** Companies the caller may read; 'all' for staff with every company. */
  companies: 'all' | number[];
  /** Modules an API key is limited to (null: every module). */
  modules: string[] | null;
}

export interface RelatedRow {
  indicator: string;
  id: number;
  module: ModuleCode;
  company_id: number;
  company_name: string;
  title: string;
  status_id: number;
  priority_id: number | null;
  created_at: Date | string;
}

export function createRelatedRepo(db: Db) {
  const scopeOf = (s: RelatedScope, eventId: number): SQL =>
    and([
      sql`e.indicators @> ARRAY[i.ind]`,
      sql`e.id <> ${eventId}`,
      ...(s.companies === 'all' ? [] : [sql`e.company_id = ANY(${intArray(s.companies)})`]),
      ...(s.modules ? [sql`e.module = ANY(${textArray(s.modules)})`] : []),
    ]);
  return {
    /** The newest RELATED_ITEMS events per indicator (newest by id: the primary key serves frequent ones). */
    async items(indicators: string[], eventId: number, s: RelatedScope): Promise<RelatedRow[]> {
      return rowsOf<RelatedRow>(
        db,
        sql`SELECT i.ind AS indicator, x.*
              FROM unnest(${textArray(indicators)}) AS i(ind)
              CROSS JOIN LATERAL (
                SELECT e.id, e.module, e.company_id, c.name AS company_name, e.title, e.status_id, e.priority_id, e.created_at
                  FROM events e JOIN companies c ON c.id = e.company_id
                 WHERE ${scopeOf(s, eventId)}
                 ORDER BY e.id DESC
                 LIMIT ${RELATED_ITEMS}) x`,
      );
    },
    /** Matches per indicator and module, each indicator counted up to RELATED_COUNT_CAP + 1 rows. */
    async counts(indicators: string[], eventId: number, s: RelatedScope) {
      return rowsOf<{ indicator: string; module: ModuleCode; n: number }>(
        db,
        sql`SELECT i.ind AS indicator, x.module, count(*)::int AS n
              FROM unnest(${textArray(indicators)}) AS i(ind)
              CROSS JOIN LATERAL (
                SELECT e.module FROM events e WHERE ${scopeOf(s, eventId)} LIMIT ${RELATED_COUNT_CAP + 1}) x
             GROUP BY 1, 2`,
      );
    },
  };
}
export type RelatedRepo = ReturnType<typeof createRelatedRepo>;
