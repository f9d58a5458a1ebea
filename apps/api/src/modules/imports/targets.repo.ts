/*
 * SQL of the import targets (targets.ts): the names a file's cells refer to (companies, tags,
 * reference lists), the whitelist probe of a batch, the undo of an import's events, and the leaks
 * catalogue's batch writes. The events themselves are written by events.repo, with the statements
 * the events service uses. No permission checks here.
 */
import type { RefList } from '@forpost/contract/modules';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, docs, events, importLeaks, leaks, leakTypes, mediaTypes, tags, whitelistItems } from '../../db/schema/index';
import { rowsOf } from '../../db/sql';

/** Only what the dedup lookup's plan depends on (plus the table's size): a full ANALYZE also samples the search vectors and JSON data, several times dearer. */
export const EVENTS_ANALYZE = 'ANALYZE events (company_id, module, fingerprint)';
export const LEAKS_ANALYZE = 'ANALYZE leaks';

/** The catalogue columns an import sets (besides the name). */
export const LEAK_COLUMNS = ['leakTypeId', 'leakedAt', 'recordsCount', 'sourceUrl', 'description'] as const;
export type LeakValues = Partial<Pick<typeof leaks.$inferInsert, (typeof LEAK_COLUMNS)[number]>>;
export type LeakRow = Pick<typeof leaks.$inferSelect, 'id' | 'name' | (typeof LEAK_COLUMNS)[number]>;

export function createTargetsRepo(db: Db) {
  return {
    /** Companies of the scope: their names and enabled modules. */
    companies(scope: 'all' | number[], tx: Db = db) {
      return tx
        .select({ id: companies.id, name: companies.name, modules: companies.modules })
        .from(companies)
        .where(scope === 'all' ? undefined : inArray(companies.id, scope));
    },

    tags(tx: Db = db) {
      return tx.select({ id: tags.id, name: tags.name }).from(tags);
    },

    /** The names (and codes) a reference field's cell may hold. */
    async refNames(ref: RefList, tx: Db = db): Promise<{ id: number; name: string; code: string | null }[]> {
      if (ref === 'leak_types')
        return tx.select({ id: leakTypes.id, name: leakTypes.name, code: leakTypes.code }).from(leakTypes);
      const t = ref === 'media_types' ? mediaTypes : leaks;
      return tx.select({ id: t.id, name: t.name, code: sql<null>`NULL` }).from(t);
    },

    /** Of these companies, the ones with whitelist entries of their own, and whether there are global entries. */
    async whitelisted(companyIds: number[], tx: Db = db): Promise<{ global: boolean; companies: Set<number> }> {
      const rows = await tx
        .selectDistinct({ companyId: whitelistItems.companyId })
        .from(whitelistItems)
        .where(or(isNull(whitelistItems.companyId), inArray(whitelistItems.companyId, companyIds)));
      const own = new Set<number>();
      for (const r of rows) if (r.companyId !== null) own.add(r.companyId);
      return { global: rows.some((r) => r.companyId === null), companies: own };
    },

    /** Of these keys of a module's events, the ones that exist, as `company:fingerprint` (read only, no lock). */
    async existingKeys(module: string, keys: readonly { companyId: number; fingerprint: string }[], tx: Db = db) {
      if (!keys.length) return new Set<string>();
      const found = await rowsOf<{ k: string }>(
        tx,
        sql`SELECT e.company_id || ':' || e.fingerprint AS k
              FROM unnest(${sql.param(keys.map((k) => k.companyId))}::int[], ${sql.param(keys.map((k) => k.fingerprint))}::text[]) AS k(company_id, fingerprint)
              JOIN events e ON e.company_id = k.company_id AND e.module = ${module} AND e.fingerprint = k.fingerprint`,
      );
      return new Set(found.map((r) => r.k));
    },

    /** Deletes the events an import created in a module (their documents first); returns how many. */
    async deleteImportedEvents(importId: number, module: string, tx: Db = db): Promise<number> {
      const created = and(eq(events.importId, importId), eq(events.module, module));
      await tx.delete(docs).where(inArray(docs.eventId, tx.select({ id: events.id }).from(events).where(created)));
      return (await tx.delete(events).where(created)).rowCount ?? 0;
    },

    /** Catalogue entries by name (case-insensitive), locked, in id order. */
    lockLeaksByName(names: string[], tx: Db = db): Promise<LeakRow[]> {
      return tx
        .select({
          id: leaks.id,
          name: leaks.name,
          leakTypeId: leaks.leakTypeId,
          leakedAt: leaks.leakedAt,
          recordsCount: leaks.recordsCount,
          sourceUrl: leaks.sourceUrl,
          description: leaks.description,
        })
        .from(leaks)
        .where(inArray(sql`lower(${leaks.name})`, names))
        .orderBy(leaks.id)
        .for('update');
    },

    async updateLeak(id: number, values: LeakValues, tx: Db = db): Promise<void> {
      await tx
        .update(leaks)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(leaks.id, id));
    },

    /** Inserts entries whose name is new, linked to the import; returns the ones inserted. */
    insertLeaks(rows: (LeakValues & { name: string })[], importId: number, tx: Db = db) {
      const col = (f: (r: LeakValues & { name: string }) => unknown) => sql.param(rows.map((r) => f(r) ?? null));
      return rowsOf<{ id: number; name: string }>(
        tx,
        sql`WITH ins AS (
              INSERT INTO ${leaks} (name, leak_type_id, leaked_at, records_count, source_url, description)
              SELECT * FROM unnest(${col((r) => r.name)}::text[], ${col((r) => r.leakTypeId)}::int[], ${col((r) => r.leakedAt)}::date[],
                                   ${col((r) => r.recordsCount)}::bigint[], ${col((r) => r.sourceUrl)}::text[],
                                   ${col((r) => r.description)}::text[])
              ON CONFLICT DO NOTHING RETURNING id, name)
            , link AS (INSERT INTO ${importLeaks} (import_id, leak_id) SELECT ${importId}, id FROM ins)
            SELECT id, name FROM ins`,
      );
    },

    /** Deletes the entries an import created, but those events now point at (the catalogue refuses to delete them too). */
    async deleteImportedLeaks(importId: number, tx: Db = db): Promise<number> {
      const r = await tx.execute(
        sql`DELETE FROM ${leaks} l USING ${importLeaks} il
             WHERE il.import_id = ${importId} AND l.id = il.leak_id
               AND NOT EXISTS (SELECT 1 FROM ${events} e WHERE e.module = 'leaks' AND e.data ->> 'leak_id' = l.id::text)`,
      );
      return r.rowCount ?? 0;
    },

    /** Refreshes a table's statistics (`analyze`: the target's statement); returns its estimated rows. */
    async refreshStatistics(analyze: string, table: string, tx: Db = db): Promise<number> {
      await tx.execute(sql.raw(analyze));
      const [r] = await rowsOf<{ n: number }>(
        tx,
        sql`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${table}::regclass`,
      );
      return Number(r?.n ?? 0);
    },
  };
}
export type TargetsRepo = ReturnType<typeof createTargetsRepo>;
