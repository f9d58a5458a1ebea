/*
 * Bulk operations on «все N, подходящие под фильтр» of an event list. A large one runs as a job in
 * chunks: each chunk commits with `cursor` (the last event id done) and `processed`, so a job taken
 * over after a crash resumes after its last chunk.
 */
import type { BulkOp } from '@forpost/contract/events-bulk';
import type { Principal } from '@forpost/contract/permissions';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
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
    ...jobAuthorColumns(),
    ...jobRunColumns(),
  },
  (t) => [
    index('event_bulk_jobs_author_idx').on(t.authorId, t.createdAt.desc()),
    index('event_bulk_jobs_active_idx').on(t.status).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);
