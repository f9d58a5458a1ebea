/*
 * Data in and out: imports of events and of the leaks catalogue (with their row errors) and the
 * users' exports. The import job commits in batches, several at once; `cursor` is the last data row
 * up to which every batch committed, `import_spans` the batches committed beyond it, so a retried
 * job resumes after them without duplicates.
 */
import type { ImportDelimiter, ImportEncoding } from '@forpost/contract/imports';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { docs, leaks } from './events';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The columns every record job (import, export, bulk action) has for jobs-kit: attempts, times and
 * the heartbeat a stale run is taken over by. Fresh builders per table.
 */
export const jobRunColumns = () => ({
  attempts: integer('attempts').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
  /** Touched by the running job after every batch (a stale one is taken over). */
  heartbeatAt: ts('heartbeat_at'),
});

/** Who started a job: a user, or an API key (with its owner in author_id). */
export const jobAuthorColumns = () => ({
  authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
  authorKeyId: integer('author_key_id'),
});

export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    /** Module code, or 'leaks_catalogue'. */
    module: text('module').notNull(),
    /** The company chosen at start (null: not chosen yet, the catalogue, or a company column in the file). */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    /** The uploaded file (a doc of kind `import`). */
    docId: integer('doc_id').references(() => docs.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    format: text('format', { enum: ['csv', 'xlsx'] }).notNull(),
    encoding: text('encoding').$type<ImportEncoding>(),
    delimiter: text('delimiter').$type<ImportDelimiter>(),
    headers: jsonb('headers').$type<string[]>().notNull(),
    mapping: jsonb('mapping').$type<(string | null)[]>().notNull(),
    /** The first data rows as read at upload (the preview is re-validated from them when the mapping changes). */
    sample: jsonb('sample').$type<{ row: number; cells: string[] }[]>().notNull().default(sql`'[]'::jsonb`),
    mode: text('mode', { enum: ['update', 'skip'] })
      .notNull()
      .default('update'),
    /** uploaded | queued | running | done | failed | undone (deleted after it ran: kept in the history) */
    status: text('status', { enum: ['uploaded', 'queued', 'running', 'done', 'failed', 'undone'] })
      .notNull()
      .default('uploaded'),
    message: text('message'),
    rowsTotal: integer('rows_total'),
    rowsRead: integer('rows_read').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    errorsCount: integer('errors_count').notNull().default(0),
    /** Last data row (1-based, header excluded) committed by the job. */
    cursor: integer('cursor').notNull().default(0),
    /** Companies the author may import into, fixed at start (null = every company). */
    scope: integer('scope').array(),
    ...jobAuthorColumns(),
    ...jobRunColumns(),
  },
  (t) => [
    index('imports_module_created_idx').on(t.module, t.createdAt.desc()),
    index('imports_company_idx').on(t.companyId),
    index('imports_doc_idx').on(t.docId),
    index('imports_author_idx').on(t.authorId),
    index('imports_active_idx').on(t.status).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);

/** Rows that failed validation: row number, column, the value and the Russian reason. */
export const importRowErrors = pgTable(
  'import_row_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    importId: integer('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    column: text('column'),
    value: text('value'),
    message: text('message').notNull(),
  },
  (t) => [index('import_row_errors_import_row_idx').on(t.importId, t.row, t.id)],
);

/**
 * Batches committed past an import's cursor (batches commit in parallel, so out of file order):
 * the data rows after `from_row` up to `to_row`. A batch that closes the gap at the cursor folds
 * the spans it meets into the cursor and deletes them.
 */
export const importSpans = pgTable(
  'import_spans',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    fromRow: integer('from_row').notNull(),
    toRow: integer('to_row').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.fromRow] })],
);

/** Leaks catalogue entries an import created (deleting the import removes them). */
export const importLeaks = pgTable(
  'import_leaks',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    leakId: integer('leak_id')
      .notNull()
      .references(() => leaks.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.importId, t.leakId] }), index('import_leaks_leak_idx').on(t.leakId)],
);

export const dataExports = pgTable(
  'exports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: integer('key_id'),
    module: text('module').notNull(),
    name: text('name').notNull(),
    format: text('format', { enum: ['csv', 'xlsx', 'stix'] }).notNull(),
    fields: jsonb('fields').$type<string[]>().notNull(),
    /** The list query as given (shown back to the user). */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    /** Companies the rows may come from, fixed when the export was requested (null = every company). */
    scope: integer('scope').array(),
    /** Companies whose card numbers are exported in clear (null = every company). */
    revealScope: integer('reveal_scope').array(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    message: text('message'),
    rowsTotal: integer('rows_total'),
    rowsWritten: integer('rows_written').notNull().default(0),
    size: bigint('size', { mode: 'number' }),
    storageKey: text('storage_key'),
    ...jobRunColumns(),
  },
  (t) => [
    index('exports_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('exports_created_idx').on(t.createdAt),
    index('exports_active_idx').on(t.status).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);
