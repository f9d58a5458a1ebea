/*
 * Who sees which import: the leaks catalogue's are staff-only (the route's permission); a module's
 * by the companies the caller may import into, or by authorship before a company is chosen.
 */
import { IMPORT_MSG, type ImportItem, LEAKS_CATALOGUE } from '@forpost/contract/imports';
import { companiesWith } from '@forpost/contract/permissions';
import { assertModule, type Caller, ownsPersonal } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import type { ImportsContext, TargetCode } from './context';
import type { ImportRow, ImportsFilter } from './imports.repo';

/** Companies the caller may import into. */
export const importScope = (c: Caller) => companiesWith(c.auth.principal, 'events.import');

/** The companies an import fixed at start (null = every company). */
export const scopeOf = (r: ImportRow): 'all' | number[] => (r.scope === null ? 'all' : r.scope);

/** The imports of a target the caller sees, as a filter for the repository. */
export function visibleTo(c: Caller, code: TargetCode): ImportsFilter {
  const scope = code === LEAKS_CATALOGUE ? 'all' : importScope(c);
  // Before start an import may have no company yet: then only its author sees it, signed in (never
  // through an API key: a key's uploads belong to its company from the start).
  const mine = scope !== 'all' && c.auth.keyId === null ? c.auth.user.id : null;
  return { module: code, companies: scope, authorWithoutCompany: mine };
}

function canSee(c: Caller, r: ImportRow): boolean {
  if (r.module === LEAKS_CATALOGUE) return true;
  const scope = importScope(c);
  if (scope === 'all') return true;
  return r.companyId === null ? ownsPersonal(c, r.authorId) : scope.includes(r.companyId);
}

/** An import of the target the caller sees; 404 otherwise. */
export async function loadImport(ctx: ImportsContext, c: Caller, code: TargetCode, id: number): Promise<ImportRow> {
  if (code !== LEAKS_CATALOGUE) assertModule(c, code);
  const r = await ctx.repo.find(id);
  if (!r || r.module !== code || !canSee(c, r)) throw notFound(IMPORT_MSG.notFound);
  return r;
}

/** An import as the API shows it. */
export function toItem(r: ImportRow): ImportItem {
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
    created_at: iso(r.createdAt),
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    stalled: r.stalled === true,
  };
}
