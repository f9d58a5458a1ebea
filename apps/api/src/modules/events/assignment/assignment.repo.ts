/* SQL of assignment: who may be assigned (users, their memberships) and «Мои события». */
import type { MyEventsQuery } from '@forpost/contract/assignment';
import type { ModuleCode } from '@forpost/contract/modules';
import { foldSearch } from '@forpost/contract/notifications';
import type { UserRole } from '@forpost/contract/permissions';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { containing, intArray, rowsOf, textArray } from '../../../db/sql';
import { and } from '../list/events.query';

/** A text column as the pickers search it: lower case, «ё» as «е» (like contract foldSearch). */
const folded = (col: SQL) => sql`translate(lower(${col}), 'ё', 'е')`;

/** A user as the assignment rule judges them: role, activity, memberships in active companies. */
export interface AssignableUser {
  id: number;
  name: string;
  email: string;
  role: UserRole;
  is_active: boolean;
  memberships: { company_id: number; role: 'COMPANY_ADMIN' | 'COMPANY_ANALYST' | 'COMPANY_VIEWER'; modules: string[] }[];
}

export interface MyEventRow {
  id: number;
  module: ModuleCode;
  company_id: number;
  company_name: string;
  title: string;
  status_id: number;
  status_name: string;
  status_color: string;
  status_final: boolean;
  priority_id: number | null;
  priority_name: string | null;
  priority_color: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  sla_due_at: Date | string | null;
  sla_stage: 'triage' | 'resolve' | null;
  triaged_at: Date | string | null;
  resolved_at: Date | string | null;
  assignee_id: number | null;
  assignee_name: string | null;
}

/** «Мои события» orders; `sla_due_at`: the nearest deadline first, none last (then the newest). */
const MY_ORDER: Record<MyEventsQuery['sort'], SQL> = {
  sla_due_at: sql`e.sla_due_at ASC NULLS LAST, e.created_at DESC, e.id DESC`,
  '-sla_due_at': sql`e.sla_due_at DESC NULLS LAST, e.created_at DESC, e.id DESC`,
  '-created_at': sql`e.created_at DESC, e.id DESC`,
  created_at: sql`e.created_at ASC, e.id ASC`,
  '-priority': sql`p.level DESC NULLS LAST, e.created_at DESC, e.id DESC`,
  priority: sql`p.level ASC NULLS FIRST, e.created_at DESC, e.id DESC`,
  status: sql`s.is_final ASC, s.sort ASC, e.created_at DESC, e.id DESC`,
  '-status': sql`s.is_final DESC, s.sort DESC, e.created_at DESC, e.id DESC`,
};

/** Which of a user's assigned events «Мои события» shows. */
export interface MineFilter {
  userId: number;
  /** The companies the user may read ('all': staff); a company user sees only the modules their company takes. */
  scope: number[] | 'all';
  module?: string;
  status?: string[];
  open?: boolean;
}

/** The condition of «Мои события» over `events e`, `companies c`, `event_statuses s`. */
function mineWhere(f: MineFilter): SQL {
  const where: SQL[] = [sql`e.assignee_id = ${f.userId}`];
  if (f.scope !== 'all') {
    where.push(sql`e.company_id = ANY(${intArray(f.scope)})`);
    where.push(sql`(cardinality(c.modules) = 0 OR e.module = ANY(c.modules))`);
  }
  if (f.module) where.push(sql`e.module = ${f.module}`);
  if (f.status?.length) where.push(sql`s.code = ANY(${textArray(f.status)})`);
  if (f.open) where.push(sql`NOT s.is_final`);
  return and(where);
}

export function createAssignmentRepo(db: Db) {
  return {
    /** These users with their memberships in active companies (and those companies' enabled modules). */
    async users(ids: number[], tx: Db = db): Promise<AssignableUser[]> {
      if (!ids.length) return [];
      return rowsOf<AssignableUser>(
        tx,
        sql`SELECT u.id, u.name, u.email, u.role, u.is_active,
                   coalesce((SELECT json_agg(json_build_object('company_id', m.company_id, 'role', m.role, 'modules', c.modules))
                             FROM company_members m JOIN companies c ON c.id = m.company_id
                             WHERE m.user_id = u.id AND c.is_active), '[]'::json) AS memberships
            FROM users u WHERE u.id = ANY(${intArray(ids)})`,
      );
    },

    /**
     * Active users who may see a company's events of a module, by name: staff (when `staff`) and the
     * company's members where the company takes the module. At most 50.
     */
    async candidates(p: { companyId: number | null; module: string; staff: boolean; q?: string }) {
      // Any case, «ё» as «е» (contract foldSearch does the same to the typed text).
      const like = p.q ? containing(foldSearch(p.q)) : '';
      const text = p.q ? sql` AND (${folded(sql`u.name`)} LIKE ${like} OR ${folded(sql`u.email`)} LIKE ${like})` : sql``;
      const staff = p.staff ? sql`u.role <> 'COMPANY_USER' OR ` : sql``;
      return rowsOf<{ id: number; name: string; email: string }>(
        db,
        sql`SELECT u.id, u.name, u.email FROM users u
            WHERE u.is_active AND (${staff}EXISTS (
              SELECT 1 FROM company_members m JOIN companies c ON c.id = m.company_id
              WHERE m.user_id = u.id AND m.company_id = ${p.companyId} AND c.is_active
                AND (cardinality(c.modules) = 0 OR ${p.module} = ANY(c.modules))))${text}
            ORDER BY lower(u.name), u.id LIMIT 50`,
      );
    },

    /**
     * A page of one user's assigned events within `scope` (companies; 'all' for staff), walking the
     * partial index `events_assignee_created_idx`.
     */
    async mine(p: { filter: MineFilter; sort: MyEventsQuery['sort']; limit: number; offset: number }): Promise<MyEventRow[]> {
      return rowsOf<MyEventRow>(
        db,
        sql`SELECT e.id, e.module, e.company_id, c.name AS company_name, e.title, e.status_id,
                   s.name AS status_name, s.color AS status_color, s.is_final AS status_final,
                   e.priority_id, p.name AS priority_name, p.color AS priority_color, e.created_at, e.updated_at,
                   e.sla_due_at, e.sla_stage, e.triaged_at, e.resolved_at, e.assignee_id, u.name AS assignee_name
            FROM events e JOIN companies c ON c.id = e.company_id
            LEFT JOIN users u ON u.id = e.assignee_id
            JOIN event_statuses s ON s.id = e.status_id
            LEFT JOIN event_priorities p ON p.id = e.priority_id
            WHERE ${mineWhere(p.filter)}
            ORDER BY ${MY_ORDER[p.sort]} LIMIT ${p.limit} OFFSET ${p.offset}`,
      );
    },

    /** Does `where` (over `events e`) select an event outside these companies? */
    async anyOutside(where: SQL, companyIds: number[]): Promise<boolean> {
      const [r] = await rowsOf<{ x: number }>(
        db,
        sql`SELECT 1 AS x FROM events e WHERE ${where} AND NOT (e.company_id = ANY(${intArray(companyIds)})) LIMIT 1`,
      );
      return r !== undefined;
    },

    async countMine(filter: MineFilter, cap: number): Promise<number> {
      const [r] = await rowsOf<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM (
              SELECT 1 FROM events e JOIN companies c ON c.id = e.company_id JOIN event_statuses s ON s.id = e.status_id
              WHERE ${mineWhere(filter)} LIMIT ${cap + 1}) x`,
      );
      return r?.n ?? 0;
    },
  };
}
export type AssignmentRepo = ReturnType<typeof createAssignmentRepo>;
