/*
 * «Мои экспорты». A request fixes what the export covers (module, fields, the list's filters and
 * sort, the companies the user may export from and those whose card numbers they may see); a job
 * writes the file with constant memory and stores it: PostgreSQL computes the cells and streams them
 * with `COPY (SELECT …) TO STDOUT` (sql-cells.query.ts), Node only frames the bytes; exports that show card
 * numbers in clear (they need the vault) read a server-side cursor and format in Node (cells.ts).
 * A scheduled job deletes files older than the retention period (configs: export_retention_days).
 */

import { API_MSG } from '@forpost/contract/errors';
import { type EventListQuery, eventListQuery } from '@forpost/contract/events';
import {
  EXPORT_EXTENSIONS,
  EXPORT_MSG,
  type ExportCreateRequest,
  type ExportFormat,
  type ExportItem,
  exportFieldsOf,
} from '@forpost/contract/exports';
import { getModule, isModuleCode, MODULE_LIST, type ModuleCode, type ModuleDescriptor } from '@forpost/contract/modules';
import { companiesWith } from '@forpost/contract/permissions';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { clientDb, type Db } from '../../db/client';
import {
  attachRecordJobs,
  createBossSlot,
  inClientTransaction,
  LOCK_EXPORT,
  onClient,
  takeOverStalled,
  withJobLock,
} from '../../db/jobs-kit';
import type { Audit } from '../../lib/audit';
import { assertModule, type Caller, scopeFor } from '../../lib/caller';
import type { DocStore } from '../../lib/docstore';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { ConfigsService } from '../configs/index';
import type { CardVault, Refs } from '../events/index';
import { filterConditions, orderBy } from '../events/index';
import { bundleHead, companyIdentity, eventToStix, rowToStixInput, stixNamespace, uuidv5 } from '../stix/index';
import { cellFormatters, headerLabels, mskDateTime } from './cells';
import { BinaryTuples, CsvFramer, XlsxRowBuilder } from './copy-out';
import { createExportsRepo, type ExportOwner, type ExportRowDb, type ExportRowItem } from './exports.repo';
import { XlsxStream } from './sheetml';
import { csvCopySql, type ExportQueryParts, sqlExportable, xlsxCopySql } from './sql-cells.query';
import { csvWriter, EXPORT_MIME, type SheetWriter, stixBundleWriter, writerFor } from './writers';

const EXPORT_QUEUE = 'exports-run';
const EXPORTS_MAINTENANCE = 'exports-maintenance';
const FETCH = 5000;
/** Rows per page of a STIX export: each event becomes up to ≈ 10 objects, so its pages are smaller. */
const STIX_FETCH = 1000;
/** How often a COPY export reports progress (and notices it was deleted). */
const PROGRESS_MS = 1000;
const MAX_ATTEMPTS = 5;
const JOB_OPTIONS = { retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 };
const DAY_MS = 86_400_000;

export interface ExportsDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  store: DocStore;
  refs: Refs;
  vault: CardVault;
  /** The instance secret: STIX ids of event objects come from its namespace, as on the TAXII server. */
  secret: string;
  publicUrl?: string;
  log: Pick<Logger, 'warn'>;
}

/** What a run writes: the selection (`where`, `sort`) of module `m` as export `r`, on the job's connection. */
interface ExportJob {
  client: pg.PoolClient;
  m: ModuleDescriptor;
  r: ExportRowDb;
  header: readonly string[];
  where: SQL;
  sort: string;
  /** Progress and liveness: false when the export was deleted meanwhile. */
  progress: (written: number) => Promise<boolean>;
  opts: ExportRunOptions;
}
/** A written file: stored once `stored` resolves. */
type Produced = { stored: Promise<{ key: string; size: number }>; written: number };

export interface ExportRunOptions {
  /** Called with the rows written so far after each progress update (a throw stops the run like a crash). */
  onPage?: (rowsWritten: number) => void | Promise<void>;
  /** Rows per XLSX sheet (tests; default XLSX_ROWS_PER_SHEET). */
  rowsPerSheet?: number;
  /** How often a COPY export reports progress, ms (tests; default PROGRESS_MS). */
  progressMs?: number;
}

const IGNORED_FILTERS = new Set(['page', 'page_size', 'status_counts']);

/** The list's query as the list would send it (arrays comma-joined), validated by the list's own schema. */
function parseExportFilters(code: ModuleCode, filters: Record<string, unknown>): EventListQuery {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(filters)) {
    if (IGNORED_FILTERS.has(k) || v === undefined || v === null || v === '') continue;
    if (k === 'rules')
      throw badRequest('Экспорт по набору правил не поддерживается', {
        'filters.rules': 'Экспорт по набору правил не поддерживается',
      });
    raw[k] = Array.isArray(v) ? v.join(',') : String(v);
  }
  const r = eventListQuery(getModule(code)).safeParse(raw);
  if (!r.success) {
    const fields = Object.fromEntries(r.error.issues.map((i) => [`filters.${i.path.join('.')}`, i.message]));
    const first = r.error.issues[0];
    throw badRequest(r.error.issues.length === 1 && first ? first.message : API_MSG.validation, fields);
  }
  return r.data as EventListQuery;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters from file names
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;
const fileSafe = (s: string) => s.replace(UNSAFE_NAME, '_').trim().slice(0, 150) || 'export';

export function createExportsService(deps: ExportsDeps) {
  const { db, pool, audit, store } = deps;
  const boss = createBossSlot(EXPORT_MSG.queueUnavailable);
  const repo = createExportsRepo(db);

  const retentionMs = async () => (await deps.configs.get('export_retention_days')) * DAY_MS;

  function toItem(r: ExportRowItem, retention: number): ExportItem {
    const m = isModuleCode(r.module) ? getModule(r.module) : undefined;
    const expires = r.finishedAt && r.status === 'done' ? new Date(r.finishedAt.getTime() + retention) : null;
    return {
      id: r.id,
      module: r.module,
      module_name: m?.name ?? r.module,
      name: r.name,
      format: r.format,
      fields: r.fields,
      filters: r.filters,
      status: r.status,
      message: r.message,
      rows_total: r.rowsTotal,
      rows_written: r.rowsWritten,
      size: r.size,
      file_name: `${fileSafe(r.name)}.${EXPORT_EXTENSIONS[r.format]}`,
      created_at: r.createdAt.toISOString(),
      finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
      expires_at: expires ? expires.toISOString() : null,
      url: r.status === 'done' ? `/api/v1/modules/exports/${r.id}/download` : null,
      stalled: r.stalled === true,
    };
  }

  /** Only the user's own exports (through an API key: only that key's). */
  const ownerOf = (c: Caller): ExportOwner => ({ userId: c.auth.user.id, keyId: c.auth.keyId ?? null });

  async function load(c: Caller, id: number): Promise<ExportRowItem> {
    const r = await repo.findOwn(ownerOf(c), id);
    if (!r) throw notFound(EXPORT_MSG.notFound);
    return r;
  }

  const fail = (id: number, message: string) => repo.fail(id, message);

  async function lookups() {
    return {
      tagNames: await repo.names('tags'),
      refNames: {
        leak_types: await repo.names('leak_types'),
        media_types: await repo.names('media_types'),
        leaks: await repo.names('leaks'),
      },
    };
  }

  /** The file stored as the writer produces it (awaited once the writer has ended). */
  function storing(writer: SheetWriter): Promise<{ key: string; size: number }> {
    const stored = store.put(writer.output);
    stored.catch(() => undefined);
    return stored;
  }

  /**
   * The COPY statement of a format, its file writer, and how a chunk of COPY's output goes into the
   * file (`consume` returns the rows written so far): CSV is framed as it comes (CRLF, rows counted);
   * XLSX comes as binary rows of escaped cells that get their SheetML markup here.
   */
  function copyPlan(
    m: ModuleDescriptor,
    r: ExportRowDb,
    header: readonly string[],
    parts: ExportQueryParts,
    opts: ExportRunOptions,
  ): { writer: SheetWriter; text: string; consume: (chunk: Buffer) => Promise<number> } {
    if (r.format === 'xlsx') {
      const xlsx = new XlsxStream(header, opts.rowsPerSheet);
      const xq = xlsxCopySql(m, r.fields, deps.refs, parts);
      const tuples = new BinaryTuples(r.fields.length);
      const builder = new XlsxRowBuilder(xlsx.columns, xq.kinds, xlsx.rowsPerSheet);
      const onRow = builder.row.bind(builder);
      let rows = 0;
      const consume = async (chunk: Buffer) => {
        tuples.push(chunk, onRow);
        for (const seg of builder.take()) {
          await xlsx.writeXml(seg.xml, seg.rows);
          rows += seg.rows;
        }
        return rows;
      };
      return { writer: xlsx, text: xq.sql, consume };
    }
    const csv = csvWriter(header);
    const framer = new CsvFramer();
    const consume = async (chunk: Buffer) => {
      await csv.put(framer.push(chunk));
      return framer.rows;
    };
    return { writer: csv, text: csvCopySql(m, r.fields, deps.refs, parts), consume };
  }

  /**
   * The file straight from PostgreSQL: `COPY (SELECT <formatted cells>) TO STDOUT`; Node adds the BOM
   * and header, frames rows (CRLF, row count, XLSX sheets) and pipes the bytes with backpressure.
   * Progress every second; when the export is deleted meanwhile the COPY is cancelled.
   */
  async function copyExport(job: ExportJob): Promise<Produced | undefined> {
    const { client, m, r, header, where, sort, progress, opts } = job;
    const parts = repo.copyParts(where, orderBy(m, sort));
    const { writer, text, consume } = copyPlan(m, r, header, parts, opts);
    const stored = storing(writer);
    let written = 0;
    let aborted = false;
    let failure: unknown;
    let last = Date.now();
    const { stream, cancel } = await repo.copyOut(client, pool, text);
    try {
      // Whatever stops the export early, the COPY is cancelled and drained: the connection must come
      // back from COPY mode (it still holds the job's lock).
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (aborted || failure) continue;
        try {
          written = await consume(chunk);
          if (Date.now() - last >= (opts.progressMs ?? PROGRESS_MS)) {
            last = Date.now();
            if (!(await progress(written))) {
              aborted = true;
              await cancel();
              continue;
            }
            await opts.onPage?.(written);
          }
        } catch (e) {
          failure = e;
          await cancel();
        }
      }
      if (failure) throw failure;
      if (aborted) throw new Error('export deleted');
      written = Number(stream.rowCount ?? written);
      await writer.end();
    } catch (e) {
      const err = (failure ?? e) as Error;
      writer.abort(err);
      await stored.catch(() => undefined);
      if (aborted) return undefined;
      throw err;
    }
    return { stored, written };
  }

  /** The Node path (card numbers in clear need the vault): a server-side cursor, cells formatted here. */
  async function nodeExport(job: ExportJob): Promise<Produced | undefined> {
    const { client, m, r, header, where, sort, progress, opts } = job;
    const { tagNames, refNames } = await lookups();
    const reveal =
      r.revealScope === null
        ? () => true
        : (
            (s: Set<number>) => (cid: number) =>
              s.has(cid)
          )(new Set(r.revealScope));
    const format = cellFormatters(m, r.fields, { refs: deps.refs, vault: deps.vault, tagNames, refNames, reveal });
    const writer = writerFor(r.format as Exclude<ExportFormat, 'stix'>, header, opts.rowsPerSheet);
    const stored = storing(writer);

    let written = 0;
    let aborted = false;
    let cursor: Awaited<ReturnType<typeof repo.openCursor>> | undefined;
    try {
      cursor = await repo.openCursor(client, where, orderBy(m, sort), FETCH);
      // The next page is on its way from the server while this one is formatted and written.
      const fetchPage = cursor.next;
      let nextPage = fetchPage();
      for (;;) {
        const page = await nextPage;
        if (!page.length) break;
        nextPage = fetchPage();
        nextPage.catch(() => undefined); // awaited on the next turn (or dropped with the transaction)
        await writer.writeMany(page.map((row) => format.map((f) => f(row))));
        written += page.length;
        if (!(await progress(written))) {
          aborted = true; // deleted meanwhile
          break;
        }
        await opts.onPage?.(written);
      }
      await cursor.close(true);
      if (aborted) throw new Error('export deleted');
      await writer.end();
    } catch (e) {
      await cursor?.close(false);
      writer.abort(e as Error);
      await stored.catch(() => undefined);
      if (aborted) return undefined;
      throw e;
    }
    return { stored, written };
  }

  const stixCtx = { namespace: stixNamespace(deps.secret), consoleUrl: deps.publicUrl };

  /**
   * A STIX 2.1 bundle (#33): the rows through a cursor, each event mapped to its objects and written as
   * it comes — memory holds one page of rows and one ≈ 256 KB chunk of JSON, whatever the count.
   * Companies' identities go out once (a handful). An observable shared by events is written once per
   * page and may repeat across pages (same id, same content — valid STIX, a consumer keeps one):
   * remembering every id written would grow with the export.
   */
  async function stixExport(job: ExportJob): Promise<Produced | undefined> {
    const { client, m, r, where, sort, progress, opts } = job;
    const { tagNames } = await lookups();
    const writer = stixBundleWriter(`bundle--${uuidv5(stixCtx.namespace, `export:${r.id}:${Date.now()}`)}`);
    const stored = store.put(writer.output);
    stored.catch(() => undefined);
    let written = 0;
    let aborted = false;
    let cursor: Awaited<ReturnType<typeof repo.openCursor>> | undefined;
    const companies = new Set<number>();
    try {
      await writer.writeMany(bundleHead(stixCtx));
      cursor = await repo.openCursor(client, where, orderBy(m, sort), STIX_FETCH);
      for (;;) {
        const page = await cursor.next();
        if (!page.length) break;
        const seen = new Set<string>();
        for (const row of page) {
          if (!companies.has(row.company_id)) {
            companies.add(row.company_id);
            await writer.write(companyIdentity(stixCtx, row.company_id, row.company_name));
          }
          for (const o of eventToStix(rowToStixInput(row, m.code, deps.refs, tagNames), stixCtx)) {
            if (seen.has(o.id)) continue;
            seen.add(o.id);
            await writer.write(o);
          }
        }
        written += page.length;
        if (!(await progress(written))) {
          aborted = true;
          break;
        }
        await opts.onPage?.(written);
      }
      await cursor.close(true);
      if (aborted) throw new Error('export deleted');
      await writer.end();
    } catch (e) {
      await cursor?.close(false);
      writer.abort(e as Error);
      await stored.catch(() => undefined);
      if (aborted) return undefined;
      throw e;
    }
    return { stored, written };
  }

  /** The job: streams the selected rows into the file. A retry starts over (the file is written anew). */
  async function run(id: number, opts: ExportRunOptions = {}): Promise<void> {
    await withJobLock(pool, LOCK_EXPORT, id, async (client) => {
      const r = await repo.find(id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return;
      if (r.attempts >= MAX_ATTEMPTS) return fail(id, EXPORT_MSG.crashed);
      if (!isModuleCode(r.module)) return fail(id, EXPORT_MSG.moduleUnknown);
      await repo.start(id, r.attempts + 1);
      const m = getModule(r.module);
      const q = parseExportFilters(r.module, r.filters);
      const where = repo.selection(m, r.scope, filterConditions(m, q, deps.vault, { me: r.userId }));
      // The total (for the progress bar) is counted on another connection while the file is written.
      const counted = (async () => repo.setTotal(id, await repo.count(where)))();
      counted.catch(() => undefined);

      const header = headerLabels(m, r.fields);
      /** Progress and liveness: false when the export was deleted meanwhile. */
      const progress = (written: number) => repo.progress(id, written);
      const produce = r.format === 'stix' ? stixExport : sqlExportable(m, r.fields, r.revealScope) ? copyExport : nodeExport;
      const produced = await produce({ client, m, r, header, where, sort: q.sort, progress, opts });
      await counted.catch(() => undefined); // a failed count leaves the total unknown, the file is still good
      if (!produced) return; // deleted meanwhile
      const { stored, written } = produced;
      const { key, size } = await stored;
      const done = await repo.finish(id, { storageKey: key, size, rowsWritten: written });
      if (!done) await store.delete(key).catch(() => undefined);
    });
  }

  /** Deletes expired files and re-queues exports whose worker died. */
  async function maintain(): Promise<{ expired: number; requeued: number }> {
    const retention = await retentionMs();
    const old = await repo.deleteFinishedBefore(new Date(Date.now() - retention));
    for (const o of old) if (o.key) await store.delete(o.key).catch(() => undefined);
    return { expired: old.length, requeued: await requeueStale() };
  }

  /** Re-queues exports whose worker died (see jobs-kit); every worker runs it every SWEEP_SECONDS. */
  async function requeueStale(b: PgBoss = boss.get()): Promise<number> {
    return takeOverStalled(pool, b, { table: 'exports', lock: LOCK_EXPORT, queue: EXPORT_QUEUE, sendOptions: JOB_OPTIONS });
  }

  return {
    run,
    maintain,

    async attach(b: PgBoss, opts: { work: boolean }) {
      boss.set(b);
      await attachRecordJobs(b, opts, {
        queue: EXPORT_QUEUE,
        failure: 'export job failed',
        idKey: 'exportId',
        run,
        fail,
        failedMessage: EXPORT_MSG.failed,
        maintenance: {
          queue: EXPORTS_MAINTENANCE,
          expireInSeconds: 600,
          pollingIntervalSeconds: 10,
          cron: '*/5 * * * *',
          run: maintain,
        },
        sweep: requeueStale,
        log: deps.log,
      });
    },

    fields(c: Caller, module?: ModuleCode) {
      const km = c.auth.principal.keyModules;
      const list = module ? [getModule(module)] : MODULE_LIST;
      return {
        items: list
          .filter((m) => !km || km.includes(m.code) || km.includes('*'))
          .map((m) => ({ module: m.code, name: m.name, fields: exportFieldsOf(m) })),
      };
    },

    async create(c: Caller, body: ExportCreateRequest & { filters: Record<string, unknown> }): Promise<ExportItem> {
      const m = getModule(body.module);
      assertModule(c, m.code);
      const allowed = new Set(exportFieldsOf(m).map((f) => f.key));
      const fields = [...new Set(body.fields)];
      const unknown = fields.filter((f) => !allowed.has(f));
      if (unknown.length)
        throw badRequest(EXPORT_MSG.fieldUnknown, { fields: `${EXPORT_MSG.fieldUnknown}: ${unknown.join(', ')}` });
      const q = parseExportFilters(m.code, body.filters);
      const scope = scopeFor(c, 'events.export', q.company_id);
      const revealAll = companiesWith(c.auth.principal, 'events.card_reveal');
      const name = body.name?.trim() || `${m.name} — ${mskDateTime(new Date())}`;
      const b = boss.get();
      const id = await inClientTransaction(pool, async (client) => {
        const tx = clientDb(client);
        const id = await repo.insert(
          {
            userId: c.auth.user.id,
            keyId: c.auth.keyId ?? null,
            module: m.code,
            name: name.slice(0, 200),
            format: body.format,
            fields,
            filters: body.filters,
            scope: scope === 'all' ? null : scope,
            revealScope: revealAll === 'all' ? null : revealAll,
            status: 'queued',
          },
          tx,
        );
        await b.send(EXPORT_QUEUE, { id }, { ...JOB_OPTIONS, db: onClient(client) });
        const sensitive = m.fields.some((f) => f.sensitive && fields.includes(f.key));
        await audit.record(
          c.actor,
          {
            action: 'export.create',
            entity: 'export',
            entityId: id,
            meta: {
              module: m.code,
              format: body.format,
              fields,
              filters: body.filters,
              cards_in_clear: sensitive && revealAll !== 'all' ? revealAll : sensitive,
            },
          },
          tx,
        );
        return id;
      });
      return toItem(await load(c, id), await retentionMs());
    },

    async list(c: Caller, q: { page: number; page_size: number; module?: ModuleCode }) {
      const { rows, total } = await repo.listOwn(ownerOf(c), q.module, q.page_size, (q.page - 1) * q.page_size);
      const retention = await retentionMs();
      return { items: rows.map((r) => toItem(r, retention)), total, page: q.page, page_size: q.page_size };
    },

    async get(c: Caller, id: number) {
      return toItem(await load(c, id), await retentionMs());
    },

    async remove(c: Caller, id: number): Promise<void> {
      const r = await load(c, id);
      await db.transaction(async (tx) => {
        await repo.remove(r.id, tx);
        await audit.record(
          c.actor,
          { action: 'export.delete', entity: 'export', entityId: r.id, before: { module: r.module, name: r.name } },
          tx,
        );
      });
      // The file goes only once the row is gone for good.
      if (r.storageKey) await store.delete(r.storageKey).catch(() => undefined);
    },

    async download(c: Caller, id: number) {
      const r = await load(c, id);
      if (r.status !== 'done' || !r.storageKey) throw new ApiError(409, EXPORT_MSG.notReady);
      const retention = await retentionMs();
      if (r.finishedAt && r.finishedAt.getTime() + retention < Date.now()) throw notFound(EXPORT_MSG.expired);
      let stream: Awaited<ReturnType<DocStore['get']>>;
      try {
        stream = await store.get(r.storageKey);
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') throw notFound(EXPORT_MSG.expired);
        throw e;
      }
      const item = toItem(r, retention);
      return { fileName: item.file_name, mime: EXPORT_MIME[r.format as ExportFormat], size: r.size, stream };
    },
  };
}
export type ExportsService = ReturnType<typeof createExportsService>;
