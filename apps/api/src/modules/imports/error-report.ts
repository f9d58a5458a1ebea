/* The row errors of an import as CSV for Excel (UTF-8 with BOM, `;`), streamed from the database a page at a time. */
import { neutraliseCell } from '@forpost/contract/exports';
import { IMPORT_ERROR_REPORT_HEADERS, IMPORT_MSG } from '@forpost/contract/imports';
import { stringify } from 'csv-stringify';
import type { Caller } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import { loadImport } from './access';
import type { ImportsContext, TargetCode } from './context';

const PAGE = 2000;

export async function errorReport(ctx: ImportsContext, c: Caller, code: TargetCode, id: number) {
  const r = await loadImport(ctx, c, code, id);
  if (r.errorsCount === 0) throw notFound(IMPORT_MSG.noErrors);
  // Values with a bare CR or LF are quoted too: Excel ends a row at either.
  const out = stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
  out.write([...IMPORT_ERROR_REPORT_HEADERS]);
  (async () => {
    let after = { row: 0, id: 0 };
    for (;;) {
      const page = await ctx.repo.errorsAfter(id, after, PAGE);
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
      const last = page[page.length - 1];
      if (last) after = { row: last.row, id: last.id };
    }
    out.end();
  })().catch((e) => out.destroy(e as Error));
  const base = r.fileName.replace(/\.[^.]+$/, '');
  return { fileName: `Ошибки импорта ${base}.csv`, stream: out };
}
