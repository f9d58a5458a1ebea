/*
 * Imports: upload (stored as a doc of kind `import`, format/encoding/delimiter detected, columns
 * mapped automatically, first rows validated) → start (queues the job) → the job → undo. Each step is
 * a module of its own, over the shared context (context.ts):
 *
 *   upload.ts        receive, detect, store, preview
 *   preview.ts       a mapping's problems and the first rows checked with it
 *   check.ts         the dry run: the whole file checked as the job would, nothing written
 *   start.ts         the company and scope fixed, the job queued
 *   run.ts           the job: batches with a cursor, resumable after a crash
 *   remove.ts        undo: what the import created goes
 *   error-report.ts  the row errors as CSV
 *   maintenance.ts   the queue, takeover of dead workers, abandoned uploads
 *   access.ts        who sees which import; the API's view of one
 *
 * A failed import keeps what it committed, marked with its import id, and deleting the import
 * removes exactly that.
 */
import type { MultipartFile } from '@fastify/multipart';
import { type ImportCheckRequest, type ImportStartRequest, LEAKS_CATALOGUE } from '@forpost/contract/imports';
import type PgBoss from 'pg-boss';
import { assertModule, type Caller } from '../../lib/caller';
import { importScope, loadImport, scopeOf, toItem, visibleTo } from './access';
import { checkImport } from './check';
import { createImportsContext, type ImportsDeps, type TargetCode } from './context';
import { errorReport } from './error-report';
import { attach, dropAbandoned, requeueStale } from './maintenance';
import { previewRows } from './preview';
import { remove } from './remove';
import { type RunOptions, runImport } from './run';
import { start } from './start';
import { upload, uploadLimit } from './upload';

export function createImportsService(deps: ImportsDeps) {
  const ctx = createImportsContext(deps);
  const run = (id: number, opts?: RunOptions) => runImport(ctx, id, opts);
  return {
    run,
    /** The configured upload limit, bytes (read at run time). */
    uploadLimit: () => uploadLimit(ctx),
    requeueStale: (b?: PgBoss) => requeueStale(ctx, b),
    dropAbandoned: () => dropAbandoned(ctx),
    attach: (b: PgBoss, opts: { work: boolean }) => attach(ctx, b, opts, run),

    upload: (c: Caller, code: TargetCode, part: MultipartFile) => upload(ctx, c, code, part),

    async preview(c: Caller, code: TargetCode, id: number, mapping: (string | null)[]) {
      const r = await loadImport(ctx, c, code, id);
      return previewRows(ctx, code, r.headers, r.sample, mapping, {
        scope: r.status === 'uploaded' ? importScope(c) : scopeOf(r),
        defaultCompanyId: r.companyId,
      });
    },

    /** The dry run: the whole file checked with a mapping, nothing written. */
    check: (c: Caller, code: TargetCode, id: number, body: ImportCheckRequest) => checkImport(ctx, c, code, id, body),

    start: (c: Caller, code: TargetCode, id: number, body: ImportStartRequest) => start(ctx, c, code, id, body),

    async list(c: Caller, code: TargetCode, q: { page: number; page_size: number; company_id?: number }) {
      if (code !== LEAKS_CATALOGUE) assertModule(c, code);
      const filter = visibleTo(c, code);
      if (q.company_id !== undefined && q.company_id !== -1) filter.companyId = q.company_id;
      const { rows, total } = await ctx.repo.list(filter, q.page_size, (q.page - 1) * q.page_size);
      return { items: rows.map(toItem), total, page: q.page, page_size: q.page_size };
    },

    get: async (c: Caller, code: TargetCode, id: number) => toItem(await loadImport(ctx, c, code, id)),
    /** Undo: removes what the import created (events it only updated stay as they are now), its errors and its file. */
    remove: (c: Caller, code: TargetCode, id: number) => remove(ctx, c, code, id),
    errorReport: (c: Caller, code: TargetCode, id: number) => errorReport(ctx, c, code, id),
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;
