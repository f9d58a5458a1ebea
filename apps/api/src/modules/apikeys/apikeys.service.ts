import {
  API_KEY_PREFIX,
  type apiKeyResponse,
  type createApiKeyRequest,
  type updateApiKeyRequest,
} from '@forpost/contract/apikeys';
import type { KeyIdentity } from '@forpost/contract/auth';
import {
  COMPANY_PERMISSIONS,
  can,
  companiesWith,
  isStaff,
  type Permission,
  type Principal,
  STAFF_PERMISSIONS,
} from '@forpost/contract/permissions';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { randomToken, sha256 } from '../../lib/crypto';
import { badRequest, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import type { AuthContext } from '../auth/index';
import { type AccessCache, deepFreeze, type Expiring, ipAllowed } from '../auth/index';
import type { CompaniesRepo } from '../companies/index';
import { createApiKeysRepo, type ApiKeyRow as KeyRow } from './apikeys.repo';

type Role = { module: string; access: 'read' | 'write' };

const READ_PERMS: Permission[] = ['events.read', 'events.export', 'companies.read', 'discovery.read'];
// integrations.manage: a key whose owner may manage integrations; a key limited to some modules is refused by the
// integrations service (an endpoint would carry every module's events).
const WRITE_PERMS: Permission[] = [...READ_PERMS, 'events.write', 'events.import', 'discovery.manage', 'integrations.manage'];

/** What a key's roles grant, before intersecting with its owner's rights. */
function permissionsOfRoles(roles: Role[], collector: boolean): Permission[] {
  const set = new Set<Permission>();
  for (const r of roles) {
    for (const p of r.access === 'write' ? WRITE_PERMS : READ_PERMS) set.add(p);
    // Takedown requests are sent about domain events: a key that may change domains may send them.
    if (r.access === 'write' && (r.module === 'domains' || r.module === '*')) set.add('takedown.send');
  }
  if (collector) set.add('messages.collect');
  return [...set];
}

function ownerPermissions(role: string, companyRole: string | undefined): readonly Permission[] {
  if (role !== 'COMPANY_USER') return STAFF_PERMISSIONS[role as keyof typeof STAFF_PERMISSIONS] ?? [];
  return companyRole ? (COMPANY_PERMISSIONS[companyRole as keyof typeof COMPANY_PERMISSIONS] ?? []) : [];
}

const APIKEY_MSG = {
  notFound: 'API-ключ не найден',
  foreignCompany: 'Нельзя выпустить ключ для компании, которой вы не управляете',
  collectorStaff: 'Роль сборщика может выдать только сотрудник',
} as const;

export function createApiKeysService(deps: {
  companies: CompaniesRepo;
  db: Db;
  audit: Audit;
  /** Who a key is, for a few seconds (auth/access-cache.ts; ACCESS_CACHE_MS=0: read on every request). */
  access: AccessCache;
}) {
  const { db, audit, access } = deps;
  const repo = createApiKeysRepo(db);
  const companiesRepo = deps.companies;
  const toKey = (k: KeyRow, companyName: string): z.infer<typeof apiKeyResponse> => ({
    id: k.id,
    name: k.name,
    company_id: k.companyId,
    company_name: companyName,
    owner_user_id: k.ownerUserId,
    prefix: k.prefix,
    roles: k.roles,
    collector: k.collector,
    allowed_ips: k.allowedIps,
    expires_at: iso(k.expiresAt),
    is_active: k.isActive,
    last_used_at: iso(k.lastUsedAt),
    last_used_ip: k.lastUsedIp,
    created_at: iso(k.createdAt),
  });

  async function visible(p: Principal, id: number, perm: Permission) {
    const r = await repo.withCompany(id);
    if (!r || !can(p, perm, r.k.companyId)) throw notFound(APIKEY_MSG.notFound);
    return r;
  }

  const newSecret = () => {
    const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
    return { secret, hash: sha256(secret), prefix: `${secret.slice(0, 10)}…` };
  };

  return {
    async list({ auth: { principal: p } }: Caller, q: { page: number; page_size: number; company_id?: number; q?: string }) {
      const scope = companiesWith(p, 'apikeys.read');
      if (scope !== 'all' && !scope.length) return { items: [], total: 0, page: q.page, page_size: q.page_size };
      const { rows, total } = await repo.list({
        scope,
        companyId: q.company_id && q.company_id > 0 ? q.company_id : undefined,
        q: q.q,
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      return { items: rows.map((r) => toKey(r.k, r.companyName)), total, page: q.page, page_size: q.page_size };
    },

    /** What `GET /me` answers to a key: the key itself (name, company, roles, expiry). */
    async identity(keyId: number): Promise<KeyIdentity> {
      const r = await repo.withCompany(keyId);
      if (!r) throw notFound(APIKEY_MSG.notFound);
      return {
        kind: 'api_key',
        id: r.k.id,
        name: r.k.name,
        company: { id: r.k.companyId, name: r.companyName },
        roles: r.k.roles,
        collector: r.k.collector,
        expires_at: iso(r.k.expiresAt),
      };
    },

    async get({ auth: { principal: p } }: Caller, id: number) {
      const r = await visible(p, id, 'apikeys.read');
      return toKey(r.k, r.companyName);
    },

    async create({ auth: { principal: p, user }, actor }: Caller, body: z.infer<typeof createApiKeyRequest>) {
      if (!can(p, 'apikeys.manage', body.company_id))
        throw badRequest(APIKEY_MSG.foreignCompany, { company_id: APIKEY_MSG.foreignCompany });
      if (body.collector && !isStaff(p.role))
        throw badRequest(APIKEY_MSG.collectorStaff, { collector: APIKEY_MSG.collectorStaff });
      const c = await companiesRepo.find(body.company_id);
      if (!c) throw badRequest('Компания не найдена', { company_id: 'Компания не найдена' });
      const s = newSecret();
      const k = await db.transaction(async (tx) => {
        const k = await repo.insert(
          {
            name: body.name,
            companyId: body.company_id,
            ownerUserId: user.id,
            secretHash: s.hash,
            prefix: s.prefix,
            roles: body.roles,
            collector: body.collector,
            allowedIps: body.allowed_ips,
            expiresAt: body.expires_at ? new Date(body.expires_at) : null,
          },
          tx,
        );
        await audit.record(
          actor,
          { action: 'apikey.create', entity: 'apikey', entityId: k.id, companyId: k.companyId, after: toKey(k, c.name) },
          tx,
        );
        return k;
      });
      return { ...toKey(k, c.name), secret: s.secret };
    },

    async update({ auth: { principal: p }, actor }: Caller, id: number, body: z.infer<typeof updateApiKeyRequest>) {
      const before = await visible(p, id, 'apikeys.manage');
      const k = await db.transaction(async (tx) => {
        const k = await repo.update(
          id,
          {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.expires_at !== undefined && { expiresAt: body.expires_at ? new Date(body.expires_at) : null }),
            ...(body.allowed_ips !== undefined && { allowedIps: body.allowed_ips }),
            ...(body.is_active !== undefined && { isActive: body.is_active }),
          },
          tx,
        );
        if (!k) throw notFound(APIKEY_MSG.notFound);
        await audit.record(
          actor,
          {
            action: 'apikey.update',
            entity: 'apikey',
            entityId: id,
            companyId: k.companyId,
            before: toKey(before.k, before.companyName),
            after: body,
          },
          tx,
        );
        return k;
      });
      return toKey(k, before.companyName);
    },

    async remove({ auth: { principal: p }, actor }: Caller, id: number) {
      const r = await visible(p, id, 'apikeys.manage');
      await db.transaction(async (tx) => {
        await repo.remove(id, tx);
        await audit.record(
          actor,
          {
            action: 'apikey.delete',
            entity: 'apikey',
            entityId: id,
            companyId: r.k.companyId,
            before: toKey(r.k, r.companyName),
          },
          tx,
        );
      });
    },

    /** Rotate: a new secret, the old one stops working at once. */
    async refresh({ auth: { principal: p }, actor }: Caller, id: number) {
      const r = await visible(p, id, 'apikeys.manage');
      const s = newSecret();
      const k = await db.transaction(async (tx) => {
        const k = await repo.update(id, { secretHash: s.hash, prefix: s.prefix, rotatedAt: new Date() }, tx);
        if (!k) throw notFound(APIKEY_MSG.notFound);
        await audit.record(actor, { action: 'apikey.rotate', entity: 'apikey', entityId: id, companyId: k.companyId }, tx);
        return k;
      });
      return { ...toKey(k, r.companyName), secret: s.secret };
    },

    async roles({ auth: { principal: p } }: Caller, id: number) {
      const r = await visible(p, id, 'apikeys.read');
      return { roles: r.k.roles, collector: r.k.collector };
    },

    async setRoles({ auth: { principal: p }, actor }: Caller, id: number, body: { roles: Role[]; collector: boolean }) {
      const r = await visible(p, id, 'apikeys.manage');
      if (body.collector && !isStaff(p.role))
        throw badRequest(APIKEY_MSG.collectorStaff, { collector: APIKEY_MSG.collectorStaff });
      await db.transaction(async (tx) => {
        await repo.update(id, { roles: body.roles, collector: body.collector }, tx);
        await audit.record(
          actor,
          {
            action: 'apikey.roles',
            entity: 'apikey',
            entityId: id,
            companyId: r.k.companyId,
            before: { roles: r.k.roles, collector: r.k.collector },
            after: body,
          },
          tx,
        );
      });
      return body;
    },

    /** Bearer authentication: active, unexpired key of an active company and owner, from an allowed address. */
    async authenticate(secret: string, ip: string): Promise<AuthContext | null> {
      if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
      const hash = sha256(secret);
      // By key and address (the use record and the allowed addresses depend on it); dropped on every
      // instance by any change of a key, its owner or company (auth/access-cache.ts), never past the key's expiry.
      return access.through(`apikey:${hash}|${ip}`, async () => {
        const r = await repo.forAuthentication(hash, ip);
        if (!r?.k.isActive || !r.companyActive || !r.user.isActive) return null;
        if (r.k.expiresAt && r.k.expiresAt <= new Date()) return null;
        if (!ipAllowed(r.k.allowedIps, ip) || !ipAllowed(r.user.allowedIps, ip)) return null;
        const owner = ownerPermissions(r.user.role, r.memberRole ?? undefined);
        const keyPermissions = permissionsOfRoles(r.k.roles, false)
          .filter((x) => owner.includes(x))
          .concat(r.k.collector ? ['messages.collect' as const] : []);
        const modules = r.k.roles.some((x) => x.module === '*') ? undefined : r.k.roles.map((x) => x.module);
        // The use is written at most every 30 s (or on a new address): no UPDATE round trip otherwise.
        if (r.touchDue) await repo.touchUse(r.k.id, ip);
        const auth: AuthContext & Expiring = {
          user: r.user,
          sessionId: null,
          keyId: r.k.id,
          principal: {
            role: 'COMPANY_USER',
            memberships: [{ company_id: r.k.companyId, role: 'COMPANY_ADMIN' }],
            keyPermissions,
            ...(modules ? { keyModules: modules } : {}),
            keyWriteModules: r.k.roles.filter((x) => x.access === 'write').map((x) => x.module),
          },
          expiresAtMs: r.k.expiresAt ? r.k.expiresAt.getTime() : null,
        };
        return deepFreeze(auth);
      });
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
