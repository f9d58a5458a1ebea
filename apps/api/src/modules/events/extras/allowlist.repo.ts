/* SQL of the domains' allowlist: per-company domains that never raise a new event. No permission checks here. */
import { and, asc, count, eq, getTableColumns, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { companies, domainAllowlist } from '../../../db/schema/index';
import { containing, rowsOf } from '../../../db/sql';

/** An allowlist entry with its company's name. */
export type AllowlistRow = typeof domainAllowlist.$inferSelect & { companyName: string };
type NewAllowlistEntry = Pick<
  typeof domainAllowlist.$inferInsert,
  'companyId' | 'domain' | 'domainPunycode' | 'comment' | 'createdBy'
>;

const withCompany = { ...getTableColumns(domainAllowlist), companyName: companies.name };

export function createAllowlistRepo(db: Db) {
  const rows = (tx: Db) =>
    tx.select(withCompany).from(domainAllowlist).innerJoin(companies, eq(companies.id, domainAllowlist.companyId));
  return {
    async find(id: number, tx: Db = db): Promise<AllowlistRow | undefined> {
      const [r] = await rows(tx).where(eq(domainAllowlist.id, id));
      return r;
    },

    /** An entry of the company whose domain (punycode) is one of `domains`. */
    async anyOf(companyId: number, domains: string[], tx: Db = db): Promise<{ id: number; domain: string } | undefined> {
      const [r] = await tx
        .select({ id: domainAllowlist.id, domain: domainAllowlist.domain })
        .from(domainAllowlist)
        .where(and(eq(domainAllowlist.companyId, companyId), inArray(domainAllowlist.domainPunycode, domains)))
        .limit(1);
      return r;
    },

    /** A page by domain within `scope` (never empty), optionally containing `q` (either spelling), and the total. */
    async page(p: {
      scope: 'all' | number[];
      q?: string;
      limit: number;
      offset: number;
    }): Promise<{ rows: AllowlistRow[]; total: number }> {
      const where = and(
        p.scope === 'all' ? undefined : inArray(domainAllowlist.companyId, p.scope),
        p.q
          ? or(ilike(domainAllowlist.domain, containing(p.q)), ilike(domainAllowlist.domainPunycode, containing(p.q)))
          : undefined,
      );
      const [items, [total]] = await Promise.all([
        rows(db).where(where).orderBy(asc(domainAllowlist.domain), asc(domainAllowlist.id)).limit(p.limit).offset(p.offset),
        db.select({ n: count() }).from(domainAllowlist).where(where),
      ]);
      return { rows: items, total: total?.n ?? 0 };
    },

    /** Adds an entry; null when the company does not exist (the check and the insert are one statement). */
    async create(v: NewAllowlistEntry, tx: Db = db): Promise<number | null> {
      const [r] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO domain_allowlist (company_id, domain, domain_punycode, comment, created_by)
            SELECT ${v.companyId}, ${v.domain}, ${v.domainPunycode}, ${v.comment ?? null}, ${v.createdBy ?? null}
            WHERE EXISTS (SELECT 1 FROM companies WHERE id = ${v.companyId})
            RETURNING id`,
      );
      return r ? r.id : null;
    },

    /** Adds an entry, or finds the company's entry for the same domain (left as it is). */
    async ensure(v: NewAllowlistEntry, tx: Db = db): Promise<number> {
      const [r] = await tx
        .insert(domainAllowlist)
        .values(v)
        .onConflictDoUpdate({
          target: [domainAllowlist.companyId, domainAllowlist.domainPunycode],
          set: { updatedAt: sql`${domainAllowlist.updatedAt}` },
        })
        .returning({ id: domainAllowlist.id });
      return r?.id as number;
    },

    async update(
      id: number,
      v: Pick<typeof domainAllowlist.$inferInsert, 'domain' | 'domainPunycode' | 'comment'>,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(domainAllowlist)
        .set({ ...v, updatedAt: sql`now()` })
        .where(eq(domainAllowlist.id, id));
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(domainAllowlist).where(eq(domainAllowlist.id, id));
    },
  };
}
