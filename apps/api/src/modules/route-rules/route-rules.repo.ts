/* SQL of the route rules (redirects from paths that are no console route). */
import { asc, count, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { routeRules } from '../../db/schema/index';
import { containing } from '../../db/sql';

export type RouteRuleRow = typeof routeRules.$inferSelect;
type Cols = Partial<Omit<typeof routeRules.$inferInsert, 'id'>>;

export function createRouteRulesRepo(db: Db) {
  return {
    async list(p: { q?: string; limit: number; offset: number }) {
      const where = p.q ? or(ilike(routeRules.path, containing(p.q)), ilike(routeRules.target, containing(p.q))) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select().from(routeRules).where(where).orderBy(asc(routeRules.path)).limit(p.limit).offset(p.offset),
        db.select({ n: count() }).from(routeRules).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
    async find(id: number, tx: Db = db): Promise<RouteRuleRow | undefined> {
      const [r] = await tx.select().from(routeRules).where(eq(routeRules.id, id)).limit(1).for('update');
      return r;
    },
    /** The rule of a normalised path (the unique index). */
    async byPath(path: string): Promise<RouteRuleRow | undefined> {
      const [r] = await db.select().from(routeRules).where(eq(routeRules.path, path)).limit(1);
      return r;
    },
    async insert(cols: Cols & { path: string; target: string }, tx: Db): Promise<RouteRuleRow> {
      const [r] = await tx.insert(routeRules).values(cols).returning();
      return r as RouteRuleRow;
    },
    async update(id: number, cols: Cols, tx: Db): Promise<RouteRuleRow> {
      const [r] = await tx
        .update(routeRules)
        .set({ ...cols, updatedAt: new Date() })
        .where(eq(routeRules.id, id))
        .returning();
      return r as RouteRuleRow;
    },
    async remove(id: number, tx: Db): Promise<void> {
      await tx.delete(routeRules).where(eq(routeRules.id, id));
    },
  };
}
