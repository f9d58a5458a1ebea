/*
 * The dry run of an import: the whole file read as the job reads it (same stream, same batches, the
 * same `prepare` of the target and its `check` of what `write` would refuse), nothing written. It
 * counts exactly the rows the import would fail and its row errors, groups the errors by column and
 * reason with the first rows of each, and names the mapped columns that fail in most rows.
 * Constant memory: only the counters and the first examples are kept.
 */
import {
  IMPORT_CHECK_EXAMPLES,
  IMPORT_CHECK_MAX_REASONS,
  IMPORT_MSG,
  type ImportCheck,
  type ImportCheckRequest,
  LEAKS_CATALOGUE,
} from '@forpost/contract/imports';
import { dropTemp } from '../../db/jobs-kit';
import type { Caller } from '../../lib/caller';
import { badRequest } from '../../lib/errors';
import { importScope, loadImport, scopeOf } from './access';
import type { ImportsContext, TargetCode } from './context';
import { mappingErrors } from './preview';
import { batchesOf, fetchSource, IMPORT_BATCH, prepareRows, type Source } from './run';
import { companiesOf } from './start';
import type { ImportContext, RowError } from './targets';

interface Reason {
  column: string | null;
  col: number | null;
  message: string;
  count: number;
  examples: { row: number; value: string | null }[];
}

/** Counters of a dry run. */
class Tally {
  rows = 0;
  errors = 0;
  failed = 0;
  private reasons = new Map<string, Reason>();
  private other: Reason | undefined;
  /** Per column: rows failing in it, and its reasons' counts. */
  private byCol = new Map<number, { rows: number; reasons: Map<string, number> }>();

  add(rows: number, errors: RowError[]): void {
    this.rows += rows;
    this.errors += errors.length;
    const colsOfRow = new Map<number, Set<number>>();
    for (const e of errors) {
      this.reason(e);
      const cols = colsOfRow.get(e.row) ?? new Set<number>();
      colsOfRow.set(e.row, cols);
      if (e.col === null || cols.has(e.col)) continue;
      cols.add(e.col);
      const c = this.byCol.get(e.col) ?? { rows: 0, reasons: new Map<string, number>() };
      c.rows++;
      if (c.reasons.size < IMPORT_CHECK_MAX_REASONS || c.reasons.has(e.message))
        c.reasons.set(e.message, (c.reasons.get(e.message) ?? 0) + 1);
      this.byCol.set(e.col, c);
    }
    // As the job counts them: distinct rows with an error.
    this.failed += colsOfRow.size;
  }

  private reason(e: RowError): void {
    const key = `${e.col ?? ''}\u0000${e.message}`;
    let r = this.reasons.get(key);
    if (!r) {
      if (this.reasons.size >= IMPORT_CHECK_MAX_REASONS) {
        this.other ??= { column: null, col: null, message: IMPORT_MSG.otherReasons, count: 0, examples: [] };
        r = this.other;
      } else {
        r = { column: e.column, col: e.col, message: e.message, count: 0, examples: [] };
        this.reasons.set(key, r);
      }
    }
    r.count++;
    if (r.examples.length < IMPORT_CHECK_EXAMPLES) r.examples.push({ row: e.row, value: e.value });
  }

  result(headers: readonly string[], mapping: readonly (string | null)[], labels: Map<string, string>) {
    const reasons = [...this.reasons.values(), ...(this.other ? [this.other] : [])].sort((a, b) => b.count - a.count);
    const warnings: ImportCheck['warnings'] = [];
    for (const [col, c] of [...this.byCol.entries()].sort((a, b) => a[0] - b[0])) {
      const key = mapping[col];
      if (!key || c.rows * 2 <= this.rows) continue;
      const reason = [...c.reasons.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
      const column = headers[col] ?? '';
      const label = labels.get(key) ?? key;
      warnings.push({
        col,
        column,
        field: key,
        label,
        failed: c.rows,
        reason,
        message: IMPORT_MSG.columnFailsMost(column, label, c.rows, this.rows, reason),
      });
    }
    return { rows_total: this.rows, rows_failed: this.failed, errors_count: this.errors, reasons, warnings };
  }
}

export async function checkImport(
  ctx: ImportsContext,
  c: Caller,
  code: TargetCode,
  id: number,
  body: ImportCheckRequest,
): Promise<ImportCheck> {
  const r = await loadImport(ctx, c, code, id);
  const target = ctx.targetOf(code);
  if (body.mapping.length !== r.headers.length) throw badRequest(IMPORT_MSG.mappingLength, { mapping: IMPORT_MSG.mappingLength });
  // The company and the scope the start would fix (a started import: the ones it has).
  const fixed =
    r.status !== 'uploaded' || code === LEAKS_CATALOGUE
      ? { companyId: r.companyId, scope: r.status === 'uploaded' ? importScope(c) : scopeOf(r) }
      : await companiesOf(ctx, c, code, body).then((x) => ({ companyId: x.companyId, scope: x.scope ?? ('all' as const) }));
  const wctx: ImportContext = {
    importId: 0,
    mode: 'update',
    authorId: null,
    authorKeyId: null,
    defaultCompanyId: fixed.companyId,
    scope: fixed.scope,
  };
  const lookups = await target.loadLookups(wctx);
  const tally = new Tally();
  let source: Source | undefined;
  try {
    source = await fetchSource(ctx, r);
    for await (const b of batchesOf(source, 0, IMPORT_BATCH)) {
      const p = prepareRows(target, b.rows, body.mapping, b.headers, lookups, wctx);
      const refused = target.check ? await target.check(ctx.deps.db, p.records) : [];
      tally.add(b.rows.length, [...p.errors, ...refused]);
    }
  } finally {
    await dropTemp(source?.file);
  }
  return {
    ...tally.result(r.headers, body.mapping, new Map(target.fields.map((f) => [f.key, f.label]))),
    mapping_errors: mappingErrors(target.fields, r.headers, body.mapping),
  };
}
