/* SQL of tags beyond the reference list (reflist.repo.ts): their use on events, and merging. */
import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tags } from '../../db/schema/index';
import { intArray, rowsOf } from '../../db/sql';

export type TagRow = typeof tags.$inferSelect;

export function createTagsRepo(db: Db) {
  return {
    /** Events per tag, over the events of `companies` ('all': every company). */
    async usage(companies: 'all' | number[]): Promise<{ id: number; n: number }[]> {
      const where = companies === 'all' ? sql`true` : sql`e.company_id = ANY(${intArray(companies)})`;
      return rowsOf<{ id: number; n: number }>(
        db,
        sql`SELECT t.id, count(*)::int AS n FROM events e CROSS JOIN LATERAL unnest(e.tags) AS t(id) WHERE ${where} GROUP BY t.id`,
      );
    },

    /** Every tag for a choice list, by name. */
    async all(): Promise<{ id: number; name: string; color: string }[]> {
      return db.select({ id: tags.id, name: tags.name, color: tags.color }).from(tags).orderBy(sql`lower(${tags.name})`);
    },

    /** These tags, locked, in id order. */
    async lock(ids: number[], tx: Db): Promise<TagRow[]> {
      return tx.select().from(tags).where(inArray(tags.id, ids)).orderBy(asc(tags.id)).for('update');
    },

    /** Takes a tag off every event (GIN on events.tags finds them). */
    async removeFromEvents(id: number, tx: Db): Promise<void> {
      await tx.execute(sql`UPDATE events SET tags = array_remove(tags, ${id}) WHERE tags @> ARRAY[${id}]::int[]`);
    },

    /** Events with tag `id` get `targetId` instead (once); returns how many events changed. */
    async replaceOnEvents(id: number, targetId: number, tx: Db): Promise<number> {
      const r = await tx.execute(
        sql`UPDATE events SET tags = CASE WHEN tags @> ARRAY[${targetId}]::int[] THEN array_remove(tags, ${id}) ELSE array_replace(tags, ${id}, ${targetId}) END
            WHERE tags @> ARRAY[${id}]::int[]`,
      );
      return r.rowCount ?? 0;
    },
  };
}
