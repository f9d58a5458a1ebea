/* SQL of the search backfill (search-backfill.ts): events that have one of the reindexed fields, and their vectors. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { bigArray, rowsOf, textArray } from '../../../db/sql';
import { searchVector } from '../list/events.query';
import type { Data } from '../write/event-data';

/** The next `limit` events of `module` after id `after` with one of `fields` in their data, locked (FOR UPDATE). */
export function withFieldsForUpdate(tx: Db, module: string, fields: readonly string[], after: number, limit: number) {
  return rowsOf<{ id: string | number; title: string; data: Data }>(
    tx,
    sql`SELECT id, title, data FROM events
         WHERE module = ${module} AND id > ${after} AND data ?| ${textArray([...fields])}
         ORDER BY id LIMIT ${limit} FOR UPDATE`,
  );
}

/** Rebuilds the vectors of events from their search texts; writes only those that differ. Returns how many. */
export async function setSearchVectors(tx: Db, ids: readonly number[], texts: readonly string[]): Promise<number> {
  const r = await tx.execute(sql`
    UPDATE events e SET search = v.search
      FROM (SELECT u.id, ${searchVector(sql`u.text`)} AS search
              FROM unnest(${bigArray([...ids])}, ${sql.param(texts)}::text[]) AS u(id, text)) v
     WHERE e.id = v.id AND e.search IS DISTINCT FROM v.search`);
  return r.rowCount ?? 0;
}
