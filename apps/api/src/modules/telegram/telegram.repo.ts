import { and, asc, desc, eq, getTableColumns, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, filtratorMessages, telegramAccounts, telegramChannels, telegramSources } from '../../db/schema/index';
import { containing } from '../../db/sql';
import { tableRepo } from '../../db/table';

export type AccountRow = typeof telegramAccounts.$inferSelect;
export type NewAccountRow = typeof telegramAccounts.$inferInsert;
export type ChannelRow = typeof telegramChannels.$inferSelect & {
  companyName: string;
  messagesCount: number;
  messagesToday: number;
  sourceState: SourceRow['state'] | null;
  sourceError: string | null;
  sourceCollectedAt: Date | null;
  sourceMode: SourceRow['collectMode'] | null;
  sourceAccountId: number | null;
  sourceAccountName: string | null;
};
export type NewChannelRow = typeof telegramChannels.$inferInsert;
export type SourceRow = typeof telegramSources.$inferSelect;

const ACCOUNT_SORTS: Record<string, SQL[]> = {
  name: [asc(telegramAccounts.name), asc(telegramAccounts.id)],
  '-name': [desc(telegramAccounts.name), desc(telegramAccounts.id)],
  created_at: [asc(telegramAccounts.createdAt), asc(telegramAccounts.id)],
  '-created_at': [desc(telegramAccounts.createdAt), desc(telegramAccounts.id)],
  last_activity_at: [sql`${telegramAccounts.lastActivityAt} asc nulls first`, asc(telegramAccounts.id)],
  '-last_activity_at': [sql`${telegramAccounts.lastActivityAt} desc nulls last`, asc(telegramAccounts.id)],
};
const CHANNEL_SORTS: Record<string, SQL[]> = {
  username: [asc(telegramChannels.username)],
  '-username': [desc(telegramChannels.username)],
  created_at: [asc(telegramChannels.createdAt), asc(telegramChannels.id)],
  '-created_at': [desc(telegramChannels.createdAt), desc(telegramChannels.id)],
  last_message_at: [sql`${telegramChannels.lastMessageAt} asc nulls first`, asc(telegramChannels.id)],
  '-last_message_at': [sql`${telegramChannels.lastMessageAt} desc nulls last`, asc(telegramChannels.id)],
};

export function createTelegramRepo(db: Db) {
  const accounts = tableRepo(db, telegramAccounts);
  const channels = tableRepo(db, telegramChannels);
  const selectChannel = (tx: Db) =>
    tx
      .select({
        ...getTableColumns(telegramChannels),
        companyName: companies.name,
        messagesCount: sql<number>`(SELECT count(*)::int FROM ${filtratorMessages} fm WHERE fm.channel_id = ${telegramChannels.id})`,
        messagesToday: sql<number>`(SELECT count(*)::int FROM ${filtratorMessages} fm WHERE fm.channel_id = ${telegramChannels.id} AND fm.posted_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`,
        sourceState: telegramSources.state,
        sourceError: telegramSources.error,
        sourceCollectedAt: telegramSources.collectedAt,
        sourceMode: telegramSources.collectMode,
        sourceAccountId: telegramSources.accountId,
        sourceAccountName: telegramAccounts.name,
      })
      .from(telegramChannels)
      .innerJoin(companies, eq(companies.id, telegramChannels.companyId))
      .leftJoin(telegramSources, eq(telegramSources.username, telegramChannels.username))
      .leftJoin(telegramAccounts, eq(telegramAccounts.id, telegramSources.accountId));

  return {
    /* Accounts */
    async listAccounts(
      q: { page: number; page_size: number; q?: string; status?: AccountRow['status']; sort: string },
      tx: Db = db,
    ) {
      const where = and(
        q.q
          ? or(
              ilike(telegramAccounts.name, containing(q.q)),
              ilike(telegramAccounts.phone, containing(q.q.replace(/[^\d+]/g, '') || q.q)),
            )
          : undefined,
        q.status ? eq(telegramAccounts.status, q.status) : undefined,
      );
      return accounts.page(tx.select().from(telegramAccounts).$dynamic(), where, ACCOUNT_SORTS[q.sort] ?? [], q, tx);
    },
    async findAccount(id: number, tx: Db = db): Promise<AccountRow | undefined> {
      return accounts.find(tx.select().from(telegramAccounts).$dynamic(), id);
    },
    async insertAccount(v: NewAccountRow, tx: Db = db): Promise<AccountRow> {
      const [r] = await tx.insert(telegramAccounts).values(v).returning();
      if (!r) throw new Error('insert returned nothing');
      return r;
    },
    async updateAccount(id: number, set: Partial<NewAccountRow>, tx: Db = db): Promise<AccountRow | undefined> {
      const [r] = await tx
        .update(telegramAccounts)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(telegramAccounts.id, id))
        .returning();
      return r;
    },
    async deleteAccount(id: number, tx: Db = db): Promise<boolean> {
      return accounts.remove(id, tx);
    },

    /* Channels */
    async listChannels(
      q: { page: number; page_size: number; q?: string; company_id?: number; is_active?: 'true' | 'false'; sort: string },
      tx: Db = db,
    ) {
      const where = and(
        q.q
          ? or(
              ilike(telegramChannels.username, containing(q.q.replace(/^@/, ''))),
              ilike(telegramChannels.title, containing(q.q)),
            )
          : undefined,
        q.company_id ? eq(telegramChannels.companyId, q.company_id) : undefined,
        q.is_active ? eq(telegramChannels.isActive, q.is_active === 'true') : undefined,
      );
      return channels.page(selectChannel(tx).$dynamic(), where, CHANNEL_SORTS[q.sort] ?? [], q, tx);
    },
    async findChannel(id: number, tx: Db = db): Promise<ChannelRow | undefined> {
      return channels.find(selectChannel(tx).$dynamic(), id);
    },
    insertChannel: channels.insert,
    async updateChannel(id: number, set: Partial<NewChannelRow>, tx: Db = db): Promise<boolean> {
      return channels.update(id, set, tx);
    },
    async deleteChannel(id: number, tx: Db = db): Promise<boolean> {
      return channels.remove(id, tx);
    },

    /* Sources: a channel collected once for all its subscriptions, under a lease */
    /** Every channel someone follows actively has a source row (new ones are due at once). */
    async enrolSources(tx: Db = db) {
      await tx.execute(sql`
        INSERT INTO ${telegramSources} (username)
        SELECT DISTINCT username FROM ${telegramChannels} WHERE is_active
        ON CONFLICT (username) DO NOTHING`);
    },
    /**
     * Sets how a channel is read (its source row, made when missing). A changed mode drops the account
     * assignment and makes the channel due at once; the lease is left alone, so the other collector
     * takes the channel only after the current pass ends (never both at once).
     */
    async setSourceMode(username: string, mode: SourceRow['collectMode'], tx: Db = db) {
      await tx.execute(sql`
        INSERT INTO ${telegramSources} (username, collect_mode) VALUES (${username}, ${mode})
        ON CONFLICT (username) DO UPDATE SET collect_mode = excluded.collect_mode, account_id = NULL, next_run_at = now()
        WHERE ${telegramSources}.collect_mode <> excluded.collect_mode`);
    },
    /**
     * Takes the lease of one due source followed by an active subscription, whose lease is free or
     * expired (its worker died): one collector per channel across all machines.
     */
    async claimSource(
      owner: string,
      leaseSeconds: number,
      mode: SourceRow['collectMode'],
      tx: Db = db,
    ): Promise<SourceRow | undefined> {
      const r = await tx.execute<{ id: number }>(sql`
        UPDATE ${telegramSources} SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE id = (
          SELECT s.id FROM ${telegramSources} s
          WHERE s.collect_mode = ${mode} AND s.next_run_at <= now() AND (s.lease_until IS NULL OR s.lease_until < now())
            AND EXISTS (SELECT 1 FROM ${telegramChannels} c WHERE c.username = s.username AND c.is_active)
          ORDER BY s.next_run_at, s.id
          LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id`);
      const id = r.rows[0]?.id;
      if (id === undefined) return undefined;
      const [row] = await tx
        .select()
        .from(telegramSources)
        .where(eq(telegramSources.id, Number(id)));
      return row;
    },
    /** Moves the source past `lastId` and extends the lease; false when the lease is no longer ours. */
    async advanceSource(id: number, owner: string, lastId: number, leaseSeconds: number, tx: Db = db): Promise<boolean> {
      const r = await tx.execute(sql`
        UPDATE ${telegramSources}
        SET last_message_id = greatest(coalesce(last_message_id, 0), ${lastId}),
            lease_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE id = ${id} AND lease_owner = ${owner} AND lease_until > now()`);
      return (r.rowCount ?? 0) === 1;
    },
    /** Ends a pass: its outcome, the next run, the lease released (only by its holder). */
    async finishSource(
      id: number,
      owner: string,
      v: { state: SourceRow['state']; error: string | null; nextInSeconds: number; collected: boolean },
      tx: Db = db,
    ) {
      await tx.execute(sql`
        UPDATE ${telegramSources}
        SET state = ${v.state}, error = ${v.error},
            collected_at = CASE WHEN ${v.collected} THEN now() ELSE collected_at END,
            next_run_at = now() + make_interval(secs => ${v.nextInSeconds}),
            lease_owner = NULL, lease_until = NULL
        WHERE id = ${id} AND lease_owner = ${owner}`);
    },
    /** The active subscriptions of a channel (one per company following it). */
    async activeSubscriptions(username: string, tx: Db = db) {
      return tx
        .select({ id: telegramChannels.id, username: telegramChannels.username, companyId: telegramChannels.companyId })
        .from(telegramChannels)
        .where(and(eq(telegramChannels.username, username), eq(telegramChannels.isActive, true)))
        .orderBy(asc(telegramChannels.id));
    },
    /* MTProto accounts: channel assignment (≤ max per account) */
    /** Accounts that may collect now (session, active, not in flood-wait), fewest channels first, under `max`. */
    async usableAccounts(max: number, now: Date, tx: Db = db) {
      const r = await tx.execute<{ id: number; assigned: number }>(sql`
        SELECT a.id, (SELECT count(*)::int FROM ${telegramSources} s WHERE s.account_id = a.id) AS assigned
        FROM ${telegramAccounts} a
        WHERE a.session_enc IS NOT NULL AND a.status = 'active'
          AND (a.flood_wait_until IS NULL OR a.flood_wait_until <= ${now.toISOString()}::timestamptz)
          AND (SELECT count(*) FROM ${telegramSources} s WHERE s.account_id = a.id) < ${max}
        ORDER BY assigned, a.id`);
      return r.rows.map((x) => ({ id: Number(x.id), assigned: Number(x.assigned) }));
    },
    async assignSource(sourceId: number, accountId: number | null, tx: Db = db) {
      await tx.update(telegramSources).set({ accountId }).where(eq(telegramSources.id, sourceId));
    },
    /** The account can no longer collect (flood-wait, signed out): its channels go back to the pool. */
    async unassignAccount(accountId: number, tx: Db = db) {
      await tx
        .update(telegramSources)
        .set({ accountId: null, nextRunAt: sql`now()` })
        .where(eq(telegramSources.accountId, accountId));
    },
    async sourceByUsername(username: string, tx: Db = db): Promise<SourceRow | undefined> {
      const [r] = await tx.select().from(telegramSources).where(eq(telegramSources.username, username));
      return r;
    },
  };
}
export type TelegramRepo = ReturnType<typeof createTelegramRepo>;
