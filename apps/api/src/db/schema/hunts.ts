/* Credential-leak hunts (#34): a dump matched against every company, its byte ranges (one job each) and results. */

import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { events, leaks } from './events';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A hunt: staff work over one stored dump, not owned by a company (its results are the companies' events). */
export const hunts = pgTable(
  'hunts',
  {
    id: serial('id').primaryKey(),
    leakId: integer('leak_id')
      .notNull()
      .references(() => leaks.id, { onDelete: 'restrict' }),
    docKey: text('doc_key').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** queued → running → done | failed. */
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    /** Russian, for the console; never holds a line of the dump. */
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('hunts_leak_idx').on(t.leakId), index('hunts_created_by_idx').on(t.createdBy)],
);

/**
 * A byte range of a hunt's dump, scanned by one job. Its counters are absolute (set, never added to): a range
 * taken over after its worker died is scanned anew and overwrites them, so the hunt's sums stay exact.
 */
export const huntRanges = pgTable(
  'hunt_ranges',
  {
    id: serial('id').primaryKey(),
    huntId: integer('hunt_id')
      .notNull()
      .references(() => hunts.id, { onDelete: 'cascade' }),
    start: bigint('start', { mode: 'number' }).notNull(),
    end: bigint('end', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    unrecognized: bigint('unrecognized', { mode: 'number' }).notNull().default(0),
    /** Lines parsed one by one (all of them, or the prefilter's sample `unrecognized` is estimated from). */
    parsed: bigint('parsed', { mode: 'number' }).notNull().default(0),
    /** Shapes of unrecognised lines (letters → a/A, digits → 9): never the text. */
    samples: jsonb('samples').$type<string[]>().notNull().default([]),
    heartbeatAt: ts('heartbeat_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('hunt_ranges_uq').on(t.huntId, t.start)],
);

/**
 * An account a hunt found: one row per hunt, company and folded login whatever range or attempt wrote it
 * (the unique index is the exactly-once rule). Holds the verdict (masked, HMAC, class), never the password.
 */
export const huntResults = pgTable(
  'hunt_results',
  {
    id: serial('id').primaryKey(),
    huntId: integer('hunt_id')
      .notNull()
      .references(() => hunts.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    login: text('login').notNull(),
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'set null' }),
    /** The event was created by this hunt (not an account already known). */
    isNew: boolean('is_new').notNull(),
    corporateUrl: boolean('corporate_url').notNull().default(false),
    service: text('service'),
    passwordKind: text('password_kind').notNull(),
    masked: text('masked'),
    hmac: text('hmac'),
    strength: text('strength'),
    hashType: text('hash_type'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('hunt_results_uq').on(t.huntId, t.companyId, t.login),
    index('hunt_results_company_idx').on(t.companyId),
    index('hunt_results_event_idx').on(t.eventId),
    index('hunt_results_hmac_idx').on(t.hmac),
  ],
);
