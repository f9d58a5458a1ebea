/* SQL of companies, their members and product keys. No permission checks here. */
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, companyMembers, productKeyActivations, productKeys, users } from '../../db/schema/index';
import { containing, likeEscape } from '../../db/sql';

export type CompanyRow = typeof companies.$inferSelect;
export type NewCompany = typeof companies.$inferInsert;
export type KeyRow = typeof productKeys.$inferSelect;
export type NewKey = typeof productKeys.$inferInsert;
export type MemberRole = (typeof companyMembers.$inferSelect)['role'];

export function createCompaniesRepo(db: Db) {
  return {
    async find(id: number, tx: Db = db): Promise<CompanyRow | undefined> {
      const [c] = await tx.select().from(companies).where(eq(companies.id, id)).limit(1);
      return c;
    },

    async exists(id: number, tx: Db = db): Promise<boolean> {
      const [r] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).limit(1);
      return r !== undefined;
    },

    /** Which of these company ids exist. */
    async existing(ids: number[], tx: Db = db): Promise<number[]> {
      if (!ids.length) return [];
      const r = await tx.select({ id: companies.id }).from(companies).where(inArray(companies.id, ids));
      return r.map((x) => x.id);
    },

    /** The modules enabled for a company (empty = every module), or null when there is no such company. */
    async modules(id: number, tx: Db = db): Promise<string[] | null> {
      const [r] = await tx.select({ modules: companies.modules }).from(companies).where(eq(companies.id, id)).limit(1);
      return r ? r.modules : null;
    },

    /** Companies within `scope` for a choice list, by name. */
    async options(scope: 'all' | number[], tx: Db = db): Promise<{ id: number; name: string; is_active: boolean }[]> {
      return tx
        .select({ id: companies.id, name: companies.name, is_active: companies.isActive })
        .from(companies)
        .where(scope === 'all' ? undefined : scope.length ? inArray(companies.id, scope) : sql`FALSE`)
        .orderBy(sql`lower(${companies.name})`);
    },

    /** A page of companies by name within `scope`, each with its member count, and the total. */
    async list(p: {
      scope: 'all' | number[];
      q?: string;
      isActive?: boolean;
      limit: number;
      offset: number;
    }): Promise<{ rows: { company: CompanyRow; membersCount: number }[]; total: number }> {
      const where = and(
        p.scope === 'all' ? undefined : inArray(companies.id, p.scope),
        p.q ? or(ilike(companies.name, containing(p.q)), ilike(companies.inn, `${likeEscape(p.q)}%`)) : undefined,
        p.isActive === undefined ? undefined : eq(companies.isActive, p.isActive),
      );
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(companies).where(where);
      const rows = await db
        .select({
          company: companies,
          membersCount: sql<number>`(SELECT count(*)::int FROM company_members cm WHERE cm.company_id = ${companies.id})`,
        })
        .from(companies)
        .where(where)
        .orderBy(asc(companies.name), asc(companies.id))
        .limit(p.limit)
        .offset(p.offset);
      return { rows, total: n };
    },

    async insert(v: NewCompany, tx: Db = db): Promise<CompanyRow> {
      const [c] = await tx.insert(companies).values(v).returning();
      if (!c) throw new Error('insert returned nothing');
      return c;
    },

    async update(id: number, set: Partial<NewCompany>, tx: Db = db): Promise<CompanyRow | undefined> {
      const [c] = await tx
        .update(companies)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(companies.id, id))
        .returning();
      return c;
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(companies).where(eq(companies.id, id));
    },

    /* Members */
    async members(companyId: number, tx: Db = db) {
      return tx
        .select({ user_id: users.id, name: users.name, email: users.email, role: companyMembers.role })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(eq(companyMembers.companyId, companyId))
        .orderBy(asc(users.name));
    },

    async replaceMembers(companyId: number, list: { userId: number; role: MemberRole }[], tx: Db): Promise<void> {
      await tx.delete(companyMembers).where(eq(companyMembers.companyId, companyId));
      if (list.length) await tx.insert(companyMembers).values(list.map((m) => ({ companyId, userId: m.userId, role: m.role })));
    },

    /* Product keys */
    async keys(companyId: number, tx: Db = db): Promise<KeyRow[]> {
      return tx.select().from(productKeys).where(eq(productKeys.companyId, companyId)).orderBy(desc(productKeys.createdAt));
    },

    async insertKey(v: NewKey, tx: Db = db): Promise<KeyRow> {
      const [k] = await tx.insert(productKeys).values(v).returning();
      if (!k) throw new Error('insert returned nothing');
      return k;
    },

    async revokeKey(companyId: number, keyId: number, tx: Db = db): Promise<KeyRow | undefined> {
      const [k] = await tx
        .update(productKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(productKeys.id, keyId), eq(productKeys.companyId, companyId)))
        .returning();
      return k;
    },

    /** The key of this hash, locked for the activation. */
    async keyByHashForUpdate(hash: string, tx: Db): Promise<KeyRow | undefined> {
      const [k] = await tx.select().from(productKeys).where(eq(productKeys.keyHash, hash)).for('update').limit(1);
      return k;
    },

    async activated(keyId: number, userId: number, tx: Db = db): Promise<boolean> {
      const [r] = await tx
        .select({ id: productKeyActivations.id })
        .from(productKeyActivations)
        .where(and(eq(productKeyActivations.keyId, keyId), eq(productKeyActivations.userId, userId)));
      return r !== undefined;
    },

    /**
     * An activation's writes: the key counts it, the user becomes a member with the key's role (or
     * gets that role), and the company gets `modules` when given.
     */
    async recordActivation(k: KeyRow, userId: number, modules: string[] | null, tx: Db): Promise<void> {
      await tx
        .update(productKeys)
        .set({ activations: sql`${productKeys.activations} + 1` })
        .where(eq(productKeys.id, k.id));
      await tx.insert(productKeyActivations).values({ keyId: k.id, userId });
      await tx
        .insert(companyMembers)
        .values({ userId, companyId: k.companyId, role: k.companyRole })
        .onConflictDoUpdate({ target: [companyMembers.userId, companyMembers.companyId], set: { role: k.companyRole } });
      if (modules) await tx.update(companies).set({ modules }).where(eq(companies.id, k.companyId));
    },

    /** The keys a user activated, newest first. */
    async activationsOf(userId: number, tx: Db = db) {
      return tx
        .select({
          company_id: companies.id,
          company_name: companies.name,
          key_prefix: productKeys.keyPrefix,
          at: productKeyActivations.at,
        })
        .from(productKeyActivations)
        .innerJoin(productKeys, eq(productKeys.id, productKeyActivations.keyId))
        .innerJoin(companies, eq(companies.id, productKeys.companyId))
        .where(eq(productKeyActivations.userId, userId))
        .orderBy(desc(productKeyActivations.at));
    },
  };
}
export type CompaniesRepo = ReturnType<typeof createCompaniesRepo>;
