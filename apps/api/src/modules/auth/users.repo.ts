/*
 * SQL of user accounts: users, their company memberships, recovery codes and password tokens.
 * Sessions are in auth/sessions.repo.ts, API keys in apikeys/apikeys.repo.ts. No permission checks.
 */
import type { UserRole } from '@forpost/contract/permissions';
import { and, asc, count, eq, gt, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, companyMembers, passwordTokens, recoveryCodes, users } from '../../db/schema/index';
import { containing } from '../../db/sql';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type MemberRole = (typeof companyMembers.$inferSelect)['role'];
export type CompanyLink = { company_id: number; name: string; role: MemberRole };

/** A company user linked to any of these companies. */
const inCompanies = (ids: number[]) =>
  sql`EXISTS (SELECT 1 FROM company_members cm WHERE cm.user_id = ${users.id} AND cm.company_id IN (${sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  )}))`;
/** Memberships within `scope` ('all', or company ids; none matches an empty list). */
const inScope = (scope: 'all' | number[]) =>
  scope === 'all' ? undefined : inArray(companyMembers.companyId, scope.length ? scope : [-1]);

export function createUsersRepo(db: Db) {
  return {
    async find(id: number, tx: Db = db): Promise<UserRow | undefined> {
      const [u] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return u;
    },

    async findByEmail(email: string, tx: Db = db): Promise<UserRow | undefined> {
      const [u] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
      return u;
    },

    /**
     * A page of users by name and the total. `scope` limits to company users of those companies;
     * `companyId` to members of one company.
     */
    async list(p: {
      scope: 'all' | number[];
      companyId?: number;
      q?: string;
      role?: UserRole;
      isActive?: boolean;
      limit: number;
      offset: number;
    }): Promise<{ rows: UserRow[]; total: number }> {
      const where = and(
        p.scope === 'all' ? undefined : and(eq(users.role, 'COMPANY_USER'), inCompanies(p.scope)),
        p.companyId === undefined ? undefined : inCompanies([p.companyId]),
        p.q ? or(ilike(users.name, containing(p.q)), ilike(users.email, containing(p.q))) : undefined,
        p.role ? eq(users.role, p.role) : undefined,
        p.isActive === undefined ? undefined : eq(users.isActive, p.isActive),
      );
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users).where(where);
      const rows = await db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.name), asc(users.id))
        .limit(p.limit)
        .offset(p.offset);
      return { rows, total: n };
    },

    async insert(v: NewUser, tx: Db = db): Promise<UserRow> {
      const [u] = await tx.insert(users).values(v).returning();
      if (!u) throw new Error('insert returned nothing');
      return u;
    },

    /** Changes columns of a user (and its `updated_at`). */
    async update(id: number, set: Partial<NewUser>, tx: Db = db): Promise<void> {
      await tx
        .update(users)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(users).where(eq(users.id, id));
    },

    /** The users of these ids that exist, with their roles. */
    async roles(ids: number[], tx: Db = db): Promise<{ id: number; role: UserRole }[]> {
      return tx.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, ids));
    },

    /** Active super admins other than `exceptId`. */
    async superAdminsLeft(exceptId: number, tx: Db = db): Promise<number> {
      const [r] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'SUPER_ADMIN'), eq(users.isActive, true), ne(users.id, exceptId)));
      return r?.n ?? 0;
    },

    /** Compare-and-set of the last TOTP step used: false when this step (or a later one) was spent already. */
    async spendTotpStep(userId: number, step: number, tx: Db): Promise<boolean> {
      const r = await tx
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), sql`coalesce(${users.totpLastStep}, -1) < ${step}`))
        .returning({ id: users.id });
      return r.length === 1;
    },

    /* Memberships */
    /** Each user's companies (by company name). */
    async linksOf(ids: number[], tx: Db = db): Promise<Map<number, CompanyLink[]>> {
      const m = new Map<number, CompanyLink[]>();
      if (!ids.length) return m;
      const rows = await tx
        .select({ userId: companyMembers.userId, company_id: companies.id, name: companies.name, role: companyMembers.role })
        .from(companyMembers)
        .innerJoin(companies, eq(companies.id, companyMembers.companyId))
        .where(inArray(companyMembers.userId, ids))
        .orderBy(asc(companies.name));
      for (const r of rows)
        m.set(r.userId, [...(m.get(r.userId) ?? []), { company_id: r.company_id, name: r.name, role: r.role }]);
      return m;
    },

    /** Whether the user is a member of a company in `scope`. */
    async memberIn(userId: number, scope: number[], tx: Db = db): Promise<boolean> {
      const [m] = await tx
        .select({ c: companyMembers.companyId })
        .from(companyMembers)
        .where(and(eq(companyMembers.userId, userId), inScope(scope)))
        .limit(1);
      return m !== undefined;
    },

    /** Removes the user's memberships within `scope`. */
    async leaveCompanies(userId: number, scope: 'all' | number[], tx: Db): Promise<void> {
      await tx.delete(companyMembers).where(and(eq(companyMembers.userId, userId), inScope(scope)));
    },

    async membershipsCount(userId: number, tx: Db = db): Promise<number> {
      const [r] = await tx.select({ n: count() }).from(companyMembers).where(eq(companyMembers.userId, userId));
      return r?.n ?? 0;
    },

    /** Adds memberships, or changes the role of existing ones. */
    async joinCompanies(userId: number, links: { company_id: number; role: MemberRole }[], tx: Db): Promise<void> {
      if (!links.length) return;
      await tx
        .insert(companyMembers)
        .values(links.map((l) => ({ userId, companyId: l.company_id, role: l.role })))
        .onConflictDoUpdate({ target: [companyMembers.userId, companyMembers.companyId], set: { role: sql`excluded.role` } });
    },

    /* Recovery codes */
    async replaceRecoveryCodes(userId: number, hashes: string[], tx: Db): Promise<void> {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      if (hashes.length) await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    },

    /** Marks an unused recovery code of the user used; false when there is none with this hash. */
    async spendRecoveryCode(userId: number, codeHash: string, tx: Db): Promise<boolean> {
      const r = await tx
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return r.length === 1;
    },

    /* Password tokens */
    /** Issues a token; every older unused token of the user dies. */
    async issuePasswordToken(
      v: { userId: number; tokenHash: string; purpose: 'reset' | 'invite'; expiresAt: Date },
      tx: Db,
    ): Promise<void> {
      await tx
        .update(passwordTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordTokens.userId, v.userId), isNull(passwordTokens.usedAt)));
      await tx.insert(passwordTokens).values(v);
    },

    /** Spends an unused, unexpired token; returns its user, or undefined. */
    async spendPasswordToken(tokenHash: string, tx: Db): Promise<number | undefined> {
      const [t] = await tx
        .update(passwordTokens)
        .set({ usedAt: new Date() })
        .where(
          and(eq(passwordTokens.tokenHash, tokenHash), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, sql`now()`)),
        )
        .returning({ userId: passwordTokens.userId });
      return t?.userId;
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
