/*
 * The import job: one import's rows, in batches. Each batch is one transaction that also records its
 * span of rows and adds its counters, so a retried job resumes without importing a row twice: the
 * import's `cursor` is the row up to which every batch committed, `import_spans` the batches committed
 * past it (batches are written several at once and commit in any order). Dedup by fingerprint covers
 * the same file submitted twice. The whole file is read through before the first batch, so a malformed
 * file fails with nothing written. A second run of the same import (another worker) finds the job lock
 * held and returns.
 *
 * Steps: claim the import → fetch its file → count its rows → read, check and write batches (the
 * next batch is read and checked while earlier ones are written) → done.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { IMPORT_MAX_STORED_ERRORS, IMPORT_MSG, type ImportMode } from '@forpost/contract/imports';
import { clientDb, type Db } from '../../db/client';
import { dropTemp, isTransient, LOCK_IMPORT, tempPath, withJobLock } from '../../db/jobs-kit';
import { ApiError, badRequest } from '../../lib/errors';
import { emitOutbox } from '../outbox/index';
import { scopeOf } from './access';
import type { ImportsContext, TargetCode } from './context';
import type { ImportRow } from './imports.repo';
import { headersOf, readRows, type SourceRow } from './rows';
import type { FileMeta } from './sniff';
import type { ImportContext, RowError, Target } from './targets';
import { inspectXlsx, type XlsxPlan } from './xlsx';

export const IMPORT_BATCH = 1000;
/** Runs of one import before it is declared failed (a crash loop must end). */
const MAX_ATTEMPTS = 5;
/** Rows written before the target table's statistics are refreshed the first time (then doubling). */
const ANALYZE_AFTER = 2_000;
/** Attempts of a batch that hit a deadlock, a serialization failure or a lost connection. */
const BATCH_ATTEMPTS = 3;

export interface RunOptions {
  batchSize?: number;
  /** Batches written at once (default: the IMPORT_WRITERS setting of the process). */
  writers?: number;
  /** Called after each committed batch (progress reporting; a throw stops the run like a crash). */
  onBatch?: (batches: number) => void | Promise<void>;
}

/** The file of an import, as the job reads it. */
export interface Source {
  file: string;
  meta: FileMeta;
  plan?: XlsxPlan;
}

/** A batch read and checked: its rows, the records to write, the rows' errors. */
export interface Prepared {
  rows: SourceRow[];
  records: unknown[];
  errors: RowError[];
}

/** The state of one run. */
interface Job {
  ctx: ImportsContext;
  id: number;
  r: ImportRow;
  target: Target;
  wctx: ImportContext;
  lookups: unknown;
  /** Drizzle over the job's own connection (the one holding the job lock). */
  tx: Db;
  /** Where this run starts: the cursor as claimed. */
  cursor: number;
  batches: number;
  sinceAnalyze: number;
  analyzedRows: number;
  analyzing: boolean;
  /** Set once the run fails: batches still being written are not retried. */
  stopped: boolean;
  opts: RunOptions;
}

export async function runImport(ctx: ImportsContext, id: number, opts: RunOptions = {}): Promise<void> {
  await withJobLock(ctx.deps.pool, LOCK_IMPORT, id, async (client) => {
    const r = await claim(ctx, id);
    if (!r) return;
    let source: Source | undefined;
    try {
      source = await fetchSource(ctx, r);
      if (r.rowsTotal === null) {
        const total = await countRows(ctx, id, source);
        if (total === undefined) return;
        await ctx.repo.update(id, { rowsTotal: total, heartbeatAt: new Date() });
      }
      const target = ctx.targetOf(r.module as TargetCode);
      const wctx = contextOf(r);
      const job: Job = {
        ctx,
        id,
        r,
        target,
        wctx,
        lookups: await target.loadLookups(wctx),
        tx: clientDb(client),
        cursor: r.cursor,
        batches: 0,
        sinceAnalyze: 0,
        analyzedRows: 0,
        analyzing: false,
        stopped: false,
        opts,
      };
      if (await importRows(job, source)) await finish(ctx, id, r.module);
    } catch (e) {
      // A problem of the file itself will not go away on a retry.
      if (e instanceof ApiError) return ctx.repo.fail(id, e.message);
      throw e;
    } finally {
      await dropTemp(source?.file);
    }
  });
}

/** The import, marked running (one more attempt), if it is to run; a crash loop ends as failed. */
async function claim(ctx: ImportsContext, id: number): Promise<ImportRow | undefined> {
  const r = await ctx.repo.find(id);
  if (!r || (r.status !== 'queued' && r.status !== 'running')) return undefined;
  if (r.attempts >= MAX_ATTEMPTS) {
    await ctx.repo.fail(id, IMPORT_MSG.crashed);
    return undefined;
  }
  await ctx.repo.update(id, {
    status: 'running',
    attempts: r.attempts + 1,
    startedAt: r.startedAt ?? new Date(),
    heartbeatAt: new Date(),
  });
  return r;
}

/** Copies the stored upload to a local temporary file (XLSX needs random access). */
export async function fetchSource(ctx: ImportsContext, r: ImportRow): Promise<Source> {
  if (!r.storageKey) throw badRequest(IMPORT_MSG.fileMissing);
  const file = await tempPath(ctx.deps.dataDir, `.${r.format}`);
  try {
    await pipeline(await ctx.deps.store.get(r.storageKey), createWriteStream(file, { mode: 0o600 }));
  } catch (e) {
    await dropTemp(file);
    if ((e as { code?: string }).code === 'ENOENT') throw badRequest(IMPORT_MSG.fileMissing);
    throw e;
  }
  const meta: FileMeta = { format: r.format, encoding: r.encoding, delimiter: r.delimiter };
  try {
    return { file, meta, plan: meta.format === 'xlsx' ? await inspectXlsx(file) : undefined };
  } catch (e) {
    await dropTemp(file);
    throw e;
  }
}

/**
 * Reads the file through once: structure errors surface before anything is written; counts the data
 * rows. Undefined: the import stopped meanwhile (deleted).
 */
async function countRows(ctx: ImportsContext, id: number, s: Source): Promise<number | undefined> {
  let n = -1;
  for await (const _ of readRows(s.file, s.meta, s.plan)) {
    n++;
    if (n > 0 && n % 50_000 === 0 && !(await ctx.repo.touchRunning(id))) return undefined;
  }
  return Math.max(n, 0);
}

const contextOf = (r: ImportRow): ImportContext => ({
  importId: r.id,
  mode: r.mode as ImportMode,
  defaultCompanyId: r.companyId,
  authorId: r.authorId,
  authorKeyId: r.authorKeyId,
  scope: scopeOf(r),
});

/** A batch's place in the file: the data rows after `from` up to `to` (row numbers; blank lines leave gaps). */
export interface Span {
  from: number;
  to: number;
}

/**
 * The data rows after the cursor, in batches, with the file's header and each batch's span. Rows of
 * `done` (batches committed past the cursor by an earlier run, in file order) are skipped, and a
 * batch never reaches over one: the spans of the batches and of `done` tile the file without a gap.
 */
export async function* batchesOf(
  s: Source,
  cursor: number,
  size: number,
  done: readonly Span[] = [],
): AsyncGenerator<{ rows: SourceRow[]; headers: string[]; span: Span }> {
  let headers: string[] | undefined;
  let rows: SourceRow[] = [];
  let from = cursor;
  let next = 0;
  for await (const row of readRows(s.file, s.meta, s.plan)) {
    if (!headers) {
      headers = headersOf(row.cells);
      continue;
    }
    for (let d = done[next]; d && row.row > d.from; d = done[++next]) {
      if (rows.length) yield { rows, headers, span: { from, to: d.from } };
      rows = [];
      from = Math.max(from, d.to);
    }
    if (row.row <= from) continue;
    rows.push(row);
    if (rows.length >= size) {
      yield { rows, headers, span: { from, to: row.row } };
      rows = [];
      from = row.row;
    }
  }
  const last = rows[rows.length - 1];
  if (last && headers) yield { rows, headers, span: { from, to: last.row } };
}

/** A batch being written: its keys (a batch sharing one waits for it) and its end (never rejects). */
interface Writing {
  keys: Set<string>;
  done: Promise<void>;
}

/**
 * Reads, checks and writes the batches; false when the import went away meanwhile (deleted). Up to
 * `writers` batches are written at once, each in its own transaction on its own connection (the
 * database's work — indexes, search vectors, triggers — is most of an import's time, and it runs
 * on as many cores as there are transactions); the next batch is read and checked meanwhile. A
 * batch that shares a key with one being written waits for it, so rows of one key keep file order.
 * Batches commit in any order: each records its span, and the cursor moves over spans without a gap.
 */
async function importRows(job: Job, s: Source): Promise<boolean> {
  const writers = Math.max(1, job.opts.writers ?? job.ctx.deps.importWriters ?? 1);
  const writing = new Set<Writing>();
  let gone = false;
  let failure: { e: unknown } | undefined;
  const stop = (e: unknown) => {
    failure ??= { e };
    job.stopped = true;
  };
  const write = (p: Prepared, span: Span, keys: Set<string>) => {
    const w: Writing = { keys, done: Promise.resolve() };
    w.done = commitBatch(job, p, span)
      .then((ok) => {
        if (!ok) gone = true;
      }, stop)
      .finally(() => writing.delete(w));
    writing.add(w);
  };
  const batches = batchesOf(s, job.cursor, job.opts.batchSize ?? IMPORT_BATCH, await job.ctx.repo.spans(job.id));
  try {
    for await (const b of batches) {
      const prepared = await prepareBatch(job, b.rows, b.headers);
      const keys = new Set(prepared.records.map((r) => job.target.keyOf(r)));
      for (;;) {
        if (failure || gone) break;
        const full = writing.size >= writers;
        const blocking = [...writing].filter((w) => full || [...keys].some((k) => w.keys.has(k)));
        if (!blocking.length) break;
        await Promise.race(blocking.map((w) => w.done));
      }
      if (failure || gone) break;
      write(prepared, b.span, keys);
    }
  } catch (e) {
    stop(e);
  } finally {
    await batches.return(undefined);
    // Never leave a write running: every batch started ends (commits or rolls back) before the run does.
    while (writing.size) await Promise.all([...writing].map((w) => w.done));
  }
  if (failure) throw failure.e;
  return !gone;
}

/** A batch's rows checked cell by cell: the records to write, the rows' errors (the job and the dry run). */
export function prepareRows(
  target: Target,
  rows: SourceRow[],
  mapping: readonly (string | null)[],
  headers: readonly string[],
  lookups: unknown,
  wctx: ImportContext,
): Prepared {
  const records: unknown[] = [];
  const errors: RowError[] = [];
  for (const row of rows) {
    const p = target.prepare(row, mapping, headers, lookups, wctx);
    if (p.record) records.push(p.record);
    else errors.push(...p.errors);
  }
  return { rows, records, errors };
}

/** Validation and lookups of a batch (no transaction needed). */
async function prepareBatch(job: Job, rows: SourceRow[], headers: string[]): Promise<Prepared> {
  const p = prepareRows(job.target, rows, job.r.mapping, headers, job.lookups, job.wctx);
  await job.target.enrich?.(p.records);
  return p;
}

/** The import was deleted (or is no longer running) under a batch: the batch's transaction rolls back. */
class ImportGone extends Error {}

/**
 * One transaction on a connection of the pool: the batch's rows, then — under the import row's lock,
 * the one point where parallel batches meet — its row errors (up to IMPORT_MAX_STORED_ERRORS in all),
 * its span folded into the cursor, and the counters. Retried on a transient failure (unless the run is
 * stopping). False: the import is gone (deleted) or no longer running.
 */
async function commitBatch(job: Job, p: Prepared, span: Span): Promise<boolean> {
  const { repo } = job.ctx;
  for (let attempt = 1; ; attempt++) {
    try {
      // A retry after a commit whose answer was lost (the connection broke): the batch is in already.
      if (attempt > 1 && (await repo.spanCommitted(job.id, span))) break;
      await job.ctx.deps.db.transaction(async (tx) => {
        await repo.deferFlush(tx);
        const res = await job.target.write(tx, p.records, job.wctx);
        const at = await repo.lockProgress(job.id, tx);
        if (at?.status !== 'running') throw new ImportGone();
        const all = [...p.errors, ...res.errors].sort((a, b) => a.row - b.row);
        const kept = all.slice(0, Math.max(0, IMPORT_MAX_STORED_ERRORS - at.errorsCount));
        await repo.insertErrors(job.id, kept, tx);
        await repo.advance(
          job.id,
          {
            cursor: await repo.foldSpan(job.id, at.cursor, span, tx),
            rows: p.rows.length,
            created: res.created,
            updated: res.updated,
            skipped: res.skipped,
            failed: new Set(all.map((e) => e.row)).size,
            errors: kept.length,
          },
          tx,
        );
      });
      break;
    } catch (e) {
      if (e instanceof ImportGone) return false;
      if (isTransient(e) && attempt < BATCH_ATTEMPTS && !job.stopped) continue;
      throw e;
    }
  }
  job.batches++;
  await refreshStatistics(job, p.rows.length);
  await job.opts.onBatch?.(job.batches);
  return true;
}

/**
 * A big load outgrows the table's statistics; with stale ones the planner would pick the wrong index
 * for the dedup lookups (a scan per key). They are refreshed on a doubling schedule.
 */
async function refreshStatistics(job: Job, rows: number): Promise<void> {
  job.sinceAnalyze += rows;
  if (job.analyzing || job.sinceAnalyze < Math.max(ANALYZE_AFTER, job.analyzedRows)) return;
  job.analyzing = true;
  try {
    job.sinceAnalyze = 0;
    job.analyzedRows = await job.ctx.targetsRepo.refreshStatistics(job.target.analyze, job.target.table, job.tx);
  } finally {
    job.analyzing = false;
  }
}

/** Marks the import done and records it in the audit log, in one transaction. */
async function finish(ctx: ImportsContext, id: number, code: string): Promise<void> {
  await ctx.deps.db.transaction(async (tx) => {
    await ctx.repo.done(id, tx);
    const done = await ctx.repo.find(id, tx);
    if (!done) return;
    await ctx.deps.audit.record(
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
    await emitOutbox(tx, [
      {
        companyId: done.companyId,
        type: 'import.finished',
        module: code,
        payload: {
          import_id: id,
          company_id: done.companyId,
          module: code,
          title: `Импорт № ${id} завершён: создано ${done.created}, обновлено ${done.updated}, пропущено ${done.skipped}, ошибок ${done.failed}`,
          rows: done.rowsRead,
          created: done.created,
          updated: done.updated,
          skipped: done.skipped,
          failed: done.failed,
        },
      },
    ]);
  });
}
