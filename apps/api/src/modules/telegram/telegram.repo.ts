import { and, asc, desc, eq, getTableColumns, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, filtratorMessages, telegramAccounts, telegramChannels } from '../../db/schema/index';
import { containing } from '../../db/sql';
import { tableRepo } from '../../db/table';

export type AccountRow = typeof telegramAccounts.$inferSelect;
export type NewAccountRow = typeof telegramAccounts.$inferInsert;
export type ChannelRow = typeof telegramChannels.$inferSelect & { companyName: string; messagesCount: number };
export type NewChannelRow = typeof telegramChannels.$inferInsert;

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
      })
      .from(telegramChannels)
      .innerJoin(companies, eq(companies.id, telegramChannels.companyId));

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
  };
}
export type TelegramRepo = ReturnType<typeof createTelegramRepo>;
