import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Stored values of the system settings (the registry and defaults live in the contract). */
export const systemConfigs = pgTable(
  'system_configs',
  {
    key: text('key').primaryKey(),
    /** JSON value; for secret settings an AES-256-GCM envelope string. */
    value: jsonb('value').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('system_configs_updated_by_idx').on(t.updatedBy)],
);

/** Whitelist entries; company_id null = the global whitelist. */
export const whitelistItems = pgTable(
  'whitelist_items',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['domain', 'url', 'email', 'ip', 'name', 'inn'] }).notNull(),
    value: text('value').notNull(),
    /** Normalised form compared for duplicates and matching (punycode host, canonical IP, …). */
    matchKey: text('match_key').notNull(),
    kind: text('kind', { enum: ['whitelistClient', 'whitelistPartner', 'undefined'] })
      .notNull()
      .default('undefined'),
    comment: text('comment'),
    expiresAt: ts('expires_at'),
    /** When the expiry sweep re-marked events for this entry's expiry (null: not yet, or expiry moved since). */
    expiryAppliedAt: ts('expiry_applied_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whitelist_items_uq').on(sql`coalesce(${t.companyId}, 0)`, t.type, t.matchKey),
    index('whitelist_items_company_idx').on(t.companyId),
    index('whitelist_items_match_idx').on(t.type, t.matchKey),
    index('whitelist_items_created_by_idx').on(t.createdBy),
    index('whitelist_items_expiry_pending_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL AND ${t.expiryAppliedAt} IS NULL`),
  ],
);

/** Collector accounts. api_id / api_hash / session are AES-256-GCM envelopes, never returned. */
export const telegramAccounts = pgTable(
  'telegram_accounts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    status: text('status', { enum: ['active', 'paused', 'banned'] })
      .notNull()
      .default('active'),
    comment: text('comment'),
    apiIdEnc: text('api_id_enc'),
    apiHashEnc: text('api_hash_enc'),
    sessionEnc: text('session_enc'),
    /** Telegram's FLOOD_WAIT: the account makes no calls before this time. */
    floodWaitUntil: ts('flood_wait_until'),
    lastActivityAt: ts('last_activity_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('telegram_accounts_phone_uq').on(t.phone), index('telegram_accounts_created_by_idx').on(t.createdBy)],
);

/**
 * A company's subscription to a channel: one row per (channel, company), `keywords` are that company's
 * keyword rules. A public channel is a shared source (telegram_sources): collected once, each message
 * stored for a subscribing company only when that company's keywords match.
 */
export const telegramChannels = pgTable(
  'telegram_channels',
  {
    id: serial('id').primaryKey(),
    /** '@username', lower-case. */
    username: text('username').notNull(),
    title: text('title'),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    lastMessageAt: ts('last_message_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('telegram_channels_username_company_uq').on(t.username, t.companyId),
    index('telegram_channels_company_idx').on(t.companyId),
    index('telegram_channels_created_by_idx').on(t.createdBy),
  ],
);

/**
 * A channel as a source, collected once for all its subscriptions (telegram_channels rows of the same
 * username): where collection stands (the last message id read), its state, and the lease of the
 * worker collecting it (one collector per channel across all machines; an expired lease is taken over).
 */
export const telegramSources = pgTable(
  'telegram_sources',
  {
    id: serial('id').primaryKey(),
    /** '@username', lower-case (as telegram_channels.username). */
    username: text('username').notNull(),
    /** The highest message id read; the next pass reads newer ones only. Null: never collected. */
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    state: text('state', { enum: ['pending', 'ok', 'not_found', 'error'] })
      .notNull()
      .default('pending'),
    error: text('error'),
    collectedAt: ts('collected_at'),
    nextRunAt: ts('next_run_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    /** MTProto: the collector account the channel is assigned to (null: unassigned / preview). */
    accountId: integer('account_id').references(() => telegramAccounts.id, { onDelete: 'set null' }),
    /**
     * How the channel is read: 'preview' — Telegram's public web preview, no account; 'account' — by a
     * signed-in collector account (MTProto). Each collector claims only its own mode's sources.
     */
    collectMode: text('collect_mode', { enum: ['preview', 'account'] })
      .notNull()
      .default('preview'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('telegram_sources_account_idx').on(t.accountId),
    uniqueIndex('telegram_sources_username_uq').on(t.username),
    index('telegram_sources_due_idx').on(t.nextRunAt),
  ],
);

/** Messages posted by collectors, with the keyword rules they matched. */
export const filtratorMessages = pgTable(
  'filtrator_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => telegramChannels.id, { onDelete: 'cascade' }),
    /** The channel's company when the message arrived (the tenant of the row). */
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    text: text('text').notNull(),
    author: text('author'),
    /** «Forwarded from»: the channel (title and @name) or the hidden sender's name the post was forwarded from. */
    forwardedFrom: text('forwarded_from'),
    /** Views when the post was read (or last re-read); null when the source shows none. */
    views: bigint('views', { mode: 'number' }),
    /** Telegram's edit time of the post (the text is the edited one); null when never edited. */
    editedAt: ts('edited_at'),
    /** When the collector saw the post deleted in Telegram: the row stays, marked «удалено». */
    deletedAt: ts('deleted_at'),
    url: text('url'),
    postedAt: ts('posted_at').notNull(),
    rules: text('rules').array().notNull().default(sql`'{}'::text[]`),
    rulesMap: jsonb('rules_map').$type<{ item_id: number; rule_index: number }[]>().notNull().default([]),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('russian'::regconfig, "text")`),
    collectedByUserId: integer('collected_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    collectedByKeyId: integer('collected_by_key_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('filtrator_messages_channel_msg_uq').on(t.channelId, t.messageId),
    index('filtrator_messages_company_posted_idx').on(t.companyId, t.postedAt),
    index('filtrator_messages_posted_idx').on(t.postedAt),
    index('filtrator_messages_search_idx').using('gin', t.search),
    index('filtrator_messages_rules_idx').using('gin', t.rules),
    index('filtrator_messages_collected_by_idx').on(t.collectedByUserId),
  ],
);

/**
 * Facts every process of one installation must agree on, written by the first start: `secret` holds
 * a check value (HMAC) of SECRET, so a process started with another secret refuses to start.
 */
export const instanceChecks = pgTable('instance_checks', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
