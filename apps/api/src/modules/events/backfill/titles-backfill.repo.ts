/* SQL of the titles backfill (titles-backfill.ts): domain events with an `xn--` title, and their new titles. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { bigArray, rowsOf } from '../../../db/sql';
import { searchVector } from '../list/events.query';
import type { Data } from '../write/event-data';

/** A title with a punycode label: at its start or after a dot, in any case. */
const ACE_LABEL = '(^|\\.)xn--';

/** The next `limit` events of `module` after id `after` whose title has an `xn--` label, locked (FOR UPDATE). */
export function aceTitledForUpdate(tx: Db, module: string, after: number, limit: number) {
  return rowsOf<{ id: string | number; title: string; data: Data }>(
    tx,
    sql`SELECT id, title, data FROM events
         WHERE module = ${module} AND id > ${after} AND title ~* ${ACE_LABEL}
         ORDER BY id LIMIT ${limit} FOR UPDATE`,
  );
}

/** New titles and the search vectors built from them (`search`: the search text), one statement. */
export async function setTitles(tx: Db, changes: readonly { id: number; title: string; search: string }[]): Promise<void> {
  await tx.execute(sql`
    UPDATE events e SET title = v.title, search = ${searchVector(sql`v.search`)}
      FROM unnest(${bigArray(changes.map((c) => c.id))}, ${sql.param(changes.map((c) => c.title))}::text[],
                  ${sql.param(changes.map((c) => c.search))}::text[]) AS v(id, title, search)
     WHERE e.id = v.id`);
}
