/*
 * Imports: upload (stored as a doc of kind `import`, format/encoding/delimiter detected, columns
 * mapped automatically, first rows validated) → start (queues the job) → the job → undo.
 *
 * The job commits in batches. Each batch is one transaction that also advances the import's
 * `cursor` (the last row committed) and its counters, so a retried job resumes right after it: no
 * row is imported twice, and dedup by fingerprint (`ON CONFLICT (company_id, module, fingerprint)`)
 * covers the same file submitted twice. Events of a running import appear batch by batch (that is
 * the live progress); the whole file is read through before the first batch, so a malformed file
 * fails with nothing written. A failed import keeps what it committed, marked with its import id,
 * and deleting the import removes exactly that.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { neutraliseCell } from '@forpost/contract/exports';
import {
  autoMapping,
  IMPORT_ERROR_REPORT_HEADERS,
  IMPORT_MAX_STORED_ERRORS,
  IMPORT_MSG,
  IMPORT_PREVIEW_ROWS,
  type ImportField,
  type ImportItem,
  type ImportMode,
  type ImportPreview,
  type ImportStartRequest,
  importUploadFields,
  LEAKS_CATALOGUE,
} from '@forpost/contract/imports';
import { EVENT_MSG, getModule, type ModuleCode } from '@forpost/contract/modules';
import { can, companiesWith } from '@forpost/contract/permissions';
import { stringify } from 'csv-stringify';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema/index';
import { imports } from '../../db/schema/index';
import { type Audit, clientDb } from '../../lib/audit';
import type { DocStore } from '../../lib/docstore';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors';
import type { ConfigsService } from '../configs/index';
import { assertModule, type Caller, keyCompany, ownsPersonal, targetCompany } from '../events/access';
import type { CardVault } from '../events/event-data';
import { createEventsRepo } from '../events/events.repo';
import { assertModuleEnabled } from '../events/events.service';
import type { CreateGuards, WhitelistKindFor } from '../events/hooks';
import type { Refs } from '../events/refs';
import { createImportsRepo, type ImportRow } from './imports.repo';
import {
  attachRecordJobs,
  createBossSlot,
  dropTemp,
  inClientTransaction,
  isTransient,
  LOCK_IMPORT,
  onClient,
  takeOverStalled,
  tempPath,
  withJobLock,
} from './jobs-kit';
import { type FileHead, headersOf, readHead, readRows, type SourceRow } from './rows';
import { type FileMeta, sniffFile } from './sniff';
import { eventTarget, type ImportContext, leaksCatalogueTarget, type RowError, type Target } from './targets';
import { inspectXlsx } from './xlsx';

export type TargetCode = ModuleCode | typeof LEAKS_CATALOGUE;

export const IMPORT_QUEUE = 'imports-run';
export const IMPORTS_MAINTENANCE = 'imports-maintenance';
export const IMPORT_BATCH = 1000;
/** Runs of one import before it is declared failed (a crash loop must end). */
const MAX_ATTEMPTS = 5;
const JOB_OPTIONS = { retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 };
/** Rows written before the target table's statistics are refreshed the first time (then doubling). */
const ANALYZE_AFTER = 2_000;

export interface ImportsDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  store: DocStore;
  dataDir: string;
  engine: { refs: Refs; vault: CardVault; guards: CreateGuards; whitelistKindFor: WhitelistKindFor };
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export interface RunOptions {
  batchSize?: number;
  /** Called after each committed batch (progress reporting; a throw stops the run like a crash). */
  onBatch?: (batches: number) => void | Promise<void>;
}

const MB = 1024 * 1024;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
// biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters from file names
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\]/g;
const cleanName = (s: string) => s.replace(UNSAFE_NAME, '_').trim().slice(0, 255) || 'import.csv';

const MIME: Record<string, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Problems of a mapping (Russian), empty when it can start. */
export function mappingErrors(
  fields: readonly ImportField[],
  headers: readonly string[],
  mapping: readonly (string | null)[],
): string[] {
  if (mapping.length !== headers.length) return [IMPORT_MSG.mappingLength];
  const out: string[] = [];
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const seen = new Set<string>();
  for (const key of mapping) {
    if (key === null) continue;
    const f = byKey.get(key);
    if (!f) {
      out.push(IMPORT_MSG.fieldUnknown);
      continue;
    }
    if (seen.has(key)) out.push(IMPORT_MSG.fieldTwice(f.label));
    seen.add(key);
  }
  if (!seen.size) out.push(IMPORT_MSG.nothingMapped);
  for (const f of fields) if (f.required && !seen.has(f.key)) out.push(IMPORT_MSG.requiredUnmapped(f.label));
  return [...new Set(out)];
}

export function createImportsService(deps: ImportsDeps) {
  const { db, pool, audit, store } = deps;
  const repo = createImportsRepo(db);
  const boss = createBossSlot(IMPORT_MSG.queueUnavailable);
  const targets = new Map<TargetCode, Target>();
  const eventsRepo = createEventsRepo(db);

  function targetOf(code: TargetCode): Target {
    let t = targets.get(code);
    if (!t) {
      t = (
        code === LEAKS_CATALOGUE ? leaksCatalogueTarget() : eventTarget(getModule(code), { ...deps.engine, events: eventsRepo })
      ) as Target;
      targets.set(code, t);
    }
    return t;
  }

  // --- access -------------------------------------------------------------------

  const importScope = (c: Caller) => companiesWith(c.auth.principal, 'events.import');

  /** Which imports of a target the caller sees: the catalogue's are staff-only (route permission); events' by company or authorship. */
  function visible(c: Caller, code: TargetCode): SQL {
    const base = eq(imports.module, code);
    if (code === LEAKS_CATALOGUE) return base;
    const scope = importScope(c);
    if (scope === 'all') return base;
    // Before start an import may have no company yet: then only its author sees it, signed in (never
    // through an API key: a key's uploads belong to its company from the start).
    const ofScope = scope.length ? inArray(imports.companyId, scope) : undefined;
    const mine = c.auth.keyId === null ? and(isNull(imports.companyId), eq(imports.authorId, c.auth.user.id)) : undefined;
    const reach = ofScope && mine ? or(ofScope, mine) : (ofScope ?? mine);
    return and(base, reach ?? sql`false`) as SQL;
  }

  function canSee(c: Caller, r: ImportRow): boolean {
    if (r.module === LEAKS_CATALOGUE) return true;
    const scope = importScope(c);
    if (scope === 'all') return true;
    return r.companyId === null ? ownsPersonal(c, r.authorId) : scope.includes(r.companyId);
  }

  async function load(c: Caller, code: TargetCode, id: number): Promise<ImportRow> {
    if (code !== LEAKS_CATALOGUE) assertModule(c, code);
    const r = await repo.find(id);
    if (!r || r.module !== code || !canSee(c, r)) throw notFound(IMPORT_MSG.notFound);
    return r;
  }

  function toItem(r: ImportRow): ImportItem {
    return {
      id: r.id,
      module: r.module,
      company_id: r.companyId,
      company_name: r.companyName,
      doc_id: r.docId,
      file_name: r.fileName,
      file_size: r.fileSize,
      format: r.format,
      encoding: r.encoding,
      delimiter: r.delimiter,
      headers: r.headers,
      mapping: r.mapping,
      mode: r.mode,
      status: r.status,
      message: r.message,
      rows_total: r.rowsTotal,
      rows_read: r.rowsRead,
      created: r.created,
      updated: r.updated,
      skipped: r.skipped,
      failed: r.failed,
      errors_count: r.errorsCount,
      author_id: r.authorId,
      author_name: r.authorName,
      created_at: r.createdAt.toISOString(),
      started_at: iso(r.startedAt),
      finished_at: iso(r.finishedAt),
      stalled: r.stalled === true,
    };
  }

  async function preview(
    code: TargetCode,
    headers: string[],
    sample: SourceRow[],
    mapping: (string | null)[],
    ctx: Pick<ImportContext, 'scope' | 'defaultCompanyId'>,
  ): Promise<ImportPreview> {
    const target = targetOf(code);
    const lookups = await target.loadLookups(db, ctx);
    const full: ImportContext = { importId: 0, mode: 'update', authorId: null, authorKeyId: null, ...ctx };
    const problems = mappingErrors(target.fields, headers, mapping);
    // Column errors of the preview only (a mapping problem is reported once, not on every row).
    const usable = mapping.length === headers.length ? mapping : headers.map(() => null);
    const rows = sample.map((r) => {
      const { errors } = target.prepare(r, usable, headers, lookups, full);
      const byCol = new Map<number, string>();
      for (const e of errors) if (e.col !== null && !byCol.has(e.col)) byCol.set(e.col, e.message);
      return {
        row: r.row,
        cells: headers.map((_, i) => {
          const error = byCol.get(i);
          return { value: r.cells[i] ?? '', ...(error ? { error } : {}) };
        }),
        // Row-level problems that are not about the mapping or the company chosen at start.
        errors: errors
          .filter((e) => e.col === null && !e.message.startsWith(IMPORT_MSG.required) && e.message !== EVENT_MSG.companyRequired)
          .map((e) => e.message),
      };
    });
    return {
      headers,
      mapping,
      fields: target.fields.map(({ options, ...f }) => (options ? { ...f, options: [...options] } : f)),
      rows,
      mapping_errors: problems,
    };
  }

  const scopeOf = (r: ImportRow): 'all' | number[] => (r.scope === null ? 'all' : r.scope);

  // --- the job --------------------------------------------------------------------

  async function fail(id: number, message: string) {
    await db
      .update(imports)
      .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(imports.id, id), inArray(imports.status, ['queued', 'running'])));
  }

  /** Copies the stored upload to a local temporary file (XLSX needs random access). */
  async function fetchFile(storageKey: string, suffix: string): Promise<string> {
    const temp = await tempPath(deps.dataDir, suffix);
    try {
      await pipeline(await store.get(storageKey), createWriteStream(temp, { mode: 0o600 }));
    } catch (e) {
      await dropTemp(temp);
      if ((e as { code?: string }).code === 'ENOENT') throw badRequest(IMPORT_MSG.fileMissing);
      throw e;
    }
    return temp;
  }

  /** Reads the file through once: structure errors surface before anything is written; counts the data rows. */
  async function countRows(
    id: number,
    file: string,
    meta: FileMeta,
    plan: Awaited<ReturnType<typeof inspectXlsx>> | undefined,
  ): Promise<number> {
    let n = -1;
    for await (const _ of readRows(file, meta, plan)) {
      n++;
      if (n > 0 && n % 50_000 === 0) await repo.update(id, { heartbeatAt: new Date() });
    }
    return Math.max(n, 0);
  }

  /**
   * The job: imports one import's rows in batches. Safe to call again after a crash (it resumes after
   * the last committed row) and concurrently (a second run finds the lock held and returns).
   */
  async function run(id: number, opts: RunOptions = {}): Promise<void> {
    const batchSize = opts.batchSize ?? IMPORT_BATCH;
    await withJobLock(pool, LOCK_IMPORT, id, async (client) => {
      const r0 = await repo.find(id);
      if (!r0 || (r0.status !== 'queued' && r0.status !== 'running')) return;
      if (r0.attempts >= MAX_ATTEMPTS) return fail(id, IMPORT_MSG.crashed);
      await repo.update(id, {
        status: 'running',
        attempts: r0.attempts + 1,
        startedAt: r0.startedAt ?? new Date(),
        heartbeatAt: new Date(),
      });
      const code = r0.module as TargetCode;
      const target = targetOf(code);
      let file: string | undefined;
      try {
        if (!r0.storageKey) throw badRequest(IMPORT_MSG.fileMissing);
        file = await fetchFile(r0.storageKey, `.${r0.format}`);
        const meta: FileMeta = { format: r0.format, encoding: r0.encoding, delimiter: r0.delimiter };
        const plan = meta.format === 'xlsx' ? await inspectXlsx(file) : undefined;
        let total = r0.rowsTotal;
        if (total === null) {
          total = await countRows(id, file, meta, plan);
          await repo.update(id, { rowsTotal: total, heartbeatAt: new Date() });
        }
        const ctx: ImportContext = {
          importId: id,
          mode: r0.mode as ImportMode,
          defaultCompanyId: r0.companyId,
          authorId: r0.authorId,
          authorKeyId: r0.authorKeyId,
          scope: scopeOf(r0),
        };
        const lookups = await target.loadLookups(db, ctx);
        const txDb = drizzle(client, { schema }) as unknown as Db;
        let cursor = r0.cursor;
        let errorsStored = r0.errorsCount;
        let batches = 0;
        let sinceAnalyze = 0;
        let analyzedRows = 0;
        let headers: string[] | undefined;

        interface Prepared {
          rows: SourceRow[];
          records: unknown[];
          errors: RowError[];
        }
        /** Validation and lookups of a batch: no transaction needed. */
        const prepareBatch = async (batch: SourceRow[], hdr: string[]): Promise<Prepared> => {
          const records: unknown[] = [];
          const errors: RowError[] = [];
          for (const row of batch) {
            const p = target.prepare(row, r0.mapping, hdr, lookups, ctx);
            if (p.record) records.push(p.record);
            else errors.push(...p.errors);
          }
          await target.enrich?.(db, records);
          return { rows: batch, records, errors };
        };

        /** One transaction: the batch's rows, its row errors, the counters and the cursor. False = stop (import gone). */
        const commitBatch = async ({ rows: batch, records, errors }: Prepared): Promise<boolean> => {
          for (let attempt = 1; ; attempt++) {
            await client.query('BEGIN');
            try {
              // The batch and its cursor commit together, so a commit lost in a server crash loses both
              // and the retry redoes the batch: no need to wait for the WAL flush of every batch. The
              // final `done` commits synchronously, which flushes all the batches before it.
              await client.query('SET LOCAL synchronous_commit = off');
              const st = await client.query<{ status: string }>('SELECT status FROM imports WHERE id = $1 FOR UPDATE', [id]);
              if (st.rows[0]?.status !== 'running') {
                await client.query('ROLLBACK');
                return false; // deleted or stopped meanwhile
              }
              const res = await target.write({ client, db: txDb }, records, ctx);
              const all = [...errors, ...res.errors];
              const failedRows = new Set(all.map((e) => e.row)).size;
              const room = Math.max(0, IMPORT_MAX_STORED_ERRORS - errorsStored);
              const kept = all.slice(0, room);
              await repo.insertErrors(client, id, kept);
              const last = batch[batch.length - 1]?.row ?? cursor;
              await client.query(
                `UPDATE imports SET cursor = $2, rows_read = rows_read + $3, created = created + $4, updated = updated + $5,
                        skipped = skipped + $6, failed = failed + $7, errors_count = errors_count + $8, heartbeat_at = now(), updated_at = now()
                  WHERE id = $1`,
                [id, last, batch.length, res.created, res.updated, res.skipped, failedRows, kept.length],
              );
              await client.query('COMMIT');
              cursor = last;
              errorsStored += kept.length;
              break;
            } catch (e) {
              await client.query('ROLLBACK').catch(() => undefined);
              if (isTransient(e) && attempt < 3) continue;
              throw e;
            }
          }
          batches++;
          sinceAnalyze += batch.length;
          if (sinceAnalyze >= Math.max(ANALYZE_AFTER, analyzedRows)) {
            // A big load outgrows the table's statistics; with stale ones the planner would pick the wrong
            // index for the dedup lookups (a scan per key). Refresh them on a doubling schedule.
            await client.query(target.analyze);
            const rt = await client.query('SELECT reltuples FROM pg_class WHERE oid = $1::regclass', [target.table]);
            analyzedRows = Number(rt.rows[0]?.reltuples ?? 0);
            sinceAnalyze = 0;
          }
          await opts.onBatch?.(batches);
          return true;
        };

        // The next batch is read, validated and looked up while the previous one is being written;
        // batches still commit one after another, in file order (the cursor stays exact).
        let inflight: Promise<boolean> = Promise.resolve(true);
        const submit = async (batch: SourceRow[], hdr: string[]): Promise<boolean> => {
          const prepared = await prepareBatch(batch, hdr);
          if (!(await inflight)) return false;
          inflight = commitBatch(prepared);
          inflight.catch(() => undefined); // observed by the next submit or at the end
          return true;
        };

        let batch: SourceRow[] = [];
        const rows = readRows(file, meta, plan);
        try {
          for await (const row of rows) {
            if (!headers) {
              headers = headersOf(row.cells);
              continue;
            }
            if (row.row <= cursor) continue;
            batch.push(row);
            if (batch.length >= batchSize) {
              if (!(await submit(batch, headers))) return;
              batch = [];
            }
          }
          if (batch.length && headers && !(await submit(batch, headers))) return;
          if (!(await inflight)) return;
        } finally {
          await rows.return(undefined);
          await inflight.catch(() => undefined); // never leave a write running on the connection
        }
        await db.transaction(async (tx) => {
          await tx
            .update(imports)
            .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date(), message: null })
            .where(and(eq(imports.id, id), eq(imports.status, 'running')));
          const done = await repo.find(id, tx);
          if (!done) return;
          await audit.record(
            { userId: done.authorId, keyId: done.authorKeyId },
            {
              action: 'import.done',
              entity: 'import',
              entityId: id,
              companyId: done.companyId,
              meta: {
                module: code,
                rows: done.rowsRead,
                created: done.created,
                updated: done.updated,
                skipped: done.skipped,
                failed: done.failed,
              },
            },
            tx,
          );
        });
      } catch (e) {
        // A problem of the file itself will not go away on a retry.
        if (e instanceof ApiError) return fail(id, e.message);
        throw e;
      } finally {
        await dropTemp(file);
      }
    });
  }

  /** Uploads never started are dropped after a week (file, doc and all); stray temporary files after a day. */
  async function dropAbandoned(): Promise<number> {
    const old = (
      await db.execute(
        sql`SELECT i.id, i.doc_id, d.storage_key FROM imports i LEFT JOIN docs d ON d.id = i.doc_id
             WHERE i.status = 'uploaded' AND i.created_at < now() - interval '7 days' LIMIT 500`,
      )
    ).rows as { id: number; doc_id: number | null; storage_key: string | null }[];
    for (const r of old) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM imports WHERE id = ${r.id} AND status = 'uploaded'`);
        if (r.doc_id) await tx.execute(sql`DELETE FROM docs WHERE id = ${r.doc_id}`);
      });
      if (r.storage_key) await store.delete(r.storage_key).catch(() => undefined);
    }
    const dir = path.join(deps.dataDir, 'tmp');
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      const f = path.join(dir, n);
      const st = await stat(f).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > 86_400_000) await rm(f, { force: true });
    }
    return old.length;
  }

  /**
   * Re-queues imports whose worker died (no heartbeat for STALL_SECONDS, nobody holds the lock): the
   * takeover job resumes after the last committed batch. Every worker runs it every SWEEP_SECONDS.
   */
  async function requeueStale(b: PgBoss = boss.get()): Promise<number> {
    return takeOverStalled(pool, b, { table: 'imports', lock: LOCK_IMPORT, queue: IMPORT_QUEUE, sendOptions: JOB_OPTIONS });
  }

  const uploadLimit = async () => (await deps.configs.get('import_file_max_mb')) * MB;

  return {
    toItem,
    run,
    /** The configured upload limit, bytes (read at run time). */
    uploadLimit,
    requeueStale,
    dropAbandoned,
    repo,

    async attach(b: PgBoss, opts: { work: boolean }) {
      boss.set(b);
      await attachRecordJobs(b, opts, {
        queue: IMPORT_QUEUE,
        failure: 'import job failed',
        idKey: 'importId',
        run,
        fail,
        failedMessage: IMPORT_MSG.failed,
        maintenance: {
          queue: IMPORTS_MAINTENANCE,
          expireInSeconds: 300,
          pollingIntervalSeconds: 5,
          cron: '* * * * *',
          run: async () => {
            await requeueStale(b);
            await dropAbandoned();
          },
        },
        sweep: requeueStale,
        log: deps.log,
      });
    },

    async upload(c: Caller, code: TargetCode, part: MultipartFile): Promise<ImportItem & { preview: ImportPreview }> {
      if (code !== LEAKS_CATALOGUE) assertModule(c, code);
      const fileName = cleanName(part.filename);
      const maxBytes = await uploadLimit();
      const rawCompany = (part.fields.company_id as { value?: unknown } | undefined)?.value;
      let companyId: number | null = null;
      let temp: string | undefined;
      let storageKey: string | undefined;
      try {
        if (rawCompany !== undefined && rawCompany !== '' && code !== LEAKS_CATALOGUE) {
          const f = importUploadFields.safeParse({ company_id: rawCompany });
          if (!f.success || f.data.company_id === undefined)
            throw badRequest(EVENT_MSG.companyNotFound, { company_id: EVENT_MSG.companyNotFound });
          companyId = targetCompany(c, 'events.import', f.data.company_id);
          // Staff may name any company: it must exist.
          if (!(await repo.companyExists(companyId))) throw notFound(EVENT_MSG.companyNotFound);
        } else if (code !== LEAKS_CATALOGUE) companyId = keyCompany(c);
        temp = await tempPath(deps.dataDir, '.upload');
        const hash = createHash('sha256');
        let size = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            size += chunk.length;
            if (size > maxBytes) return cb(new ApiError(413, IMPORT_MSG.tooLarge(maxBytes)));
            hash.update(chunk);
            cb(null, chunk);
          },
        });
        // Busboy stops passing bytes at the limit but would read the rest of the body before ending the
        // part: refuse right there instead (the route closes the connection).
        part.file.once('limit', () => counter.destroy(new ApiError(413, IMPORT_MSG.tooLarge(maxBytes))));
        try {
          await pipeline(part.file, counter, createWriteStream(temp, { mode: 0o600 }));
        } catch (e) {
          if (e instanceof ApiError) throw e;
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, IMPORT_MSG.tooLarge(maxBytes));
          throw e;
        }
        if (part.file.truncated) throw new ApiError(413, IMPORT_MSG.tooLarge(maxBytes));
        if (size === 0) throw badRequest(IMPORT_MSG.empty);

        const meta = await sniffFile(temp, fileName);
        const plan = meta.format === 'xlsx' ? await inspectXlsx(temp) : undefined;
        const head: FileHead = await readHead(temp, meta, plan, IMPORT_PREVIEW_ROWS);
        const mapping = autoMapping(code === LEAKS_CATALOGUE ? null : getModule(code), head.headers);

        const put = await store.put(createReadStream(temp));
        storageKey = put.key;
        const sha256 = hash.digest('hex');
        const fileSize = (await stat(temp)).size;
        const id = await db.transaction(async (tx) => {
          const docId = await repo.insertDoc(
            {
              kind: 'import',
              companyId,
              ownerUserId: c.auth.user.id,
              name: fileName,
              mimetype: MIME[meta.format] ?? 'application/octet-stream',
              size: put.size,
              sha256,
              storageKey: put.key,
            },
            tx,
          );
          const id = await repo.insert(
            {
              module: code,
              companyId,
              docId,
              fileName,
              fileSize,
              format: meta.format,
              encoding: meta.encoding,
              delimiter: meta.delimiter,
              headers: head.headers,
              mapping,
              sample: head.rows,
              status: 'uploaded',
              authorId: c.auth.user.id,
              authorKeyId: c.auth.keyId ?? null,
            },
            tx,
          );
          await audit.record(
            c.actor,
            {
              action: 'import.upload',
              entity: 'import',
              entityId: id,
              companyId,
              after: { module: code, file_name: fileName, size, format: meta.format, encoding: meta.encoding },
            },
            tx,
          );
          return id;
        });
        storageKey = undefined; // kept: it belongs to the import now
        const row = await repo.find(id);
        if (!row) throw notFound(IMPORT_MSG.notFound);
        const scope = importScope(c);
        return {
          ...toItem(row),
          preview: await preview(code, head.headers, head.rows, mapping, { scope, defaultCompanyId: companyId }),
        };
      } finally {
        // Whatever went wrong, the rest of the upload is drained (the request completes) and nothing half-stored stays.
        part.file.resume();
        await dropTemp(temp);
        if (storageKey) await store.delete(storageKey).catch(() => undefined);
      }
    },

    async preview(c: Caller, code: TargetCode, id: number, mapping: (string | null)[]): Promise<ImportPreview> {
      const r = await load(c, code, id);
      return preview(code, r.headers, r.sample, mapping, {
        scope: r.status === 'uploaded' ? importScope(c) : scopeOf(r),
        defaultCompanyId: r.companyId,
      });
    },

    async start(c: Caller, code: TargetCode, id: number, body: ImportStartRequest): Promise<ImportItem> {
      const r = await load(c, code, id);
      if (r.status !== 'uploaded') throw conflict(IMPORT_MSG.notStartable);
      const target = targetOf(code);
      const problems = mappingErrors(target.fields, r.headers, body.mapping);
      if (problems.length) throw badRequest(problems[0], { mapping: problems.join('; ') });
      let companyId: number | null = null;
      let scope: number[] | null = null;
      if (code !== LEAKS_CATALOGUE) {
        const s = importScope(c);
        if (body.company_id !== undefined) companyId = targetCompany(c, 'events.import', body.company_id);
        else if (!body.mapping.includes('company_id')) companyId = targetCompany(c, 'events.import', undefined);
        else if (s !== 'all' && s.length === 1) companyId = s[0] ?? null; // rows without a company go to the only one
        if (companyId !== null) {
          const [co] = (await db.execute(sql`SELECT modules FROM companies WHERE id = ${companyId}`)).rows as {
            modules: string[] | null;
          }[];
          assertModuleEnabled(co ? (co.modules ?? []) : null, code);
        }
        scope = s === 'all' ? null : s;
      }
      const b = boss.get();
      await inClientTransaction(pool, async (client) => {
        const upd = await client.query(
          `UPDATE imports SET status = 'queued', mapping = $2::jsonb, mode = $3, company_id = $4, scope = $5::int[], updated_at = now()
            WHERE id = $1 AND status = 'uploaded' RETURNING id`,
          [id, JSON.stringify(body.mapping), body.mode, companyId, scope],
        );
        if (!upd.rowCount) throw conflict(IMPORT_MSG.notStartable);
        if (r.docId)
          await client.query('UPDATE docs SET company_id = $2, updated_at = now() WHERE id = $1', [r.docId, companyId]);
        await b.send(IMPORT_QUEUE, { id }, { ...JOB_OPTIONS, db: onClient(client) });
        await audit.record(
          c.actor,
          {
            action: 'import.start',
            entity: 'import',
            entityId: id,
            companyId,
            after: { module: code, mode: body.mode, mapping: body.mapping },
          },
          clientDb(client),
        );
      });
      const row = await repo.find(id);
      if (!row) throw notFound(IMPORT_MSG.notFound);
      return toItem(row);
    },

    async list(c: Caller, code: TargetCode, q: { page: number; page_size: number; company_id?: number }) {
      if (code !== LEAKS_CATALOGUE) assertModule(c, code);
      let where = visible(c, code);
      if (q.company_id !== undefined && q.company_id !== -1) where = and(where, eq(imports.companyId, q.company_id)) as SQL;
      const { rows, total } = await repo.list(where, q.page_size, (q.page - 1) * q.page_size);
      return { items: rows.map(toItem), total, page: q.page, page_size: q.page_size };
    },

    async get(c: Caller, code: TargetCode, id: number) {
      return toItem(await load(c, code, id));
    },

    /** Undo: removes what the import created (events it only updated stay as they are now), its errors and its file. */
    async remove(c: Caller, code: TargetCode, id: number): Promise<void> {
      const r = await load(c, code, id);
      const own = c.auth.keyId === null ? r.authorId === c.auth.user.id : r.authorKeyId === c.auth.keyId;
      if (code !== LEAKS_CATALOGUE && !own && r.companyId !== null && !can(c.auth.principal, 'events.delete', r.companyId)) {
        throw new ApiError(403, 'Удалить чужой импорт может только тот, кто вправе удалять события компании');
      }
      const target = targetOf(code);
      await inClientTransaction(pool, async (client) => {
        // Waits for a batch in progress to commit; the job stops at its next batch (the row is gone).
        const locked = await client.query('SELECT id FROM imports WHERE id = $1 FOR UPDATE', [id]);
        if (!locked.rowCount) throw notFound(IMPORT_MSG.notFound);
        const tx = clientDb(client);
        const removed = await target.undo({ client, db: tx }, id);
        await client.query('DELETE FROM imports WHERE id = $1', [id]);
        if (r.docId) await client.query('DELETE FROM docs WHERE id = $1', [r.docId]);
        await audit.record(
          c.actor,
          {
            action: 'import.delete',
            entity: 'import',
            entityId: id,
            companyId: r.companyId,
            before: { module: code, file_name: r.fileName, status: r.status, created: r.created, updated: r.updated },
            meta: { removed },
          },
          tx,
        );
      });
      if (r.storageKey) await store.delete(r.storageKey).catch(() => undefined);
    },

    /** The row errors as CSV for Excel (UTF-8 with BOM, `;`), streamed from the database. */
    async errorReport(c: Caller, code: TargetCode, id: number) {
      const r = await load(c, code, id);
      if (r.errorsCount === 0) throw notFound(IMPORT_MSG.noErrors);
      const out = stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n' });
      out.write([...IMPORT_ERROR_REPORT_HEADERS]);
      (async () => {
        let after = 0;
        for (;;) {
          const page = await repo.errorsAfter(id, after, 2000);
          if (!page.length) break;
          for (const e of page) {
            const ok = out.write([
              String(e.row),
              neutraliseCell(e.column ?? '—'),
              neutraliseCell(e.value ?? ''),
              neutraliseCell(e.message),
            ]);
            if (!ok) await new Promise((res) => out.once('drain', res));
          }
          after = page[page.length - 1]?.id ?? after;
        }
        out.end();
      })().catch((e) => out.destroy(e as Error));
      const base = r.fileName.replace(/\.[^.]+$/, '');
      return { fileName: `Ошибки импорта ${base}.csv`, stream: out };
    },
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;
