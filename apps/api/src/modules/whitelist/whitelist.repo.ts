/* SQL of the whitelists: the entries, their matching, and the whitelist kind written on events. */
import type { WhitelistKind, WhitelistListQuery } from '@forpost/contract/whitelist';
import { and, asc, desc, eq, getTableColumns, gt, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { events, users, whitelistItems } from '../../db/schema/index';
import { containing } from '../../db/sql';
import { tableRepo } from '../../db/table';
import type { Candidates } from './whitelist.match';

export type WhitelistRow = Omit<typeof whitelistItems.$inferSelect, 'expiryAppliedAt'> & { createdByName: string | null };
export type NewWhitelistRow = typeof whitelistItems.$inferInsert;
/** null = the global whitelist. */
export type Scope = number | null;
/** What matching in memory needs of an entry. */
export type LiveEntry = Pick<typeof whitelistItems.$inferSelect, 'id' | 'companyId' | 'type' | 'matchKey' | 'kind'>;

const scopeIs = (companyId: Scope) =>
  companyId === null ? isNull(whitelistItems.companyId) : eq(whitelistItems.companyId, companyId);

const SORTS: Record<WhitelistListQuery['sort'], SQL[]> = {
  created_at: [asc(whitelistItems.createdAt), asc(whitelistItems.id)],
  '-created_at': [desc(whitelistItems.createdAt), desc(whitelistItems.id)],
  value: [asc(whitelistItems.value), asc(whitelistItems.id)],
  '-value': [desc(whitelistItems.value), desc(whitelistItems.id)],
  type: [asc(whitelistItems.type), asc(whitelistItems.value)],
  '-type': [desc(whitelistItems.type), asc(whitelistItems.value)],
  expires_at: [sql`${whitelistItems.expiresAt} asc nulls last`, asc(whitelistItems.id)],
  '-expires_at': [sql`${whitelistItems.expiresAt} desc nulls last`, asc(whitelistItems.id)],
};

/** An entry's columns but the expiry bookkeeping (when the expiry was last applied to events). */
const { expiryAppliedAt: _applied, ...listed } = getTableColumns(whitelistItems);

export function createWhitelistRepo(db: Db) {
  const table = tableRepo(db, whitelistItems);
  const select = (tx: Db) =>
    tx
      .select({
        ...listed,
        createdByName: users.name,
      })
      .from(whitelistItems)
      .leftJoin(users, eq(users.id, whitelistItems.createdBy));

  return {
    async list(companyId: Scope, q: WhitelistListQuery, tx: Db = db): Promise<{ rows: WhitelistRow[]; total: number }> {
      const where = and(
        scopeIs(companyId),
        q.q ? or(ilike(whitelistItems.value, containing(q.q)), ilike(whitelistItems.comment, containing(q.q))) : undefined,
        q.type ? eq(whitelistItems.type, q.type) : undefined,
        q.kind ? eq(whitelistItems.kind, q.kind) : undefined,
        q.expired === 'true' ? sql`${whitelistItems.expiresAt} <= now()` : undefined,
        q.expired === 'false' ? sql`(${whitelistItems.expiresAt} IS NULL OR ${whitelistItems.expiresAt} > now())` : undefined,
      );
      return table.page(select(tx).$dynamic(), where, SORTS[q.sort], q, tx);
    },

    async find(companyId: Scope, id: number, tx: Db = db): Promise<WhitelistRow | undefined> {
      return table.find(select(tx).$dynamic(), id, scopeIs(companyId));
    },

    insert: table.insert,

    /** Inserts what is new; rows that would duplicate an entry are skipped. Returns the inserted (type, key) → id. */
    async insertMany(values: NewWhitelistRow[], tx: Db = db): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (let i = 0; i < values.length; i += 1000) {
        const rows = await tx
          .insert(whitelistItems)
          .values(values.slice(i, i + 1000))
          .onConflictDoNothing()
          .returning({ id: whitelistItems.id, type: whitelistItems.type, matchKey: whitelistItems.matchKey });
        for (const r of rows) out.set(`${r.type}\u0000${r.matchKey}`, r.id);
      }
      return out;
    },

    /** Which of these (type, key) pairs the scope already has. */
    async existing(companyId: Scope, pairs: { type: string; key: string }[], tx: Db = db): Promise<Set<string>> {
      const out = new Set<string>();
      for (let i = 0; i < pairs.length; i += 1000) {
        const chunk = pairs.slice(i, i + 1000);
        const rows = await tx
          .select({ type: whitelistItems.type, matchKey: whitelistItems.matchKey })
          .from(whitelistItems)
          .where(
            and(
              scopeIs(companyId),
              inArray(
                whitelistItems.matchKey,
                chunk.map((p) => p.key),
              ),
            ),
          );
        for (const r of rows) out.add(`${r.type}\u0000${r.matchKey}`);
      }
      return out;
    },

    async update(companyId: Scope, id: number, set: Partial<NewWhitelistRow>, tx: Db = db): Promise<boolean> {
      return table.update(id, set, tx, scopeIs(companyId));
    },

    async remove(companyId: Scope, id: number, tx: Db = db): Promise<boolean> {
      return table.remove(id, tx, scopeIs(companyId));
    },

    /**
     * The first live entry matching any candidate: the company's own entries before global ones,
     * then the oldest. Expired entries never match.
     */
    async match(
      companyId: number | null,
      c: Candidates,
      tx: Db = db,
    ): Promise<{ id: number; kind: WhitelistRow['kind']; companyId: number | null } | undefined> {
      const t = whitelistItems;
      const byType = (type: string, keys: string[]) =>
        keys.length ? and(eq(t.type, type as 'domain'), inArray(t.matchKey, keys)) : undefined;
      const anyOf = or(
        byType('domain', c.domain),
        byType('url', c.url),
        byType('email', c.email),
        byType('inn', c.inn),
        byType('name', c.name),
        // CASE keeps the cast away from rows of other types (the planner may reorder an AND).
        c.ip ? sql`CASE WHEN ${t.type} = 'ip' THEN ${c.ip}::inet <<= ${t.matchKey}::inet ELSE false END` : undefined,
      );
      if (!anyOf) return undefined;
      const [r] = await tx
        .select({ id: t.id, kind: t.kind, companyId: t.companyId })
        .from(t)
        .where(
          and(
            companyId === null ? isNull(t.companyId) : or(eq(t.companyId, companyId), isNull(t.companyId)),
            sql`(${t.expiresAt} IS NULL OR ${t.expiresAt} > now())`,
            anyOf,
          ),
        )
        .orderBy(sql`${t.companyId} IS NULL`, asc(t.id))
        .limit(1);
      return r;
    },

    /** Live (unexpired) entries of a company and the global list (null: of every company), in match order. */
    async liveEntries(companyId: number | null, tx: Db = db): Promise<LiveEntry[]> {
      return tx
        .select({
          id: whitelistItems.id,
          companyId: whitelistItems.companyId,
          type: whitelistItems.type,
          matchKey: whitelistItems.matchKey,
          kind: whitelistItems.kind,
        })
        .from(whitelistItems)
        .where(
          and(
            companyId === null ? undefined : or(eq(whitelistItems.companyId, companyId), isNull(whitelistItems.companyId)),
            sql`(${whitelistItems.expiresAt} IS NULL OR ${whitelistItems.expiresAt} > now())`,
          ),
        )
        .orderBy(sql`${whitelistItems.companyId} IS NULL`, asc(whitelistItems.id));
    },

    /**
     * Marks the entries that have expired since the last call as handled and returns their scopes
     * (moving `expires_at` makes an entry pending again).
     */
    async takeExpired(tx: Db = db): Promise<Scope[]> {
      const rows = await tx
        .update(whitelistItems)
        .set({ expiryAppliedAt: sql`now()` })
        .where(
          and(
            isNotNull(whitelistItems.expiresAt),
            isNull(whitelistItems.expiryAppliedAt),
            lte(whitelistItems.expiresAt, sql`now()`),
          ),
        )
        .returning({ companyId: whitelistItems.companyId });
      return rows.map((r) => r.companyId);
    },

    /**
     * A batch of events (of one company, or of all) after `lastId`, by id, with what re-marking reads.
     * `updatedAt` travels as text: a JS Date would lose the microseconds the later comparison needs.
     */
    async eventsAfter(scope: number | 'all', lastId: number, limit: number, tx: Db = db) {
      return tx
        .select({
          id: events.id,
          companyId: events.companyId,
          module: events.module,
          data: events.data,
          kind: events.whitelistKind,
          updatedAt: sql<string>`${events.updatedAt}::text`,
        })
        .from(events)
        .where(and(scope === 'all' ? undefined : eq(events.companyId, scope), gt(events.id, lastId)))
        .orderBy(asc(events.id))
        .limit(limit);
    },

    /** Writes the whitelist kinds, each only while its event is unchanged since it was read (`updatedAt`). */
    async setEventKinds(changes: { id: number; kind: WhitelistKind | null; updatedAt: string }[], tx: Db = db): Promise<void> {
      if (!changes.length) return;
      const values = sql.join(
        changes.map((c) => sql`(${c.id}::bigint, ${c.kind}::text, ${c.updatedAt}::timestamptz)`),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE ${events} AS e SET whitelist_kind = v.kind
        FROM (VALUES ${values}) AS v(id, kind, updated_at)
        WHERE e.id = v.id AND e.updated_at = v.updated_at`);
    },
  };
}
export type WhitelistRepo = ReturnType<typeof createWhitelistRepo>;
