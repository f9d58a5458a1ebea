/* SQL of the CT monitor: the next index to read in each log (ct_log_state). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ctLogState } from '../../db/schema/index';

export function createCtStateRepo(db: Db) {
  return {
    async nextIndex(url: string): Promise<number | null> {
      const [r] = await db.select({ n: ctLogState.nextIndex }).from(ctLogState).where(eq(ctLogState.logUrl, url)).limit(1);
      return r?.n ?? null;
    },

    /** The first position in a log (kept if another process saved one meanwhile); returns the saved one. */
    async begin(url: string, from: number, treeSize: number): Promise<number> {
      await db.insert(ctLogState).values({ logUrl: url, nextIndex: from, treeSize }).onConflictDoNothing();
      return (await this.nextIndex(url)) ?? from;
    },

    /**
     * Moves the log's position from `from` to `next` in the batch's transaction; false when the saved
     * position is no longer `from` (another process read this batch: the transaction must roll back).
     */
    async advance(url: string, from: number, next: number, treeSize: number | null, tx: Db): Promise<boolean> {
      const rows = await tx
        .update(ctLogState)
        .set({
          nextIndex: next,
          treeSize: sql`greatest(coalesce(${ctLogState.treeSize}, 0), ${treeSize ?? next})`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(ctLogState.logUrl, url), eq(ctLogState.nextIndex, from)))
        .returning({ n: ctLogState.nextIndex });
      return rows.length === 1;
    },
  };
}
export type CtStateRepo = ReturnType<typeof createCtStateRepo>;
