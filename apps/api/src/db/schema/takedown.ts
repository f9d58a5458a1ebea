/*
 * Takedown requests (#32): per domain event a request with its state, evidence (what was known when
 * it was drafted), its recipients (found by RDAP or configured) with what was sent to each, its own
 * log of steps, and per company the escalation times and extra recipients.
 */
import type { RecipientKind, RecipientStatus, TakedownState, XarfType } from '@forpost/contract/takedown';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from './events';
import { companies } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const takedownRequests = pgTable(
  'takedown_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    state: text('state').$type<TakedownState>().notNull().default('draft'),
    xarfType: text('xarf_type').$type<XarfType>().notNull(),
    comment: text('comment'),
    registrar: text('registrar'),
    hosting: text('hosting'),
    /** What was known when the request was drafted (event fields, watch state, RDAP, snapshot). */
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
    /** The request this one follows (the site came back). */
    previousId: bigint('previous_id', { mode: 'number' }),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    acknowledgedAt: ts('acknowledged_at'),
    downAt: ts('down_at'),
    escalatedAt: ts('escalated_at'),
    closedAt: ts('closed_at'),
  },
  (t) => [
    index('takedown_requests_company_idx').on(t.companyId, t.id.desc()),
    index('takedown_requests_event_idx').on(t.eventId),
    index('takedown_requests_open_idx').on(t.state).where(sql`state IN ('sent', 'acknowledged', 'escalated', 'down')`),
  ],
);

export const takedownRecipients = pgTable(
  'takedown_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: bigint('request_id', { mode: 'number' })
      .notNull()
      .references(() => takedownRequests.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    position: integer('position').notNull(),
    kind: text('kind').$type<RecipientKind>().notNull(),
    email: text('email').notNull(),
    name: text('name'),
    source: text('source'),
    status: text('status').$type<RecipientStatus>().notNull().default('proposed'),
    messageId: text('message_id'),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [
    index('takedown_recipients_request_idx').on(t.requestId, t.position),
    index('takedown_recipients_rate_idx').on(sql`lower(${t.email})`, t.sentAt),
  ],
);

export const takedownLog = pgTable(
  'takedown_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: bigint('request_id', { mode: 'number' })
      .notNull()
      .references(() => takedownRequests.id, { onDelete: 'cascade' }),
    at: ts('at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorKeyId: integer('actor_key_id'),
    action: text('action').notNull(),
    fromState: text('from_state').$type<TakedownState>(),
    toState: text('to_state').$type<TakedownState>(),
    comment: text('comment'),
  },
  (t) => [index('takedown_log_request_idx').on(t.requestId, t.id)],
);

export const takedownSettings = pgTable('takedown_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  registrarSlaHours: integer('registrar_sla_hours').notNull().default(48),
  hostingSlaHours: integer('hosting_sla_hours').notNull().default(24),
  extraRecipients: jsonb('extra_recipients')
    .$type<{ email: string; name: string | null; zone: string | null }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
