/*
 * The outbox (#33): what happened, committed in the transaction of the change it reports
 * (`outbox_messages`), the integration targets a company or the instance sends it to (Standard Webhooks
 * endpoints and syslog/CEF outputs, `integration_targets`), and one delivery per message and target
 * (`integration_deliveries`: its retry schedule, lease and the last attempt — the delivery log).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One thing that happened (contract OUTBOX_TYPES); fanned out to the matching targets when written. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The event module (null for messages that are no event's) and the event priority's level: target filters. */
    module: text('module'),
    priorityLevel: integer('priority_level'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('outbox_messages_created_idx').on(t.createdAt)],
);

/** A webhook endpoint or a syslog output of a company (company_id null: the instance's own, staff only). */
export const integrationTargets = pgTable(
  'integration_targets',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'webhook' | 'syslog'>().notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the sender turned it off (410 Gone, retries exhausted); cleared when turned on again. */
    disabledReason: text('disabled_reason'),
    /** Message types it wants (empty: all), modules (empty: all), the lowest priority level (null: any). */
    types: text('types').array().notNull().default(sql`'{}'::text[]`),
    modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
    minPriority: integer('min_priority'),
    /** webhook: the URL; syslog: host, port, TLS, facility. */
    url: text('url'),
    host: text('host'),
    port: integer('port'),
    tls: boolean('tls').notNull().default(false),
    facility: integer('facility').notNull().default(16),
    /** webhook: the signing secret (sealed), and the previous one until `previous_until` (rotation). */
    secret: text('secret'),
    previousSecret: text('previous_secret'),
    previousUntil: ts('previous_until'),
    /** 429/5xx: nothing is sent to the target before this moment (back-off of the whole target). */
    backoffUntil: ts('backoff_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('integration_targets_company_idx').on(t.companyId)],
);

/** One message to one target: pending (due at next_at), delivered or failed; the last attempt is its log. */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    targetId: integer('target_id')
      .notNull()
      .references(() => integrationTargets.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => outboxMessages.id, { onDelete: 'cascade' }),
    state: text('state').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: ts('next_at').notNull().defaultNow(),
    leaseUntil: ts('lease_until'),
    lastAt: ts('last_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastMs: integer('last_ms'),
    lastResponse: text('last_response'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [index('integration_deliveries_target_idx').on(t.targetId, t.id.desc())],
);
