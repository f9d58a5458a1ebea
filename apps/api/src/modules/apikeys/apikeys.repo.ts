/* SQL of API keys. No permission checks here. */
import { and, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, companies, companyMembers, users } from '../../db/schema/index';
import { containing } from '../../db/sql';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

export function createApiKeysRepo(db: Db) {
  // Built on first use (named prepared statement: parsed and planned once per connection).
  const prepareAuth = () =>
    db
      .select({
        k: apiKeys,
        user: users,
        companyActive: companies.isActive,
        memberRole: companyMembers.role,
        touchDue: sql<boolean>`(${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} < now() - interval '30 seconds' OR ${apiKeys.lastUsedIp} IS DISTINCT FROM ${sql.placeholder('ip')})`,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.ownerUserId))
      .innerJoin(companies, eq(companies.id, apiKeys.companyId))
      .leftJoin(
        companyMembers,
        and(eq(companyMembers.userId, apiKeys.ownerUserId), eq(companyMembers.companyId, apiKeys.companyId)),
      )
      .where(eq(apiKeys.secretHash, sql.placeholder('hash')))
      .limit(1)
      .prepare('forpost_apikey_auth');
  let authQuery: ReturnType<typeof prepareAuth> | undefined;
  return {
    /** A key with its company's name, or undefined. */
    async withCompany(id: number, tx: Db = db) {
      const [r] = await tx
        .select({ k: apiKeys, companyName: companies.name })
        .from(apiKeys)
        .innerJoin(companies, eq(companies.id, apiKeys.companyId))
        .where(eq(apiKeys.id, id))
        .limit(1);
      return r;
    },

    /** A page of keys, newest first, within `scope`, and the total. */
    async list(p: { scope: 'all' | number[]; companyId?: number; q?: string; limit: number; offset: number }) {
      const where = and(
        p.scope === 'all' ? undefined : inArray(apiKeys.companyId, p.scope),
        p.companyId === undefined ? undefined : eq(apiKeys.companyId, p.companyId),
        p.q ? ilike(apiKeys.name, containing(p.q)) : undefined,
      );
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(apiKeys).where(where);
      const rows = await db
        .select({ k: apiKeys, companyName: companies.name })
        .from(apiKeys)
        .innerJoin(companies, eq(companies.id, apiKeys.companyId))
        .where(where)
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
        .limit(p.limit)
        .offset(p.offset);
      return { rows, total: n };
    },

    async insert(v: NewApiKey, tx: Db = db): Promise<ApiKeyRow> {
      const [k] = await tx.insert(apiKeys).values(v).returning();
      if (!k) throw new Error('insert returned nothing');
      return k;
    },

    async update(id: number, set: Partial<NewApiKey>, tx: Db = db): Promise<ApiKeyRow | undefined> {
      const [k] = await tx
        .update(apiKeys)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(apiKeys.id, id))
        .returning();
      return k;
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(apiKeys).where(eq(apiKeys.id, id));
    },

    /** Switches every key of an owner on or off (the owner deactivated, deleted or back). */
    async setOwnerKeysActive(userId: number, isActive: boolean, tx: Db = db): Promise<void> {
      await tx.update(apiKeys).set({ isActive, updatedAt: new Date() }).where(eq(apiKeys.ownerUserId, userId));
    },

    /**
     * The key of this secret hash with its owner, its company's state, the owner's role in that company
     * and whether a use is due to be recorded
     * (the `touchUse` condition, by the database's clock): one round trip, a named prepared statement.
     */
    async forAuthentication(secretHash: string, ip: string) {
      authQuery ??= prepareAuth();
      const [r] = await authQuery.execute({ hash: secretHash, ip });
      return r;
    },

    /** Records a use: written at most every 30 s per key, or when the address changes. */
    async touchUse(id: number, ip: string): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: new Date(), lastUsedIp: ip })
        .where(
          and(
            eq(apiKeys.id, id),
            sql`(${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} < now() - interval '30 seconds' OR ${apiKeys.lastUsedIp} IS DISTINCT FROM ${ip})`,
          ),
        );
    },
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
