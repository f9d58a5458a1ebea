import { generatePassword } from '@forpost/contract/helpers';
import { type CompanyRole, companiesWith, isStaff, type Principal, type UserRole } from '@forpost/contract/permissions';
import { type createUserRequest, USER_MSG, type updateUserRequest, type userResponse } from '@forpost/contract/users';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { iso, isUniqueViolation } from '../../lib/serialize';
import { createApiKeysRepo } from '../apikeys/index';
import { createSessionsRepo, createUsersRepo, type CompanyLink as ShownLink, type UserRow } from '../auth/index';
import type { CompaniesRepo } from '../companies/index';

type CompanyLink = { company_id: number; role: CompanyRole };
const ADMIN_ROLES: readonly UserRole[] = ['SUPER_ADMIN', 'ADMIN'];

export interface PasswordLinks {
  /** Issues an invitation (set-password) link and mails it. */
  invite(user: { id: number; email: string; name: string }): Promise<void>;
}

export function createUsersService(deps: { db: Db; audit: Audit; links: PasswordLinks; companies: CompaniesRepo }) {
  const { db, audit } = deps;
  const repo = createUsersRepo(db);
  const sessions = createSessionsRepo(db);
  const keys = createApiKeysRepo(db);
  const companies = deps.companies;

  /** Companies whose users the principal manages ('all' for staff admins). */
  const managed = (p: Principal) => companiesWith(p, 'users.manage');
  const readable = (p: Principal) => companiesWith(p, 'users.read');

  function toUser(u: UserRow, links: ShownLink[], lastLogin?: Date, visibleCompanies?: 'all' | number[]) {
    const shown =
      visibleCompanies && visibleCompanies !== 'all' ? links.filter((l) => visibleCompanies.includes(l.company_id)) : links;
    return {
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      is_active: u.isActive,
      is_2fa_enabled: u.is2faEnabled,
      allowed_ips: u.allowedIps,
      pending_activation: u.pendingActivation,
      companies: shown,
      created_at: iso(u.createdAt),
      last_login_at: iso(lastLogin),
    } satisfies z.infer<typeof userResponse>;
  }

  /** The user, if visible to the principal (staff: all; company admins: members of their companies). 404 otherwise. */
  async function visibleUser(_p: Principal, id: number, scope: 'all' | number[]) {
    const u = await repo.find(id);
    if (!u) throw notFound('Пользователь не найден');
    if (scope === 'all') return u;
    if (u.role !== 'COMPANY_USER') throw notFound('Пользователь не найден');
    if (!(await repo.memberIn(id, scope))) throw notFound('Пользователь не найден');
    return u;
  }

  /** Role rules: only SUPER_ADMIN touches admins; company admins only create company users in their companies. */
  function checkRoleChange(p: Principal, actorId: number, target: { id?: number; role?: UserRole }, newRole: UserRole) {
    if ((ADMIN_ROLES.includes(newRole) || (target.role && ADMIN_ROLES.includes(target.role))) && p.role !== 'SUPER_ADMIN') {
      throw forbidden(USER_MSG.onlySuperAdmin);
    }
    if (!isStaff(p.role) && newRole !== 'COMPANY_USER') throw forbidden(USER_MSG.onlySuperAdmin);
    if (target.id === actorId && target.role && ADMIN_ROLES.includes(target.role) && !ADMIN_ROLES.includes(newRole)) {
      throw badRequest(USER_MSG.selfDemote);
    }
  }

  async function checkCompanies(p: Principal, role: UserRole, links: CompanyLink[]) {
    if (role !== 'COMPANY_USER' && links.length)
      throw badRequest(USER_MSG.staffNoCompanies, { companies: USER_MSG.staffNoCompanies });
    const scope = managed(p);
    const ids = [...new Set(links.map((l) => l.company_id))];
    if (scope !== 'all' && ids.some((id) => !scope.includes(id))) throw forbidden(USER_MSG.foreignCompany);
    if (ids.length) {
      const found = await companies.existing(ids);
      if (found.length !== ids.length) throw badRequest(USER_MSG.unknownCompany, { companies: USER_MSG.unknownCompany });
    }
  }

  /** Replace the user's memberships within the companies the principal manages (others stay). */
  async function setLinks(tx: Db, p: Principal, userId: number, links: CompanyLink[]) {
    await repo.leaveCompanies(userId, managed(p), tx);
    await repo.joinCompanies(userId, links, tx);
  }

  /** Ending access at once: sessions revoked, API keys switched off. */
  async function endAccess(tx: Db, userId: number, reason: string) {
    await sessions.revokeAllForUser(userId, reason, null, tx);
    await keys.setOwnerKeysActive(userId, false, tx);
  }

  async function one(p: Principal, u: UserRow) {
    const [links, logins] = await Promise.all([repo.linksOf([u.id]), sessions.lastLogins([u.id])]);
    return toUser(u, links.get(u.id) ?? [], logins.get(u.id), readable(p));
  }

  return {
    async list(
      { auth: { principal: p } }: Caller,
      q: { page: number; page_size: number; q?: string; role?: UserRole; company_id?: number; is_active?: 'true' | 'false' },
    ) {
      const scope = readable(p);
      if (scope !== 'all' && !scope.length) return { items: [], total: 0, page: q.page, page_size: q.page_size };
      if (scope !== 'all' && q.company_id && q.company_id > 0 && !scope.includes(q.company_id)) {
        return { items: [], total: 0, page: q.page, page_size: q.page_size };
      }
      const { rows, total } = await repo.list({
        scope,
        companyId: q.company_id && q.company_id > 0 ? q.company_id : undefined,
        q: q.q,
        role: q.role,
        isActive: q.is_active ? q.is_active === 'true' : undefined,
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      const ids = rows.map((r) => r.id);
      const [links, logins] = await Promise.all([repo.linksOf(ids), sessions.lastLogins(ids)]);
      return {
        items: rows.map((u) => toUser(u, links.get(u.id) ?? [], logins.get(u.id), scope)),
        total,
        page: q.page,
        page_size: q.page_size,
      };
    },

    async get({ auth: { principal: p } }: Caller, id: number) {
      return one(p, await visibleUser(p, id, readable(p)));
    },

    async create({ auth: { principal: p, user: me }, actor }: Caller, body: z.infer<typeof createUserRequest>) {
      checkRoleChange(p, me.id, {}, body.role);
      if (body.role === 'COMPANY_USER' && !body.companies.length && !body.pending_activation && !isStaff(p.role)) {
        throw badRequest(USER_MSG.companyUserNeedsCompany, { companies: USER_MSG.companyUserNeedsCompany });
      }
      await checkCompanies(p, body.role, body.companies);
      const generated = body.password_mode === 'generate' ? generatePassword(20) : undefined;
      const hash = generated ? await hashPassword(generated) : null;
      let u: UserRow;
      try {
        u = await db.transaction(async (tx) => {
          const row = await repo.insert(
            {
              email: body.email,
              name: body.name,
              role: body.role,
              isActive: body.is_active,
              allowedIps: body.allowed_ips,
              pendingActivation: body.pending_activation,
              passwordHash: hash,
              passwordChangedAt: hash ? new Date() : null,
            },
            tx,
          );
          await setLinks(tx, p, row.id, body.companies);
          const { password_mode, ...logged } = body;
          await audit.record(
            actor,
            { action: 'user.create', entity: 'user', entityId: row.id, after: { ...logged, password_mode } },
            tx,
          );
          return row;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(USER_MSG.emailTaken, { email: USER_MSG.emailTaken });
        throw e;
      }
      if (body.password_mode === 'invite') await deps.links.invite(u);
      return { ...(await one(p, u)), ...(generated ? { generated_password: generated } : { invite_sent: true }) };
    },

    async update({ auth: { principal: p, user: me }, actor }: Caller, id: number, body: z.infer<typeof updateUserRequest>) {
      const before = await visibleUser(p, id, managed(p));
      const role = body.role ?? before.role;
      if (body.role || ADMIN_ROLES.includes(before.role)) checkRoleChange(p, me.id, before, role);
      if (body.companies) await checkCompanies(p, role, body.companies);
      if (body.role && body.role !== 'COMPANY_USER' && !body.companies) {
        // Staff see every company: memberships are dropped.
        body = { ...body, companies: [] };
      }
      const beforeView = await one(p, before);
      try {
        await db.transaction(async (tx) => {
          if (
            before.role === 'SUPER_ADMIN' &&
            (role !== 'SUPER_ADMIN' || body.is_active === false) &&
            (await repo.superAdminsLeft(id, tx)) === 0
          ) {
            throw badRequest(USER_MSG.lastSuperAdmin);
          }
          if (id === me.id && body.is_active === false) throw badRequest('Нельзя отключить собственную учётную запись');
          await repo.update(
            id,
            {
              ...(body.email !== undefined && { email: body.email }),
              ...(body.name !== undefined && { name: body.name }),
              ...(body.role !== undefined && { role: body.role }),
              ...(body.is_active !== undefined && { isActive: body.is_active }),
              ...(body.allowed_ips !== undefined && { allowedIps: body.allowed_ips }),
              ...(body.pending_activation !== undefined && { pendingActivation: body.pending_activation }),
              ...(body.reset_2fa && { is2faEnabled: false, totpSecret: null, totpLastStep: null }),
            },
            tx,
          );
          if (body.reset_2fa) await repo.replaceRecoveryCodes(id, [], tx);
          if (body.companies) await setLinks(tx, p, id, body.companies);
          if (body.is_active === false) await endAccess(tx, id, 'deactivated');
          else if (body.is_active === true && !before.isActive) {
            await keys.setOwnerKeysActive(id, true, tx);
          }
          await audit.record(
            actor,
            {
              action: body.reset_2fa ? 'user.reset_2fa' : 'user.update',
              entity: 'user',
              entityId: id,
              before: beforeView,
              after: body,
            },
            tx,
          );
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(USER_MSG.emailTaken, { email: USER_MSG.emailTaken });
        throw e;
      }
      return one(p, (await repo.find(id)) as UserRow);
    },

    async roles({ auth: { principal: p } }: Caller, id: number) {
      const u = await visibleUser(p, id, readable(p));
      const view = await one(p, u);
      return { role: u.role, companies: view.companies.map((c) => ({ company_id: c.company_id, role: c.role })) };
    },

    async remove({ auth: { principal: p, user: me }, actor }: Caller, id: number) {
      if (id === me.id) throw badRequest(USER_MSG.selfDelete);
      const u = await visibleUser(p, id, managed(p));
      if (ADMIN_ROLES.includes(u.role) && p.role !== 'SUPER_ADMIN') throw forbidden(USER_MSG.onlySuperAdmin);
      await db.transaction(async (tx) => {
        if (u.role === 'SUPER_ADMIN' && (await repo.superAdminsLeft(id, tx)) === 0) throw badRequest(USER_MSG.lastSuperAdmin);
        // A company admin removes the user from their companies only; the account is deleted when no company is left.
        const scope = managed(p);
        if (scope !== 'all') {
          await repo.leaveCompanies(id, scope, tx);
          if ((await repo.membershipsCount(id, tx)) > 0) {
            await audit.record(
              actor,
              { action: 'user.remove_from_companies', entity: 'user', entityId: id, meta: { companies: scope } },
              tx,
            );
            return;
          }
        }
        await endAccess(tx, id, 'deleted');
        await repo.remove(id, tx);
        await audit.record(
          actor,
          { action: 'user.delete', entity: 'user', entityId: id, before: { email: u.email, role: u.role } },
          tx,
        );
      });
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
