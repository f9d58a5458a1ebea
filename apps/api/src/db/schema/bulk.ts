/*
 * Bulk operations on «все N, подходящие под фильтр» of an event list. A large one runs as a job in
 * chunks: each chunk commits with `cursor` (the last event id done) and `processed`, so a job taken
 * over after a crash resumes after its last chunk.
 */
import type { BulkOp } from '@forpost/contract/events-bulk';
import type { Principal } from '@forpost/contract/permissions';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './identity';
import { jobAuthorColumns, jobRunColumns } from './transfer';

export const eventBulkJobs = pgTable(
  'event_bulk_jobs',
  {
    id: serial('id').primaryKey(),
    module: text('module').notNull(),
    op: jsonb('op').$type<BulkOp>().notNull(),
    /** The list's filters as validated at the start (the list's own query, parsed). */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    /** The author's rights at the start: the job changes what they could then (as imports keep their scope). */
    principal: jsonb('principal').$type<Principal>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    message: text('message'),
    /** Events the filter selected at the start. */
    total: integer('total').notNull(),
    processed: integer('processed').notNull().default(0),
    /** The newest event id at the start: events created later are not touched. */
    maxId: bigint('max_id', { mode: 'number' }).notNull(),
    /** The last event id of the last committed chunk. */
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    /** The «Отменить» record of a change (op `patch`), filled chunk by chunk. */
    undoId: uuid('undo_id'),
    ...jobAuthorColumns(),
    ...jobRunColumns(),
  },
  (t) => [
    index('event_bulk_jobs_author_idx').on(t.authorId, t.createdAt.desc()),
    index('event_bulk_jobs_active_idx').on(t.status).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);

/**
 * «Отменить» after a change of many events (or one, from the keyboard): what the change did, per event
 * and field, for its author only and for a short while. Undo puts back each field still at the value the
 * change left; a field someone changed since stays as they left it.
 */
export const eventUndos = pgTable(
  'event_undos',
  {
    id: uuid('id').primaryKey(),
    module: text('module').notNull(),
    /** The one company of the changed events (null: several). */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorKeyId: integer('author_key_id'),
    /** The change in words, as the audit entry has it. */
    summary: text('summary').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('event_undos_expires_idx').on(t.expiresAt)],
);

export const eventUndoItems = pgTable(
  'event_undo_items',
  {
    undoId: uuid('undo_id')
      .notNull()
      .references(() => eventUndos.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** status_id | priority_id | decision_id | assignee_id | tags */
    field: text('field').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [primaryKey({ columns: [t.undoId, t.eventId, t.field] })],
);
