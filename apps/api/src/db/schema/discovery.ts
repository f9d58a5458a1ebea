/* Discovery (#17): protected assets per company, discovery runs, and the CT monitor's position per log. */

import type { RunIssues } from '@forpost/contract/discovery';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What a company protects: its domains (punycode + Unicode) and brand keywords. */
export const discoveryAssets = pgTable(
  'discovery_assets',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['domain', 'keyword', 'word', 'login', 'login_pattern', 'login_fold'] }).notNull(),
    /** Domain: punycode (ASCII); keyword and combo word: lower-case as typed. */
    value: text('value').notNull(),
    unicode: text('unicode').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discovery_assets_uq').on(t.companyId, t.kind, t.value),
    index('discovery_assets_created_by_idx').on(t.createdBy),
  ],
);

/** One discovery run of a company: on demand or by the schedule; progress is written as it goes. */
export const discoveryRuns = pgTable(
  'discovery_runs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    trigger: text('trigger', { enum: ['manual', 'schedule'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    candidates: integer('candidates').notNull().default(0),
    resolved: integer('resolved').notNull().default(0),
    registered: integer('registered').notNull().default(0),
    newEvents: integer('new_events').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    error: text('error'),
    /** DNS errors and RDAP failures by reason with example names, sources missing at the start (RunIssues). */
    issues: jsonb('issues').$type<RunIssues>(),
    jobId: text('job_id'),
    /**
     * When a stop was asked for (POST /discovery/runs/{id}/cancel). A queued run is cancelled at once; the
     * worker of a running one reads this between its DNS queries and ends the run as «cancelled».
     */
    cancelRequestedAt: ts('cancel_requested_at'),
    /** Heartbeat of the worker running it (a run without one for long was interrupted). */
    heartbeatAt: ts('heartbeat_at'),
  },
  (t) => [
    index('discovery_runs_list_idx').on(t.createdAt.desc(), t.id.desc()),
    index('discovery_runs_company_idx').on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index('discovery_runs_created_by_idx').on(t.createdBy),
    // One unfinished run per company at a time (manual or scheduled).
    uniqueIndex('discovery_runs_active_uq').on(t.companyId).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);

/** The CT monitor's position in each configured log: the next entry index to read. */
export const ctLogState = pgTable('ct_log_state', {
  logUrl: text('log_url').primaryKey(),
  nextIndex: bigint('next_index', { mode: 'number' }).notNull().default(0),
  treeSize: bigint('tree_size', { mode: 'number' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
