import { dateEnd, dateStart, type MessageListQuery, type RuleRef } from '@forpost/contract/filtrator';
import { normaliseChannel } from '@forpost/contract/telegram';
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, filtratorMessages, telegramChannels } from '../../db/schema/index';

type MessageRow = typeof filtratorMessages.$inferSelect;
export type NewMessageRow = typeof filtratorMessages.$inferInsert;
export interface MessageView {
  m: Omit<MessageRow, 'search'>;
  channel: { id: number; username: string; title: string | null };
  company: { id: number; name: string };
  highlight?: string;
}
export interface RuleHit extends RuleRef {
  keyword: string;
}

/** The text as HTML with every special character escaped (before ts_headline adds its <mark> tags). */
const escapedText = (col: SQL | typeof filtratorMessages.text) =>
  sql`replace(replace(replace(replace(replace(${col}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;

/** One excerpt around the best match (short messages come back whole). */
const HEADLINE_OPTIONS = 'StartSel=<mark>, StopSel=</mark>, MaxWords=45, MinWords=20';

/** OR of the message's matched keywords as one tsquery (empty when none): what the list highlights without a search. */
const rulesQuery = sql`coalesce((
  SELECT string_agg('(' || plainto_tsquery('russian', r)::text || ')', ' | ')
  FROM unnest(${filtratorMessages.rules}) AS r
  WHERE numnode(plainto_tsquery('russian', r)) > 0
), '')::tsquery`;

const SORTS: Record<MessageListQuery['sort'], SQL[]> = {
  posted_at: [asc(filtratorMessages.postedAt), asc(filtratorMessages.id)],
  '-posted_at': [desc(filtratorMessages.postedAt), desc(filtratorMessages.id)],
  created_at: [asc(filtratorMessages.createdAt), asc(filtratorMessages.id)],
  '-created_at': [desc(filtratorMessages.createdAt), desc(filtratorMessages.id)],
};

/**
 * Keyword hits of `text` against every keyword list of the company's channels: Russian word forms
 * aware (to_tsvector('russian') @@ plainto_tsquery('russian', keyword)), ordered by channel and position.
 */
function hitsSql(companyId: number | SQL, text: string | SQL) {
  return sql`
    SELECT c.id AS item_id, (k.ord - 1)::int AS rule_index, k.kw AS keyword
    FROM ${telegramChannels} c
    CROSS JOIN LATERAL unnest(c.keywords) WITH ORDINALITY AS k(kw, ord)
    WHERE c.company_id = ${companyId}
      AND to_tsvector('russian', ${text}) @@ plainto_tsquery('russian', k.kw)
    ORDER BY c.id, k.ord`;
}

export function createFiltratorRepo(db: Db) {
  const columns = {
    m: {
      id: filtratorMessages.id,
      channelId: filtratorMessages.channelId,
      companyId: filtratorMessages.companyId,
      messageId: filtratorMessages.messageId,
      text: filtratorMessages.text,
      author: filtratorMessages.author,
      forwardedFrom: filtratorMessages.forwardedFrom,
      views: filtratorMessages.views,
      editedAt: filtratorMessages.editedAt,
      deletedAt: filtratorMessages.deletedAt,
      url: filtratorMessages.url,
      postedAt: filtratorMessages.postedAt,
      rules: filtratorMessages.rules,
      rulesMap: filtratorMessages.rulesMap,
      collectedByUserId: filtratorMessages.collectedByUserId,
      collectedByKeyId: filtratorMessages.collectedByKeyId,
      createdAt: filtratorMessages.createdAt,
    },
    channel: { id: telegramChannels.id, username: telegramChannels.username, title: telegramChannels.title },
    company: { id: companies.id, name: companies.name },
  };
  const base = (tx: Db, extra: Record<string, SQL> = {}) =>
    tx
      .select({ ...columns, ...extra })
      .from(filtratorMessages)
      .innerJoin(telegramChannels, eq(telegramChannels.id, filtratorMessages.channelId))
      .innerJoin(companies, eq(companies.id, filtratorMessages.companyId));

  return {
    /** The subscriptions of a channel: one row per company following it (telegram_channels). */
    async subscriptions(username: string, tx: Db = db) {
      return tx
        .select({ id: telegramChannels.id, username: telegramChannels.username, companyId: telegramChannels.companyId })
        .from(telegramChannels)
        .where(eq(telegramChannels.username, username))
        .orderBy(asc(telegramChannels.id));
    },

    async matchRules(companyId: number, text: string, tx: Db = db): Promise<RuleHit[]> {
      const r = await tx.execute<{ item_id: number; rule_index: number; keyword: string }>(hitsSql(companyId, text));
      return r.rows.map((x) => ({ item_id: Number(x.item_id), rule_index: Number(x.rule_index), keyword: x.keyword }));
    },

    /** Inserts unless (channel, message_id) exists; the new row's id, or undefined when it existed. */
    async insert(v: NewMessageRow, tx: Db = db): Promise<number | undefined> {
      const [r] = await tx.insert(filtratorMessages).values(v).onConflictDoNothing().returning({ id: filtratorMessages.id });
      return r?.id;
    },

    /** The stored rows of these message ids of one subscription: message id → row id and edit time. */
    async idsOf(
      channelId: number,
      messageIds: readonly number[],
      tx: Db = db,
    ): Promise<Map<number, { id: number; editedAt: Date | null }>> {
      if (!messageIds.length) return new Map();
      const r = await tx
        .select({ id: filtratorMessages.id, messageId: filtratorMessages.messageId, editedAt: filtratorMessages.editedAt })
        .from(filtratorMessages)
        .where(and(eq(filtratorMessages.channelId, channelId), inArray(filtratorMessages.messageId, [...messageIds])));
      return new Map(r.map((x) => [Number(x.messageId), { id: x.id, editedAt: x.editedAt }]));
    },

    /**
     * An edit seen in Telegram: the new text (and views, rules when given), only when `editedAt` is later
     * than the stored edit (a repeat or an older read changes nothing). True when the row changed.
     */
    async revise(
      id: number,
      v: { text: string; editedAt: Date; views?: number | null; rules?: string[]; rulesMap?: RuleRef[] },
      tx: Db = db,
    ): Promise<boolean> {
      const r = await tx
        .update(filtratorMessages)
        .set({
          text: v.text,
          editedAt: v.editedAt,
          ...(v.views != null && { views: v.views }),
          ...(v.rules && { rules: v.rules, rulesMap: v.rulesMap ?? [] }),
        })
        .where(
          and(
            eq(filtratorMessages.id, id),
            sql`(${filtratorMessages.editedAt} IS NULL OR ${filtratorMessages.editedAt} < ${v.editedAt.toISOString()}::timestamptz)`,
          ),
        )
        .returning({ id: filtratorMessages.id });
      return r.length === 1;
    },

    /**
     * Posts of these subscriptions with ids in [from, to] that Telegram no longer has (not in `present`)
     * are marked deleted (once; the rows stay). The rows marked now.
     */
    async markDeleted(channelIds: readonly number[], from: number, to: number, present: readonly number[], tx: Db = db) {
      if (!channelIds.length || from > to) return [];
      return tx
        .update(filtratorMessages)
        .set({ deletedAt: sql`now()` })
        .where(
          and(
            inArray(filtratorMessages.channelId, [...channelIds]),
            gte(filtratorMessages.messageId, from),
            lte(filtratorMessages.messageId, to),
            isNull(filtratorMessages.deletedAt),
            present.length ? notInArray(filtratorMessages.messageId, [...present]) : undefined,
          ),
        )
        .returning({
          id: filtratorMessages.id,
          companyId: filtratorMessages.companyId,
          channelId: filtratorMessages.channelId,
          messageId: filtratorMessages.messageId,
        });
    },

    async idOf(channelId: number, messageId: number, tx: Db = db): Promise<number | undefined> {
      const [r] = await tx
        .select({ id: filtratorMessages.id })
        .from(filtratorMessages)
        .where(and(eq(filtratorMessages.channelId, channelId), eq(filtratorMessages.messageId, messageId)))
        .limit(1);
      return r?.id;
    },

    async touchChannel(channelId: number, postedAt: Date, tx: Db = db) {
      await tx
        .update(telegramChannels)
        .set({ lastMessageAt: sql`greatest(coalesce(${telegramChannels.lastMessageAt}, ${postedAt}), ${postedAt})` })
        .where(eq(telegramChannels.id, channelId));
    },

    async find(id: number, tx: Db = db): Promise<MessageView | undefined> {
      const [r] = await base(tx).where(eq(filtratorMessages.id, id)).limit(1);
      return r;
    },

    /** `companyIds` 'all' or the ids the caller may read (never empty here). */
    async list(companyIds: 'all' | number[], q: MessageListQuery, tx: Db = db): Promise<{ rows: MessageView[]; total: number }> {
      const search = q.q ? sql`websearch_to_tsquery('russian', ${q.q})` : undefined;
      let channelCond: SQL | undefined;
      if (q.channel) {
        if (/^\d+$/.test(q.channel)) channelCond = eq(filtratorMessages.channelId, Number(q.channel));
        else
          channelCond = eq(
            telegramChannels.username,
            normaliseChannel(q.channel.startsWith('@') ? q.channel : `@${q.channel}`) ?? '',
          );
      }
      const where = and(
        companyIds === 'all' ? undefined : inArray(filtratorMessages.companyId, companyIds),
        q.company_id !== undefined && q.company_id !== -1 ? eq(filtratorMessages.companyId, q.company_id) : undefined,
        channelCond,
        q.date_from ? gte(filtratorMessages.postedAt, dateStart(q.date_from)) : undefined,
        q.date_to ? lte(filtratorMessages.postedAt, dateEnd(q.date_to)) : undefined,
        q.rule ? sql`${filtratorMessages.rules} @> ARRAY[${q.rule}]::text[]` : undefined,
        search ? sql`${filtratorMessages.search} @@ ${search}` : undefined,
      );
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(filtratorMessages)
        .innerJoin(telegramChannels, eq(telegramChannels.id, filtratorMessages.channelId))
        .where(where);
      const highlight = sql<string>`ts_headline('russian', ${escapedText(filtratorMessages.text)}, ${search ?? rulesQuery}, ${HEADLINE_OPTIONS})`;
      const rows = await base(tx, { highlight })
        .where(where)
        .orderBy(...SORTS[q.sort])
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { rows: rows as MessageView[], total: n };
    },

    async remove(id: number, tx: Db = db): Promise<boolean> {
      const r = await tx.delete(filtratorMessages).where(eq(filtratorMessages.id, id)).returning({ id: filtratorMessages.id });
      return r.length === 1;
    },

    /**
     * Moves a channel's messages to the channel's (new) company and re-matches them against that
     * company's keyword rules, in one statement; those its keywords do not match are deleted (a
     * company only keeps posts about itself). Returns how many messages it moved.
     */
    async rematchChannel(channelId: number, tx: Db = db): Promise<number> {
      const r = await tx.execute(sql`
        WITH ch AS (SELECT company_id FROM ${telegramChannels} WHERE id = ${channelId}),
        rules AS (
          SELECT c.id AS item_id, (k.ord - 1)::int AS rule_index, k.kw
          FROM ${telegramChannels} c CROSS JOIN LATERAL unnest(c.keywords) WITH ORDINALITY AS k(kw, ord)
          WHERE c.company_id = (SELECT company_id FROM ch)
        ),
        hits AS (
          SELECT m.id, r.item_id, r.rule_index, r.kw
          FROM ${filtratorMessages} m JOIN rules r ON m.search @@ plainto_tsquery('russian', r.kw)
          WHERE m.channel_id = ${channelId}
        ),
        maps AS (
          SELECT id, jsonb_agg(jsonb_build_object('item_id', item_id, 'rule_index', rule_index) ORDER BY item_id, rule_index) AS rules_map
          FROM hits GROUP BY id
        ),
        words AS (
          SELECT id, array_agg(kw ORDER BY item_id, rule_index) AS rules FROM (
            SELECT DISTINCT ON (id, lower(kw)) id, kw, item_id, rule_index FROM hits ORDER BY id, lower(kw), item_id, rule_index
          ) d GROUP BY id
        )
        UPDATE ${filtratorMessages} AS t
        SET company_id = (SELECT company_id FROM ch),
            rules = coalesce(words.rules, '{}'::text[]),
            rules_map = coalesce(maps.rules_map, '[]'::jsonb)
        FROM ${filtratorMessages} AS s
        LEFT JOIN maps ON maps.id = s.id
        LEFT JOIN words ON words.id = s.id
        WHERE t.id = s.id AND t.channel_id = ${channelId}`);
      await tx.execute(sql`DELETE FROM ${filtratorMessages} WHERE channel_id = ${channelId} AND rules = '{}'::text[]`);
      return r.rowCount ?? 0;
    },
  };
}
export type FiltratorRepo = ReturnType<typeof createFiltratorRepo>;
