import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, companyMembers, sessions, users } from '../../db/schema/index';
import { createUsersRepo, type UserRow } from './users.repo';

export type SessionRow = typeof sessions.$inferSelect;
export type { UserRow };

type MemberRole = (typeof companyMembers.$inferSelect)['role'];

/** Neither revoked nor expired (idle or absolute), by the database's clock. */
const live = and(isNull(sessions.revokedAt), gt(sessions.idleExpiresAt, sql`now()`), gt(sessions.absoluteExpiresAt, sql`now()`));

export function createSessionsRepo(db: Db) {
  const usersRepo = createUsersRepo(db);
  /**
   * What a request needs to authenticate, in one round trip: the live session, its user, the user's
   * memberships in active companies (ordered by company name) and whether the session is due a
   * `touch` (last seen over a minute ago, by the database's clock), and the state of the dashboard
   * rollups at that moment. A named prepared statement: built once (on first use: the services
   * that only revoke sessions never build it), parsed and planned once per connection.
   */
  const prepareLiveAccess = () =>
    db
      .select({
        user: users,
        memberships: sql<{ company_id: number; role: MemberRole }[]>`coalesce((
        SELECT json_agg(json_build_object('company_id', m.company_id, 'role', m.role) ORDER BY c.name)
        FROM ${companyMembers} m JOIN ${companies} c ON c.id = m.company_id
        WHERE m.user_id = ${users.id} AND c.is_active), '[]'::json)`,
        touchDue: sql<boolean>`${sessions.lastSeenAt} < now() - interval '60 seconds'`,
        // When the session ends unless touched (ms since the epoch): no cached copy outlives it.
        expiresAtMs: sql<number>`(extract(epoch FROM least(${sessions.idleExpiresAt}, ${sessions.absoluteExpiresAt})) * 1000)::float8`,
        // The dashboard rollups' state in the same snapshot: a one-row lookup and «is any delta
        // pending» (stops at the first row; the table is folded every 5 s and vacuumed after bulk
        // folds). The analytics answer cache checks against it instead of a round trip of its own.
        rollupGeneration: sql<string | null>`(SELECT generation::text FROM event_rollup_state WHERE id = 1)`,
        rollupPending: sql<boolean>`EXISTS (SELECT 1 FROM event_count_deltas)`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder('id')), live))
      .limit(1)
      .prepare('forpost_auth_live_access');
  let liveAccess: ReturnType<typeof prepareLiveAccess> | undefined;
  return {
    /**
     * Runs `fn` in one transaction: a session change and its audit entry commit together
     * (docs/decisions.md, «Аудит — в той же транзакции, что и изменение»).
     */
    transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(tx));
    },
    /** The user of an email (users.repo). */
    findUserByEmail: usersRepo.findByEmail,
    /** The user of an id (users.repo). */
    findUser: usersRepo.find,
    async memberships(userId: number, tx: Db = db) {
      return tx
        .select({
          companyId: companyMembers.companyId,
          role: companyMembers.role,
          name: companies.name,
          isActive: companies.isActive,
        })
        .from(companyMembers)
        .innerJoin(companies, eq(companies.id, companyMembers.companyId))
        .where(eq(companyMembers.userId, userId))
        .orderBy(companies.name);
    },
    async allCompanies(tx: Db = db) {
      return tx
        .select({ companyId: companies.id, name: companies.name, isActive: companies.isActive })
        .from(companies)
        .orderBy(companies.name);
    },
    async insert(v: typeof sessions.$inferInsert, tx: Db = db) {
      const [s] = await tx.insert(sessions).values(v).returning();
      if (!s) throw new Error('session insert returned nothing');
      return s;
    },
    /** The session plus its user, if it is neither revoked nor expired. */
    async findLive(id: string, tx: Db = db) {
      const [r] = await tx
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, id), live))
        .limit(1);
      return r;
    },
    /** The live session's user, memberships, whether a `touch` is due and the rollups' state (see `liveAccess`). */
    async findLiveAccess(id: string) {
      liveAccess ??= prepareLiveAccess();
      const [r] = await liveAccess.execute({ id });
      return r;
    },
    async findByRefresh(hash: string, tx: Db = db) {
      const [s] = await tx.select().from(sessions).where(eq(sessions.refreshHash, hash)).limit(1);
      return s;
    },
    async findByPrevRefresh(hash: string, tx: Db = db) {
      const [s] = await tx.select().from(sessions).where(eq(sessions.prevRefreshHash, hash)).limit(1);
      return s;
    },
    /** Rotates only if the presented hash is still current (compare-and-set: racing refreshes cannot both win). */
    async rotate(id: string, fromHash: string, toHash: string, idleExpiresAt: Date, tx: Db = db) {
      const r = await tx
        .update(sessions)
        .set({ refreshHash: toHash, prevRefreshHash: fromHash, rotatedAt: new Date(), lastSeenAt: new Date(), idleExpiresAt })
        .where(and(eq(sessions.id, id), eq(sessions.refreshHash, fromHash), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return r.length === 1;
    },
    /** A user's live sessions, the most recently seen first. */
    async liveOfUser(userId: number, tx: Db = db): Promise<SessionRow[]> {
      return tx
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), live))
        .orderBy(desc(sessions.lastSeenAt));
    },
    /** When each of these users last signed in (the newest session's start). */
    async lastLogins(userIds: number[], tx: Db = db): Promise<Map<number, Date>> {
      if (!userIds.length) return new Map();
      const rows = await tx
        .select({ userId: sessions.userId, at: sql<Date>`max(${sessions.createdAt})` })
        .from(sessions)
        .where(inArray(sessions.userId, userIds))
        .groupBy(sessions.userId);
      return new Map(rows.map((r) => [r.userId, new Date(r.at)]));
    },
    async touch(id: string, idleExpiresAt: Date, tx: Db = db) {
      await tx
        .update(sessions)
        .set({ lastSeenAt: new Date(), idleExpiresAt })
        .where(and(eq(sessions.id, id), sql`${sessions.lastSeenAt} < now() - interval '60 seconds'`));
    },
    async revoke(id: string, reason: string, tx: Db = db) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
    },
    /** Ends this live session of this user; false when there is none. */
    async revokeOwn(id: string, userId: number, reason: string, tx: Db = db): Promise<boolean> {
      const r = await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return r.length === 1;
    },
    /** Ends every session of a user (but `exceptId`); returns how many. */
    async revokeAllForUser(userId: number, reason: string, exceptId?: string | null, tx: Db = db): Promise<number> {
      const r = await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(
          and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptId ? sql`${sessions.id} <> ${exceptId}` : undefined),
        )
        .returning({ id: sessions.id });
      return r.length;
    },
  };
}
export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
