/*
 * Protected assets of a company: list, add (domains stored as punycode and Unicode, keywords lower-case),
 * switch on/off, remove. Tenant scope from the principal: another company's assets are a 404; changing
 * needs discovery.manage in the company. Every change is audited in its transaction.
 */
import {
  type Asset,
  type AssetListQuery,
  assetValueMessage,
  type CreateAssetRequest,
  DISCOVERY_MSG,
  normaliseAsset,
} from '@forpost/contract/discovery';
import { can, type Principal } from '@forpost/contract/permissions';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { iso, isUniqueViolation } from '../../lib/serialize';
import type { CompaniesRepo } from '../companies/index';
import { type AssetRow, type AssetsRepo, createAssetsRepo } from './assets.repo';

const toAsset = (r: AssetRow): Asset => ({
  id: r.id,
  company_id: r.companyId,
  kind: r.kind,
  value: r.value,
  unicode: r.unicode,
  enabled: r.enabled,
  created_by: r.createdBy !== null && r.createdByName !== null ? { id: r.createdBy, name: r.createdByName } : null,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

export function createAssetsService(deps: { db: Db; audit: Audit; repo?: AssetsRepo; companies: CompaniesRepo }) {
  const { db, audit } = deps;
  const repo = deps.repo ?? createAssetsRepo(db);
  const companies = deps.companies;

  /** The principal may read the company's assets (and, with `manage`, change them). */
  async function authorize(p: Principal, companyId: number, manage: boolean) {
    if (!can(p, 'discovery.read', companyId) || !(await companies.exists(companyId)))
      throw notFound(DISCOVERY_MSG.companyNotFound);
    if (manage && !can(p, 'discovery.manage', companyId)) throw forbidden();
  }

  async function load(companyId: number, id: number, tx: Db = db) {
    const r = await repo.find(companyId, id, tx);
    if (!r) throw notFound(DISCOVERY_MSG.assetNotFound);
    return r;
  }

  return {
    repo,
    async list({ auth: { principal: p } }: Caller, companyId: number, q: AssetListQuery) {
      await authorize(p, companyId, false);
      const { rows, total } = await repo.list(companyId, q);
      return { items: rows.map(toAsset), total, page: q.page, page_size: q.page_size };
    },

    async get({ auth: { principal: p } }: Caller, companyId: number, id: number): Promise<Asset> {
      await authorize(p, companyId, false);
      return toAsset(await load(companyId, id));
    },

    async create({ auth: { principal: p }, actor }: Caller, companyId: number, body: CreateAssetRequest): Promise<Asset> {
      await authorize(p, companyId, true);
      const n = normaliseAsset(body.kind, body.value);
      if (!n) {
        const msg = assetValueMessage(body.kind);
        throw badRequest(msg, { value: msg });
      }
      try {
        const id = await db.transaction(async (tx) => {
          const id = await repo.insert(
            {
              companyId,
              kind: body.kind,
              value: n.value,
              unicode: n.unicode,
              enabled: body.enabled,
              createdBy: actor.userId ?? null,
            },
            tx,
          );
          await audit.record(
            actor,
            {
              action: 'discovery_asset.create',
              entity: 'discovery_asset',
              entityId: id,
              companyId,
              after: { kind: body.kind, value: n.value, unicode: n.unicode, enabled: body.enabled },
            },
            tx,
          );
          return id;
        });
        return toAsset(await load(companyId, id));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(DISCOVERY_MSG.duplicate, { value: DISCOVERY_MSG.duplicate });
        throw e;
      }
    },

    async update(
      { auth: { principal: p }, actor }: Caller,
      companyId: number,
      id: number,
      body: { enabled: boolean },
    ): Promise<Asset> {
      await authorize(p, companyId, true);
      await db.transaction(async (tx) => {
        const before = await load(companyId, id, tx);
        if (before.enabled === body.enabled) return;
        await repo.setEnabled(id, body.enabled, tx);
        await audit.record(
          actor,
          {
            action: 'discovery_asset.update',
            entity: 'discovery_asset',
            entityId: id,
            companyId,
            before: { enabled: before.enabled },
            after: { enabled: body.enabled },
          },
          tx,
        );
      });
      return toAsset(await load(companyId, id));
    },

    async remove({ auth: { principal: p }, actor }: Caller, companyId: number, id: number): Promise<void> {
      await authorize(p, companyId, true);
      await db.transaction(async (tx) => {
        const before = await load(companyId, id, tx);
        await repo.remove(id, tx);
        await audit.record(
          actor,
          {
            action: 'discovery_asset.delete',
            entity: 'discovery_asset',
            entityId: id,
            companyId,
            before: { kind: before.kind, value: before.value, unicode: before.unicode, enabled: before.enabled },
          },
          tx,
        );
      });
    },
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
