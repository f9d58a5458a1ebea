/*
 * The check of a mapping: what is wrong with it as a whole (Russian, empty when it can start), and
 * the first rows of the file validated cell by cell with it, as the job would.
 */

import { IMPORT_MSG, type ImportField, type ImportPreview } from '@forpost/contract/imports';
import { EVENT_MSG } from '@forpost/contract/modules';
import type { ImportsContext, TargetCode } from './context';
import type { SourceRow } from './rows';
import type { ImportContext } from './targets';

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
  for (const f of fields)
    if (f.required && !seen.has(f.key) && !(f.fill_from && seen.has(f.fill_from))) out.push(IMPORT_MSG.requiredUnmapped(f.label));
  return [...new Set(out)];
}

/** The sample rows checked with `mapping` for the companies of `ctx`. */
export async function previewRows(
  ictx: ImportsContext,
  code: TargetCode,
  headers: string[],
  sample: SourceRow[],
  mapping: (string | null)[],
  ctx: Pick<ImportContext, 'scope' | 'defaultCompanyId'>,
): Promise<ImportPreview> {
  const target = ictx.targetOf(code);
  const lookups = await target.loadLookups(ctx);
  const full: ImportContext = { importId: 0, mode: 'update', authorId: null, authorKeyId: null, ...ctx };
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
  // Fields read from another one's cell because they have no column of their own (the domain from the URL).
  const notes = target.fields.flatMap((f) => {
    const source = f.fill_from && !mapping.includes(f.key) && mapping.includes(f.fill_from) ? f.fill_from : null;
    const label = source && target.fields.find((x) => x.key === source)?.label;
    return label ? [IMPORT_MSG.filledFrom(f.label, label)] : [];
  });
  return {
    headers,
    mapping,
    fields: target.fields.map(({ options, ...f }) => (options ? { ...f, options: [...options] } : f)),
    rows,
    mapping_errors: mappingErrors(target.fields, headers, mapping),
    ...(notes.length ? { notes } : {}),
  };
}
