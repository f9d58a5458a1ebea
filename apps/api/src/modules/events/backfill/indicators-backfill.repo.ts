/* SQL of the indicators backfill (indicators-backfill.ts): events without indicators, and their indicators. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { bigArray, rowsOf } from '../../../db/sql';

/** Up to `limit` events without indicators, locked; rows another worker holds are skipped. */
export function withoutIndicatorsForUpdate(tx: Db, limit: number) {
  return rowsOf<{ id: number; module: string; data: Record<string, unknown> }>(
    tx,
    sql`SELECT id, module, data FROM events WHERE indicators IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  );
}

/** Sets the indicators of events (`values`: one text[] literal per id), one statement. */
export async function setIndicators(tx: Db, ids: readonly number[], values: readonly string[]): Promise<void> {
  await tx.execute(sql`
    UPDATE events e SET indicators = v.indicators::text[]
      FROM unnest(${bigArray([...ids])}, ${sql.param(values)}::text[]) AS v(id, indicators)
     WHERE e.id = v.id`);
}
