import {
  type companyDetailResponse,
  type companyResponse,
  type createCompanyRequest,
  type createProductKeyRequest,
  PRODUCT_KEY_MSG,
  type productKeyResponse,
  type updateCompanyRequest,
} from '@forpost/contract/companies';
import { can, companiesWith, type Principal } from '@forpost/contract/permissions';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { randomToken, sha256 } from '../../lib/crypto';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { iso, isUniqueViolation } from '../../lib/serialize';
import type { FailureLimiter } from '../auth/index';
import { createUsersRepo } from '../auth/index';
import { type CompanyRow, createCompaniesRepo, type KeyRow } from './companies.repo';

const COMPANY_MSG = {
  nameTaken: 'Компания с таким названием уже существует',
  deleteActive: 'Сначала отключите компанию, затем удалите её',
  unknownUser: 'Пользователь не найден',
  staffMember: 'Сотрудники видят все компании: добавлять их участниками не нужно',
} as const;

function toCompany(c: CompanyRow, membersCount: number): z.infer<typeof companyResponse> {
  return {
    id: c.id,
    name: c.name,
    legal_name: c.legalName,
    inn: c.inn,
    ogrn: c.ogrn,
    contact_name: c.contactName,
    contact_email: c.contactEmail,
    contact_phone: c.contactPhone,
    modules: c.modules,
    is_active: c.isActive,
    members_count: membersCount,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

function keyStatus(k: KeyRow, now = new Date()): 'active' | 'expired' | 'revoked' | 'exhausted' {
  if (k.revokedAt) return 'revoked';
  if (k.validUntil && k.validUntil <= now) return 'expired';
  if (k.activations >= k.maxActivations) return 'exhausted';
  return 'active';
}
function toKey(k: KeyRow): z.infer<typeof productKeyResponse> {
  return {
    id: k.id,
    company_id: k.companyId,
    key_prefix: k.keyPrefix,
    company_role: k.companyRole,
    modules: k.modules,
    valid_until: iso(k.validUntil),
    max_activations: k.maxActivations,
    activations: k.activations,
    comment: k.comment,
    status: keyStatus(k),
    created_at: iso(k.createdAt),
  };
}

/** Product key text: FP-XXXXX-XXXXX-XXXXX-XXXXX (Crockford base32, 100 bits). */
function newProductKey(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = Buffer.from(randomToken(20), 'base64url');
  let s = '';
  for (let i = 0; i < 20; i++) s += alphabet[(bytes[i] ?? 0) % 32];
  return `FP-${s.slice(0, 5)}-${s.slice(5, 10)}-${s.slice(10, 15)}-${s.slice(15, 20)}`;
}
const normaliseKey = (k: string) => k.trim().toUpperCase().replace(/\s+/g, '');

export function createCompaniesService(deps: { db: Db; audit: Audit; limiter: FailureLimiter }) {
  const { db, audit, limiter } = deps;
  const repo = createCompaniesRepo(db);
  const usersRepo = createUsersRepo(db);

  /** The company, if the principal may `perm` it; 404 otherwise (never reveal other tenants' ids). */
  async function visible(p: Principal, id: number, perm: Parameters<typeof can>[1] = 'companies.read') {
    const c = await repo.find(id);
    if (!c || !can(p, perm, id)) {
      if (c && can(p, 'companies.read', id)) throw forbidden();
      throw notFound('Компания не найдена');
    }
    return c;
  }

  async function setMembers(
    tx: Db,
    companyId: number,
    list: { user_id: number; role: 'COMPANY_ADMIN' | 'COMPANY_ANALYST' | 'COMPANY_VIEWER' }[],
  ) {
    const ids = [...new Set(list.map((m) => m.user_id))];
    if (ids.length) {
      const found = await usersRepo.roles(ids, tx);
      if (found.length !== ids.length) throw badRequest(COMPANY_MSG.unknownUser, { members: COMPANY_MSG.unknownUser });
      if (found.some((u) => u.role !== 'COMPANY_USER'))
        throw badRequest(COMPANY_MSG.staffMember, { members: COMPANY_MSG.staffMember });
    }
    await repo.replaceMembers(
      companyId,
      list.map((m) => ({ userId: m.user_id, role: m.role })),
      tx,
    );
  }

  async function detail(c: CompanyRow): Promise<z.infer<typeof companyDetailResponse>> {
    const m = await repo.members(c.id);
    return { ...toCompany(c, m.length), members: m };
  }

  return {
    visible,
    async list(
      { auth: { principal: p } }: Caller,
      q: { page: number; page_size: number; q?: string; is_active?: 'true' | 'false' },
    ) {
      const scope = companiesWith(p, 'companies.read');
      if (scope !== 'all' && scope.length === 0) return { items: [], total: 0, page: q.page, page_size: q.page_size };
      const { rows, total } = await repo.list({
        scope,
        q: q.q,
        isActive: q.is_active ? q.is_active === 'true' : undefined,
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      return {
        items: rows.map((r) => toCompany(r.company, r.membersCount)),
        total,
        page: q.page,
        page_size: q.page_size,
      };
    },

    async get({ auth: { principal: p } }: Caller, id: number) {
      return detail(await visible(p, id));
    },

    async create({ actor }: Caller, body: z.infer<typeof createCompanyRequest>) {
      try {
        return await db.transaction(async (tx) => {
          const c = await repo.insert(
            {
              name: body.name,
              legalName: body.legal_name ?? null,
              inn: body.inn ?? null,
              ogrn: body.ogrn ?? null,
              contactName: body.contact_name ?? null,
              contactEmail: body.contact_email ?? null,
              contactPhone: body.contact_phone ?? null,
              modules: body.modules ?? [],
              isActive: body.is_active ?? true,
            },
            tx,
          );
          if (body.members) await setMembers(tx, c.id, body.members);
          await audit.record(
            actor,
            { action: 'company.create', entity: 'company', entityId: c.id, companyId: c.id, after: body },
            tx,
          );
          return c;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(COMPANY_MSG.nameTaken, { name: COMPANY_MSG.nameTaken });
        throw e;
      }
    },
    detail,

    async update({ auth: { principal: p }, actor }: Caller, id: number, body: z.infer<typeof updateCompanyRequest>) {
      const before = await visible(p, id, 'companies.update');
      try {
        const c = await db.transaction(async (tx) => {
          const c = await repo.update(
            id,
            {
              ...(body.name !== undefined && { name: body.name }),
              ...(body.legal_name !== undefined && { legalName: body.legal_name }),
              ...(body.inn !== undefined && { inn: body.inn }),
              ...(body.ogrn !== undefined && { ogrn: body.ogrn }),
              ...(body.contact_name !== undefined && { contactName: body.contact_name }),
              ...(body.contact_email !== undefined && { contactEmail: body.contact_email }),
              ...(body.contact_phone !== undefined && { contactPhone: body.contact_phone }),
              ...(body.modules !== undefined && { modules: body.modules }),
              ...(body.is_active !== undefined && { isActive: body.is_active }),
            },
            tx,
          );
          if (!c) throw notFound('Компания не найдена');
          if (body.members) await setMembers(tx, id, body.members);
          const action =
            body.is_active === false && before.isActive
              ? 'company.deactivate'
              : body.is_active === true && !before.isActive
                ? 'company.activate'
                : 'company.update';
          await audit.record(
            actor,
            { action, entity: 'company', entityId: id, companyId: id, before: toCompany(before, 0), after: body },
            tx,
          );
          return c;
        });
        return detail(c);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(COMPANY_MSG.nameTaken, { name: COMPANY_MSG.nameTaken });
        throw e;
      }
    },

    async remove({ auth: { principal: p }, actor }: Caller, id: number) {
      const c = await visible(p, id, 'companies.delete');
      if (c.isActive) throw conflict(COMPANY_MSG.deleteActive);
      await db.transaction(async (tx) => {
        await repo.remove(id, tx);
        await audit.record(actor, { action: 'company.delete', entity: 'company', entityId: id, before: toCompany(c, 0) }, tx);
      });
    },

    /* Product keys */
    async listKeys({ auth: { principal: p } }: Caller, companyId: number) {
      await visible(p, companyId, 'companies.keys');
      return { items: (await repo.keys(companyId)).map(toKey) };
    },

    async createKey({ auth: { principal: p }, actor }: Caller, companyId: number, body: z.infer<typeof createProductKeyRequest>) {
      await visible(p, companyId, 'companies.keys');
      const key = newProductKey();
      const k = await db.transaction(async (tx) => {
        const k = await repo.insertKey(
          {
            companyId,
            keyHash: sha256(normaliseKey(key)),
            keyPrefix: key.slice(0, 8),
            companyRole: body.company_role,
            modules: body.modules,
            validUntil: body.valid_until ? new Date(body.valid_until) : null,
            maxActivations: body.max_activations,
            comment: body.comment ?? null,
            createdBy: actor.userId ?? null,
          },
          tx,
        );
        await audit.record(
          actor,
          { action: 'product_key.create', entity: 'product_key', entityId: k.id, companyId, after: toKey(k) },
          tx,
        );
        return k;
      });
      return { ...toKey(k), key };
    },

    async revokeKey({ auth: { principal: p }, actor }: Caller, companyId: number, keyId: number) {
      await visible(p, companyId, 'companies.keys');
      await db.transaction(async (tx) => {
        const k = await repo.revokeKey(companyId, keyId, tx);
        if (!k) throw notFound('Ключ не найден');
        await audit.record(actor, { action: 'product_key.revoke', entity: 'product_key', entityId: k.id, companyId }, tx);
      });
    },

    async activations({ auth: { user } }: Caller) {
      const rows = await repo.activationsOf(user.id);
      return {
        items: rows.map((r) => ({
          company_id: r.company_id,
          company_name: r.company_name,
          key_prefix: r.key_prefix,
          activated_at: iso(r.at),
        })),
      };
    },

    /** Activation: distinct messages per failure; attempts limited per user and per IP. */
    async activate({ auth: { user }, actor }: Caller, keyText: string) {
      const ip = actor.ip ?? 'unknown';
      await limiter.check([
        ['activate_user', String(user.id)],
        ['activate_ip', ip],
      ]);
      const fail = async (message: string) => {
        await limiter.fail([
          ['activate_user', String(user.id)],
          ['activate_ip', ip],
        ]);
        await audit.record(actor, {
          action: 'product_key.activate_failed',
          entity: 'user',
          entityId: user.id,
          meta: { reason: message },
        });
        return badRequest(message, { key: message });
      };
      if (user.role !== 'COMPANY_USER') throw badRequest('Продуктовые ключи активируют пользователи компаний');
      return db.transaction(async (tx) => {
        const k = await repo.keyByHashForUpdate(sha256(normaliseKey(keyText)), tx);
        if (!k) throw await fail(PRODUCT_KEY_MSG.notFound);
        if (await repo.activated(k.id, user.id, tx)) throw await fail(PRODUCT_KEY_MSG.already);
        const status = keyStatus(k);
        if (status !== 'active') throw await fail(PRODUCT_KEY_MSG[status]);
        if (k.validFrom > new Date()) throw await fail(PRODUCT_KEY_MSG.notYetValid);
        const c = await repo.find(k.companyId, tx);
        if (!c?.isActive) throw await fail(PRODUCT_KEY_MSG.inactiveCompany);
        // The key's modules join the company's (none: the company keeps its own).
        const modules = k.modules.length ? [...new Set([...c.modules, ...k.modules])] : null;
        await repo.recordActivation(k, user.id, modules, tx);
        await usersRepo.update(user.id, { pendingActivation: false }, tx);
        await audit.record(
          actor,
          { action: 'product_key.activate', entity: 'product_key', entityId: k.id, companyId: k.companyId },
          tx,
        );
        return { company_id: c.id, company_name: c.name, role: k.companyRole };
      });
    },
  };
}
export type CompaniesService = ReturnType<typeof createCompaniesService>;
