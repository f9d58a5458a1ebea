/*
 * Analytics rollups, the classification pipeline's bookkeeping, notification mailings and reports.
 * The rollups are maintained by statement-level triggers on `events` (see the «insights» migration
 * and docs/architecture.md, «Аналитика»).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { docs, events } from './events';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The counted columns of a day rollup: the total and its split by priority and (media) sentiment. */
const dayCountColumns = () => ({
  total: integer('total').notNull().default(0),
  pNone: integer('p_none').notNull().default(0),
  pLow: integer('p_low').notNull().default(0),
  pMedium: integer('p_medium').notNull().default(0),
  pHigh: integer('p_high').notNull().default(0),
  pCritical: integer('p_critical').notNull().default(0),
  cPositive: integer('c_positive').notNull().default(0),
  cNegative: integer('c_negative').notNull().default(0),
  cNeutral: integer('c_neutral').notNull().default(0),
  cUndefined: integer('c_undefined').notNull().default(0),
});

/**
 * Event counts per company, module and calendar day (Europe/Moscow, of created_at), with the split by
 * priority and (media) sentiment as columns — one narrow row per company, module and day, whatever
 * the number of events. Folded from `event_count_deltas`.
 */
export const eventDayCounts = pgTable(
  'event_day_counts',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    module: text('module').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...dayCountColumns(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.module, t.day] }), index('event_day_counts_day_idx').on(t.day, t.module)],
);

/** Event counts per company, module, day and status (the status charts and report tables). */
export const eventDayStatusCounts = pgTable(
  'event_day_status_counts',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    module: text('module').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    statusId: integer('status_id').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.module, t.day, t.statusId] }),
    index('event_day_status_counts_module_day_idx').on(t.module, t.day),
  ],
);

/**
 * The same counts over all companies (module × day): what a staff user's dashboard («все компании»)
 * reads — 16 × 90 rows for 90 days instead of companies × 16 × 90. Folded from the same deltas
 * (including those of deleted companies, whose events left these totals too).
 */
export const eventModuleDayCounts = pgTable(
  'event_module_day_counts',
  {
    module: text('module').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...dayCountColumns(),
  },
  (t) => [primaryKey({ columns: [t.module, t.day] })],
);

/** Per status over all companies (module × day × status): the staff status charts. */
export const eventModuleDayStatusCounts = pgTable(
  'event_module_day_status_counts',
  {
    module: text('module').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    statusId: integer('status_id').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.module, t.day, t.statusId] })],
);

/**
 * Append-only changes of the counts, written by the triggers on `events` (no row locks shared between
 * writers); a worker folds them into the rollups every few seconds. Readers add both.
 * No foreign key: a company's deletion cascades to its events, whose triggers still write here.
 */
export const eventCountDeltas = pgTable(
  'event_count_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    module: text('module').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    priorityId: integer('priority_id').notNull(),
    statusId: integer('status_id').notNull(),
    connotation: text('connotation').notNull(),
    delta: bigint('delta', { mode: 'number' }).notNull(),
  },
  (t) => [index('event_count_deltas_day_idx').on(t.day)],
);

/**
 * One row: the rollups' generation, raised by every fold that changed them and by a rebuild (in the
 * same transaction). With no pending deltas in a filter, an unchanged generation means unchanged
 * figures — the dashboard's answer cache checks exactly that (analytics.service, `cached`).
 */
export const eventRollupState = pgTable('event_rollup_state', {
  id: integer('id').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull(),
});

/** The classification pipeline's record of an event: attempts, result, last error, next retry. */
export const eventMl = pgTable(
  'event_ml',
  {
    eventId: bigint('event_id', { mode: 'number' })
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    classifier: text('classifier', { enum: ['builtin', 'external'] }),
    result: jsonb('result').$type<Record<string, unknown>>(),
    lastError: text('last_error'),
    /** A failed event is re-queued automatically at this time (null = not scheduled). */
    nextAttemptAt: ts('next_attempt_at'),
    sentAt: ts('sent_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('event_ml_retry_idx').on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} IS NOT NULL`)],
);

export const mailings = pgTable(
  'mailings',
  {
    id: serial('id').primaryKey(),
    /** null = every company (staff only). */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    recipients: text('recipients').array().notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** Events created before this are never sent (a new mailing does not mail the past). */
    startsAt: ts('starts_at').notNull().defaultNow(),
    /** Events created up to here have been matched (the next pass re-reads a day before it, for late commits). */
    collectedUntil: ts('collected_until'),
    nextDigestAt: ts('next_digest_at'),
    lastSentAt: ts('last_sent_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mailings_company_idx').on(t.companyId), index('mailings_created_by_idx').on(t.createdBy)],
);

/** One email (or its attempts) of a mailing. */
export const mailingDeliveries = pgTable(
  'mailing_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mailingId: integer('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'retry', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    eventCount: integer('event_count').notNull().default(0),
    listedCount: integer('listed_count').notNull().default(0),
    subject: text('subject').notNull().default(''),
    recipients: text('recipients').array().notNull(),
    lastError: text('last_error'),
    messageId: text('message_id'),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('mailing_deliveries_mailing_idx').on(t.mailingId, t.id.desc()),
    index('mailing_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} IN ('pending', 'retry', 'sending')`),
  ],
);

/**
 * The delivery ledger: an event matched by a mailing, once. UNIQUE (mailing_id, event_id) is what
 * guarantees no event is ever sent twice by the same mailing. `delivery_id` null = waiting for the
 * next digest. Rows outlive deleted events (the event id is never reused).
 */
export const mailingEvents = pgTable(
  'mailing_events',
  {
    mailingId: integer('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).references(() => mailingDeliveries.id, { onDelete: 'set null' }),
    matchedAt: ts('matched_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mailingId, t.eventId] }),
    index('mailing_events_delivery_idx').on(t.deliveryId),
    index('mailing_events_pending_idx').on(t.mailingId).where(sql`${t.deliveryId} IS NULL`),
  ],
);

/**
 * The transitions ledger (#31): a watch transition of a subscribed kind that happened to an event the
 * mailing matches, once. PRIMARY KEY (mailing_id, transition_id) guarantees no transition is mailed twice
 * by the same mailing; `delivery_id` null = waiting. Like `mailing_events`, rows outlive the transition.
 */
export const mailingTransitions = pgTable(
  'mailing_transitions',
  {
    mailingId: integer('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    transitionId: bigint('transition_id', { mode: 'number' }).notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).references(() => mailingDeliveries.id, { onDelete: 'set null' }),
    matchedAt: ts('matched_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mailingId, t.transitionId] }),
    index('mailing_transitions_delivery_idx').on(t.deliveryId),
    index('mailing_transitions_pending_idx').on(t.mailingId).where(sql`${t.deliveryId} IS NULL`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    modules: text('modules').array().notNull(),
    /** «Резюме аналитика» (page 1 of the PDF). */
    summary: text('summary'),
    status: text('status', { enum: ['queued', 'rendering', 'ready', 'failed'] })
      .notNull()
      .default('queued'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    docId: integer('doc_id').references(() => docs.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    generatedAt: ts('generated_at'),
    lastSentAt: ts('last_sent_at'),
  },
  (t) => [
    index('reports_company_idx').on(t.companyId, t.id.desc()),
    index('reports_doc_idx').on(t.docId),
    index('reports_created_by_idx').on(t.createdBy),
    index('reports_queued_idx').on(t.id).where(sql`${t.status} IN ('queued', 'rendering')`),
  ],
);

/**
 * One «send by email» of a report: queued by the request, delivered by the background job (retried
 * with backoff); `sending` is taken by compare-and-set so one row is never mailed twice.
 */
export const reportSends = pgTable(
  'report_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    recipients: text('recipients').array().notNull(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    messageId: text('message_id'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('report_sends_report_idx').on(t.reportId, t.id.desc()),
    index('report_sends_created_by_idx').on(t.createdBy),
    index('report_sends_active_idx').on(t.id).where(sql`${t.status} IN ('queued', 'sending')`),
  ],
);
