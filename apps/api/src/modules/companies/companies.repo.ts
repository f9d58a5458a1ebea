/* SQL of companies, their members and product keys. No permission checks here. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema/index';

export function createCompaniesRepo(db: Db) {
  return {
    async exists(id: number, tx: Db = db): Promise<boolean> {
      const [r] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).limit(1);
      return r !== undefined;
    },

    /** The modules enabled for a company (empty = every module), or null when there is no such company. */
    async modules(id: number, tx: Db = db): Promise<string[] | null> {
      const [r] = await tx.select({ modules: companies.modules }).from(companies).where(eq(companies.id, id)).limit(1);
      return r ? r.modules : null;
    },
  };
}
export type CompaniesRepo = ReturnType<typeof createCompaniesRepo>;
