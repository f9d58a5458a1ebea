/*
 * `app_seeds`: the names of one-time data seedings already done (the editable reference lists, the
 * analytics rollup backfill). A seeding is done once per database, whatever the number of starts.
 */
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { appSeeds } from './schema/index';

export function createSeeds(db: Db) {
  return {
    /** Was the seeding `name` recorded? */
    async done(name: string, tx: Db = db): Promise<boolean> {
      const [r] = await tx.select({ name: appSeeds.name }).from(appSeeds).where(eq(appSeeds.name, name)).limit(1);
      return r !== undefined;
    },

    /** Records the seeding `name`; false when it was recorded before. */
    async mark(name: string, tx: Db = db): Promise<boolean> {
      const first = await tx.insert(appSeeds).values({ name }).onConflictDoNothing().returning({ name: appSeeds.name });
      return first.length > 0;
    },
  };
}
export type Seeds = ReturnType<typeof createSeeds>;
