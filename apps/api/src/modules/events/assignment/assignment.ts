/*
 * Assignment rules, in one place: who may be an event's assignee (an active user who may read it —
 * staff, or a member of its company when the company takes its module), the picker's list of such
 * users, and «Мои события» (the caller's assigned events across every module they may read).
 * The write itself goes through the events service (patch, batch, bulk) like any triage field.
 */
import { ASSIGN_MSG, type MyEventsQuery } from '@forpost/contract/assignment';
import { COUNT_CAP } from '@forpost/contract/events';
import { EVENT_MSG, type ModuleDescriptor } from '@forpost/contract/modules';
import { COMPANY_PERMISSIONS, companiesWith, isStaff, STAFF_PERMISSIONS } from '@forpost/contract/permissions';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { assertModule, assertOn, type Caller } from '../../../lib/caller';
import { badRequest } from '../../../lib/errors';
import { iso } from '../../../lib/serialize';
import { slaView } from '../../sla/index';
import type { Assignee } from '../write/changes';
import { moduleEnabled } from '../write/events.deps';
import { type AssignableUser, createAssignmentRepo } from './assignment.repo';

/** Where an event is: what decides who may see it. */
export interface EventPlace {
  companyId: number;
  /** null: any module of the company (a mailing's filter over all of them). */
  module: string | null;
}

/** May this user read events of this company and module? */
export function maySee(u: AssignableUser, at: EventPlace): boolean {
  if (!u.is_active) return false;
  if (isStaff(u.role)) return STAFF_PERMISSIONS[u.role].includes('events.read');
  return u.memberships.some(
    (m) =>
      m.company_id === at.companyId &&
      COMPANY_PERMISSIONS[m.role].includes('events.read') &&
      (at.module === null || moduleEnabled(m.modules, at.module)),
  );
}

/**
 * Whether a caller's picker offers staff: only to a signed-in staff user. A company user or an API key
 * is offered the members of the event's company only — and may assign no one else (issue #28).
 */
export function offersStaff(c: Caller): boolean {
  return c.auth.keyId === null && isStaff(c.auth.principal.role);
}

/** The one rule of who a caller may assign: someone their picker offers for this place. */
export function mayAssign(staffOffered: boolean, u: AssignableUser, at: EventPlace): boolean {
  return maySee(u, at) && (staffOffered || !isStaff(u.role));
}

const cannotSee = () => badRequest(ASSIGN_MSG.cannotSee, { assignee_id: ASSIGN_MSG.cannotSee });

export function createAssignment(db: Db) {
  const repo = createAssignmentRepo(db);

  return {
    /**
     * The assignee `id` for events at these places, or 400 when the caller's picker would not offer
     * them for one of the places (they cannot see it, or they are staff and the caller is not).
     */
    async assignee(c: Caller, id: number, places: readonly EventPlace[], tx: Db = db): Promise<Assignee> {
      const [u] = await repo.users([id], tx);
      const staffOffered = offersStaff(c);
      if (!u?.is_active || places.some((p) => !mayAssign(staffOffered, u, p))) throw cannotSee();
      return { id: u.id, name: u.name };
    },

    /**
     * Before a bulk assignment by filter (`where` over `events e` of module `m`): 400 unless the
     * assignee may see every selected event (each chunk checks its own again).
     */
    async assigneeForAll(c: Caller, id: number, m: ModuleDescriptor, where: SQL): Promise<void> {
      const [u] = await repo.users([id]);
      if (!u?.is_active) throw cannotSee();
      if (isStaff(u.role)) {
        if (offersStaff(c)) return;
        throw cannotSee();
      }
      const seen = u.memberships.map((x) => x.company_id).filter((companyId) => maySee(u, { companyId, module: m.code }));
      if (await repo.anyOutside(where, seen)) throw cannotSee();
    },

    /** Which of these users may see an event at `at` (mentions notify only them). */
    async seeing(ids: number[], at: EventPlace, tx: Db = db): Promise<AssignableUser[]> {
      return (await repo.users(ids, tx)).filter((u) => maySee(u, at));
    },

    /**
     * The picker: users who may be assigned the company's events of module `m`. Staff callers see
     * staff and the company's members; company users and API keys only the company's members.
     */
    async candidates(c: Caller, m: ModuleDescriptor, q: { company_id?: number; q?: string }) {
      assertModule(c, m.code);
      const staff = offersStaff(c);
      let companyId: number | null = q.company_id ?? null;
      if (companyId === null && !staff) {
        const own = companiesWith(c.auth.principal, 'events.read');
        if (own === 'all' || own.length !== 1)
          throw badRequest(EVENT_MSG.companyRequired, { company_id: EVENT_MSG.companyRequired });
        companyId = own[0] as number;
      }
      if (companyId !== null) assertOn(c, 'events.read', companyId, EVENT_MSG.companyNotFound);
      return { items: await repo.candidates({ companyId, module: m.code, staff, q: q.q }) };
    },

    /** «Мои события»: the caller's assigned events in the companies (and, for company users, modules) they may read. */
    async mine(c: Caller, q: MyEventsQuery) {
      const scope = companiesWith(c.auth.principal, 'events.read');
      const empty = { items: [], total: 0, page: q.page, page_size: q.page_size, total_capped: false };
      if (scope !== 'all' && !scope.length) return empty;
      const filter = { userId: c.auth.user.id, scope, module: q.module, status: q.status, open: q.open };
      const offset = (q.page - 1) * q.page_size;
      const rows = await repo.mine({ filter, sort: q.sort, limit: q.page_size, offset });
      const counted =
        rows.length < q.page_size && (rows.length > 0 || offset === 0)
          ? offset + rows.length
          : await repo.countMine(filter, COUNT_CAP);
      return {
        items: rows.map(({ sla_due_at, sla_stage, triaged_at, resolved_at, ...r }) => ({
          ...r,
          sla: slaView({ sla_due_at, sla_stage, triaged_at, resolved_at }),
          id: Number(r.id),
          created_at: iso(r.created_at) as string,
          updated_at: iso(r.updated_at) as string,
        })),
        total: Math.min(counted, COUNT_CAP),
        page: q.page,
        page_size: q.page_size,
        total_capped: counted > COUNT_CAP,
      };
    },
  };
}
export type Assignment = ReturnType<typeof createAssignment>;
