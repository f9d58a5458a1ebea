import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, filtratorMessages, telegramAccounts, telegramChannels } from '../../db/schema/index';
import { containing } from '../../db/sql';

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
  const selectChannel = (tx: Db) =>
    tx
      .select({
        id: telegramChannels.id,
        username: telegramChannels.username,
        title: telegramChannels.title,
        companyId: telegramChannels.companyId,
        keywords: telegramChannels.keywords,
        isActive: telegramChannels.isActive,
        lastMessageAt: telegramChannels.lastMessageAt,
        createdBy: telegramChannels.createdBy,
        createdAt: telegramChannels.createdAt,
        updatedAt: telegramChannels.updatedAt,
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
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(telegramAccounts).where(where);
      const rows = await tx
        .select()
        .from(telegramAccounts)
        .where(where)
        .orderBy(...(ACCOUNT_SORTS[q.sort] ?? []))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { rows, total: n };
    },
    async findAccount(id: number, tx: Db = db): Promise<AccountRow | undefined> {
      const [r] = await tx.select().from(telegramAccounts).where(eq(telegramAccounts.id, id)).limit(1);
      return r;
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
      const r = await tx.delete(telegramAccounts).where(eq(telegramAccounts.id, id)).returning({ id: telegramAccounts.id });
      return r.length === 1;
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
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(telegramChannels).where(where);
      const rows = await selectChannel(tx)
        .where(where)
        .orderBy(...(CHANNEL_SORTS[q.sort] ?? []))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { rows, total: n };
    },
    async findChannel(id: number, tx: Db = db): Promise<ChannelRow | undefined> {
      const [r] = await selectChannel(tx).where(eq(telegramChannels.id, id)).limit(1);
      return r;
    },
    async insertChannel(v: NewChannelRow, tx: Db = db): Promise<number> {
      const [r] = await tx.insert(telegramChannels).values(v).returning({ id: telegramChannels.id });
      if (!r) throw new Error('insert returned nothing');
      return r.id;
    },
    async updateChannel(id: number, set: Partial<NewChannelRow>, tx: Db = db): Promise<boolean> {
      const r = await tx
        .update(telegramChannels)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(telegramChannels.id, id))
        .returning({ id: telegramChannels.id });
      return r.length === 1;
    },
    async deleteChannel(id: number, tx: Db = db): Promise<boolean> {
      const r = await tx.delete(telegramChannels).where(eq(telegramChannels.id, id)).returning({ id: telegramChannels.id });
      return r.length === 1;
    },
  };
}
export type TelegramRepo = ReturnType<typeof createTelegramRepo>;
