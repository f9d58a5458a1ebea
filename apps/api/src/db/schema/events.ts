/*
 * The event engine: one `events` table for all sixteen modules (module fields in `data` jsonb),
 * reference lists, history, comments, tags, documents and the module extras' tables.
 * Sizing and index choices: docs/architecture.md, «Событийный движок».
 */
import { MODULE_CODES } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Full-text search vector; built by the repo from the module's text fields ('russian' || 'simple'). */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Statuses per module (seeded at start from the registry; never deleted). */
export const eventStatuses = pgTable(
  'event_statuses',
  {
    id: serial('id').primaryKey(),
    module: text('module').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    isFinal: boolean('is_final').notNull().default(false),
    color: text('color').notNull().default('default'),
  },
  (t) => [uniqueIndex('event_statuses_module_code_uq').on(t.module, t.code)],
);

export const eventPriorities = pgTable(
  'event_priorities',
  {
    id: serial('id').primaryKey(),
    module: text('module').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    level: integer('level').notNull(),
    color: text('color').notNull().default('default'),
  },
  (t) => [uniqueIndex('event_priorities_module_code_uq').on(t.module, t.code)],
);

export const eventDecisions = pgTable(
  'event_decisions',
  {
    id: serial('id').primaryKey(),
    module: text('module').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('event_decisions_module_code_uq').on(t.module, t.code)],
);

/** Global tags (reference data); events hold tag ids in `events.tags`. */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_name_lower_uq').on(sql`lower(${t.name})`)],
);

/**
 * All events of all modules. status/priority/decision ids point at the seeded, append-only
 * reference tables and are checked by the service (no FK: it would need three more indexes on the
 * biggest table for deletes that never happen).
 */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    module: text('module').notNull(),
    title: text('title').notNull(),
    statusId: integer('status_id').notNull(),
    priorityId: integer('priority_id'),
    decisionId: integer('decision_id'),
    source: text('source').notNull().default('Other'),
    mlState: text('ml_state').notNull().default('NotDetermined'),
    whitelistKind: text('whitelist_kind'),
    /** sha256 of the module's fingerprint fields: UNIQUE per company and module (dedup). */
    fingerprint: text('fingerprint').notNull(),
    tags: integer('tags').array().notNull().default(sql`'{}'::integer[]`),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** Full-text vector; its words also go to `event_search_words` (triggers, migration 0019) for prefix search. */
    search: tsvector('search').notNull(),
    detectedAt: ts('detected_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * When the row last changed, as the TAXII server's «added» cursor (#33): set by the row triggers
     * `events_stix_added`/`events_stix_changed` to clock_timestamp() on every INSERT and every UPDATE
     * of what its STIX objects are made of, whatever the path (API, import, bulk, SQL); rows older
     * than the column share the migration's time.
     */
    stixAdded: ts('stix_added').notNull().defaultNow(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorKeyId: integer('author_key_id'),
    importId: integer('import_id'),
    /**
     * The event's indicators, `kind:value` (contract modules/indicators.ts), for related events and the
     * `indicator` filter; null = not computed yet (older rows, filled by the indicators backfill).
     */
    indicators: text('indicators').array(),
    /** Who works on the event (a user who may read it: the events service checks); null = unassigned. */
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /*
     * SLA (contract sla.ts; docs/decisions.md «SLA»): kept by the trigger `events_sla` (migration of
     * sla_policies) on every insert and status/priority change, whoever writes — API, batch, bulk, import.
     */
    /** The first status change away from «Новое» (null: not triaged yet). */
    triagedAt: ts('triaged_at'),
    /** Reaching a final status; cleared when the event leaves it. */
    resolvedAt: ts('resolved_at'),
    /** The pending deadline (triage, then resolution); null once resolved. */
    slaDueAt: ts('sla_due_at'),
    /** 'triage' | 'resolve' | null — which deadline `sla_due_at` is. */
    slaStage: text('sla_stage'),
    /** The stage whose breach was notified (the breach job: sla.jobs.ts). */
    slaNotifiedStage: text('sla_notified_stage'),
  },
  (t) => [
    uniqueIndex('events_fingerprint_uq').on(t.companyId, t.module, t.fingerprint),
    index('events_indicators_gin').using('gin', t.indicators),
    index('events_indicators_pending_idx').on(t.id).where(sql`${t.indicators} IS NULL`),
    // Ordered first pages; the trailing columns let the capped counts run as index-only scans.
    index('events_company_module_created_idx').on(
      t.companyId,
      t.module,
      t.createdAt.desc(),
      t.id.desc(),
      t.statusId,
      t.priorityId,
    ),
    index('events_module_created_idx').on(t.module, t.createdAt.desc(), t.id.desc(), t.companyId, t.statusId, t.priorityId),
    index('events_company_module_status_idx').on(
      t.companyId,
      t.module,
      t.statusId,
      t.createdAt.desc(),
      t.id.desc(),
      t.priorityId,
      t.decisionId,
    ),
    index('events_module_status_idx').on(t.module, t.statusId, t.createdAt.desc(), t.id.desc(), t.companyId, t.priorityId),
    index('events_company_module_priority_idx').on(
      t.companyId,
      t.module,
      t.priorityId,
      t.createdAt.desc(),
      t.id.desc(),
      t.statusId,
    ),
    // Sorted by «Обнаружено»: status and priority trail, so a status filter in that order is checked
    // inside the index (10M events: all companies + status + -detected_at read every row of the
    // status and sorted them — bench/README, case (a2)).
    index('events_company_module_detected_idx').on(
      t.companyId,
      t.module,
      t.detectedAt.desc(),
      t.id.desc(),
      t.statusId,
      t.priorityId,
    ),
    index('events_module_detected_idx').on(t.module, t.detectedAt.desc(), t.id.desc(), t.companyId, t.statusId, t.priorityId),
    // Free text, one GIN index per module (every search is within one module's list): a word's
    // posting list then holds only that module's rows, so the bitmap of a frequent word is built
    // from a fraction of the entries (10M events, «gazprombank bonus» in domains: 163 → 44 ms;
    // docs/decisions.md, «Поиск: индекс на модуль»). The company stays inside the index (btree_gin,
    // migration 0010). A module added to the registry gets its index by `npm run db:generate`;
    // test/events-search.test.ts («the search index») fails until it has one.
    ...MODULE_CODES.map((code) =>
      index(`events_search_${code}_gin`)
        .using('gin', t.companyId, t.search)
        .where(sql.raw(`module = '${code}'`)),
    ),
    index('events_tags_gin').using('gin', t.tags),
    index('events_company_module_stix_idx').on(t.companyId, t.module, t.stixAdded, t.id),
    index('events_author_idx').on(t.authorId),
    index('events_import_idx').on(t.importId).where(sql`${t.importId} IS NOT NULL`),
    // «Мои события» and the list's assignee filter: one user's events newest first; the trailing
    // columns let the module/company/status filters and the capped counts stay inside the index.
    index('events_assignee_created_idx')
      .on(t.assigneeId, t.createdAt.desc(), t.id.desc(), t.module, t.companyId, t.statusId, t.priorityId)
      .where(sql`${t.assigneeId} IS NOT NULL`),
    // SLA: the list sorted/filtered by the pending deadline (a company's, and all companies' for staff).
    index('events_company_module_sla_idx').on(t.companyId, t.module, t.slaDueAt, t.id),
    index('events_module_sla_idx').on(t.module, t.slaDueAt, t.id, t.companyId),
    // Overdue counts of the home page and the breach job: open events by deadline only.
    index('events_sla_due_idx').on(t.slaDueAt, t.companyId, t.module).where(sql`${t.slaDueAt} IS NOT NULL`),
  ],
);

/** Who changed what on an event, field by field. */
export const eventHistory = pgTable(
  'event_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    at: ts('at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorKeyId: integer('actor_key_id'),
    /** create | update | action | link | unlink */
    action: text('action').notNull(),
    field: text('field'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('event_history_event_idx').on(t.eventId, t.id), index('event_history_actor_idx').on(t.actorUserId)],
);

export const eventComments = pgTable(
  'event_comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('event_comments_event_idx').on(t.eventId, t.id), index('event_comments_author_idx').on(t.authorId)],
);

/** Files: metadata here, bytes in the DocStore under `storage_key` (never the user's file name). */
export const docs = pgTable(
  'docs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['screenshot', 'sample', 'avatar', 'import', 'report'] }).notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'set null' }),
    ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    mimetype: text('mimetype').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('docs_storage_key_uq').on(t.storageKey),
    index('docs_company_idx').on(t.companyId),
    index('docs_event_idx').on(t.eventId),
    index('docs_owner_idx').on(t.ownerUserId),
  ],
);

// --- domains ---------------------------------------------------------------

export const domainSnapshots = pgTable(
  'domain_snapshots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    takenAt: ts('taken_at').notNull().defaultNow(),
    screenshotDocId: integer('screenshot_doc_id').references(() => docs.id, { onDelete: 'set null' }),
    ip: text('ip'),
    httpStatus: integer('http_status'),
    pageTitle: text('page_title'),
    /** Where the fetch ended after redirects (the snapshot producer). */
    finalUrl: text('final_url'),
    /** Why the check failed (Russian, shown as is): NXDOMAIN, timeout, TLS error, refused address… */
    error: text('error'),
  },
  (t) => [
    index('domain_snapshots_event_idx').on(t.eventId, t.takenAt.desc()),
    index('domain_snapshots_doc_idx').on(t.screenshotDocId),
  ],
);

/** Domains that never raise an event for the company (exact domain or any subdomain of it). */
export const domainAllowlist = pgTable(
  'domain_allowlist',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    domainPunycode: text('domain_punycode').notNull(),
    comment: text('comment'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('domain_allowlist_company_domain_uq').on(t.companyId, t.domainPunycode),
    index('domain_allowlist_created_by_idx').on(t.createdBy),
  ],
);

// --- media, leaks ------------------------------------------------------------

export const mediaTypes = pgTable(
  'media_types',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_types_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const leakTypes = pgTable(
  'leak_types',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('leak_types_code_uq').on(t.code)],
);

/** The leaks catalogue (settings → leaks): known breaches that events and accounts refer to. */
export const leaks = pgTable(
  'leaks',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    leakTypeId: integer('leak_type_id').references(() => leakTypes.id, { onDelete: 'set null' }),
    leakedAt: date('leaked_at', { mode: 'string' }),
    recordsCount: bigint('records_count', { mode: 'number' }),
    sourceUrl: text('source_url'),
    description: text('description'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('leaks_name_lower_uq').on(sql`lower(${t.name})`), index('leaks_type_idx').on(t.leakTypeId)],
);

/** Accounts module: leaks an account event is linked to. */
export const accountLeaks = pgTable(
  'account_leaks',
  {
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    leakId: integer('leak_id')
      .notNull()
      .references(() => leaks.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.leakId] }),
    index('account_leaks_leak_idx').on(t.leakId),
    index('account_leaks_created_by_idx').on(t.createdBy),
  ],
);

// --- repositories --------------------------------------------------------------

export const repositoryFiles = pgTable(
  'repository_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    url: text('url'),
    matched: text('matched'),
    docId: integer('doc_id').references(() => docs.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('repository_files_event_idx').on(t.eventId, t.id), index('repository_files_doc_idx').on(t.docId)],
);

/** One-time reference seeds already applied (so an admin's deletions are not undone at the next start). */
export const appSeeds = pgTable('app_seeds', {
  name: text('name').primaryKey(),
  appliedAt: ts('applied_at').notNull().defaultNow(),
});
