/* SQL of the protected assets (discovery_assets). */
import type { AssetKind, AssetListQuery } from '@forpost/contract/discovery';
import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, discoveryAssets, users } from '../../db/schema/index';
import { tableRepo } from '../../db/table';

export type AssetRow = typeof discoveryAssets.$inferSelect & { createdByName: string | null };

export function createAssetsRepo(db: Db) {
  const table = tableRepo(db, discoveryAssets);
  const select = (tx: Db) =>
    tx
      .select({
        ...getTableColumns(discoveryAssets),
        createdByName: users.name,
      })
      .from(discoveryAssets)
      .leftJoin(users, eq(users.id, discoveryAssets.createdBy));

  return {
    async list(companyId: number, q: AssetListQuery, tx: Db = db): Promise<{ rows: AssetRow[]; total: number }> {
      const where = and(eq(discoveryAssets.companyId, companyId), q.kind ? eq(discoveryAssets.kind, q.kind) : undefined);
      const order = [asc(discoveryAssets.kind), asc(discoveryAssets.unicode), asc(discoveryAssets.id)];
      return table.page(select(tx).$dynamic(), where, order, q, tx);
    },

    async find(companyId: number, id: number, tx: Db = db): Promise<AssetRow | undefined> {
      return table.find(select(tx).$dynamic(), id, eq(discoveryAssets.companyId, companyId));
    },

    /** The enabled assets of a company (what a run and the CT matcher work from). */
    async enabled(companyId: number, tx: Db = db): Promise<{ kind: AssetKind; value: string; unicode: string }[]> {
      return tx
        .select({ kind: discoveryAssets.kind, value: discoveryAssets.value, unicode: discoveryAssets.unicode })
        .from(discoveryAssets)
        .where(and(eq(discoveryAssets.companyId, companyId), eq(discoveryAssets.enabled, true)))
        .orderBy(asc(discoveryAssets.id));
    },

    /** Active companies with at least one enabled asset of `kind` (any kind when omitted). */
    async companiesWithAssets(kind?: AssetKind, tx: Db = db): Promise<number[]> {
      const rows = await tx
        .selectDistinct({ id: discoveryAssets.companyId })
        .from(discoveryAssets)
        .innerJoin(companies, eq(companies.id, discoveryAssets.companyId))
        .where(
          and(eq(discoveryAssets.enabled, true), eq(companies.isActive, true), kind ? eq(discoveryAssets.kind, kind) : undefined),
        );
      return rows.map((r) => r.id);
    },

    insert: table.insert,

    async setEnabled(id: number, enabled: boolean, tx: Db = db): Promise<void> {
      await table.update(id, { enabled }, tx);
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await table.remove(id, tx);
    },
  };
}
export type AssetsRepo = ReturnType<typeof createAssetsRepo>;
