/* SQL of saved views and user preferences. */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, savedViews, userPreferences, users } from '../../db/schema/index';

export type ViewRow = typeof savedViews.$inferSelect & { ownerName: string; companyName: string | null };

const viewColumns = {
  id: savedViews.id,
  module: savedViews.module,
  name: savedViews.name,
  ownerId: savedViews.ownerId,
  companyId: savedViews.companyId,
  shared: savedViews.shared,
  state: savedViews.state,
  createdAt: savedViews.createdAt,
  updatedAt: savedViews.updatedAt,
  ownerName: users.name,
  companyName: companies.name,
};

export function createViewsRepo(db: Db) {
  const select = (tx: Db) =>
    tx
      .select(viewColumns)
      .from(savedViews)
      .innerJoin(users, eq(users.id, savedViews.ownerId))
      .leftJoin(companies, eq(companies.id, savedViews.companyId));
  return {
    /** The user's own views of a module and the views shared with `companies` ('all': any company). */
    async list(module: string, userId: number, shared: 'all' | number[]): Promise<ViewRow[]> {
      const sharedCond =
        shared === 'all'
          ? eq(savedViews.shared, true)
          : shared.length
            ? and(eq(savedViews.shared, true), inArray(savedViews.companyId, shared))
            : sql`false`;
      return select(db)
        .where(and(eq(savedViews.module, module), or(eq(savedViews.ownerId, userId), sharedCond)))
        .orderBy(sql`lower(${savedViews.name})`, asc(savedViews.id));
    },

    async get(id: number, module: string, tx: Db = db): Promise<ViewRow | undefined> {
      const [r] = await select(tx).where(and(eq(savedViews.id, id), eq(savedViews.module, module)));
      return r;
    },

    async insert(v: typeof savedViews.$inferInsert): Promise<number> {
      const [r] = await db.insert(savedViews).values(v).returning({ id: savedViews.id });
      return r?.id as number;
    },

    async update(id: number, patch: Partial<typeof savedViews.$inferInsert>, tx: Db): Promise<void> {
      await tx
        .update(savedViews)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(savedViews.id, id));
    },

    /** Deletes a view and every user's default-view preference that named it. */
    async remove(id: number, module: string, tx: Db): Promise<void> {
      await tx.delete(savedViews).where(eq(savedViews.id, id));
      await tx
        .delete(userPreferences)
        .where(and(eq(userPreferences.key, `default_view:${module}`), sql`${userPreferences.value} = to_jsonb(${id}::int)`));
    },

    async preferences(userId: number) {
      return db.select().from(userPreferences).where(eq(userPreferences.userId, userId)).orderBy(asc(userPreferences.key));
    },

    async putPreference(userId: number, key: string, value: unknown) {
      const [r] = await db
        .insert(userPreferences)
        .values({ userId, key, value })
        .onConflictDoUpdate({
          target: [userPreferences.userId, userPreferences.key],
          set: { value, updatedAt: new Date() },
        })
        .returning();
      return r as typeof userPreferences.$inferSelect;
    },

    async deletePreference(userId: number, key: string): Promise<void> {
      await db.delete(userPreferences).where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)));
    },
  };
}
