/*
 * Rows of an import file, streamed with constant memory: CSV through iconv-lite (the detected
 * encoding) and csv-parse, XLSX through exceljs' streaming reader over the checked parts.
 * Row numbers are those a user sees in Excel: the header is row 1 (blank rows count, but are
 * never yielded). Every cell is text; formulas are never evaluated (their cached result is read).
 */
import { createReadStream } from 'node:fs';
import { isIP } from 'node:net';
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_RECORD_BYTES, IMPORT_MSG } from '@forpost/contract/imports';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { ApiError, badRequest } from '../../lib/errors';
import type { FileMeta } from './sniff';
import { type XlsxPlan, xlsxPartsStream } from './xlsx';

export interface SourceRow {
  /** 1-based row number in the file (header = its own row). */
  row: number;
  cells: string[];
}

const blank = (cells: string[]) => cells.every((c) => c === '');

const CSV_REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'не закрыта кавычка',
  CSV_INVALID_CLOSING_QUOTE: 'лишний символ после закрывающей кавычки',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'лишний символ после закрывающей кавычки',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'неверное число столбцов',
};

function csvError(e: unknown): ApiError {
  const err = e as { code?: string; lines?: number; records?: number };
  if (err.code === 'CSV_MAX_RECORD_SIZE') return badRequest(IMPORT_MSG.recordTooLarge);
  return badRequest(IMPORT_MSG.csvSyntax((err.records ?? 0) + 1, CSV_REASONS[err.code ?? ''] ?? 'неверный формат'));
}

/**
 * Lines before the header that start with «#» are comments — the banner of threat feeds (abuse.ch
 * URLhaus, ThreatFox, Feodo Tracker). The last of them is the header itself when, without its «#»,
 * it has as many columns as the first line after it («# id,dateadded,url,…»). Later rows starting
 * with «#» are data.
 */
const isComment = (cells: string[]) => cells[0]?.startsWith('#') ?? false;
/** The comment's cells without the «#» (a first cell that is only «#» is a column named «#»). */
const uncommented = (cells: string[]) => [(cells[0] ?? '').replace(/^#+\s*/, '') || (cells[0] ?? ''), ...cells.slice(1)];

/**
 * A cell no header would be: a URL, an IP address or a domain name, named as the registry's aliases
 * name such columns (so the column maps by itself).
 */
function valueKind(cell: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^\s/]+/i.test(cell)) return 'URL';
  if (isIP(cell)) return 'IP-адрес';
  if (/^(?=.{4,253}$)(?:[\p{L}\p{N}_-]+\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]+)$/iu.test(cell)) return 'Домен';
  return null;
}

/**
 * A file without a header (a feed of one URL per line, like OpenPhish's): when every cell of the first
 * line is a value no header would be, the header is made up — each column named by its kind («URL»,
 * «IP-адрес», «Домен»; a second one of a kind by its position) — and the first line is data.
 */
function inventedHeader(cells: string[]): string[] | null {
  const filled = cells.filter((c) => c !== '');
  if (!filled.length) return null;
  const kinds = cells.map((c) => (c === '' ? '' : valueKind(c)));
  if (kinds.some((k) => k === null)) return null;
  return kinds.map((k, i) => (k && kinds.indexOf(k) === i ? k : `Столбец ${i + 1}`));
}

async function* csvRows(file: string, meta: FileMeta): AsyncGenerator<SourceRow> {
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  const decoder = iconv.decodeStream(meta.encoding ?? 'utf-8', { stripBOM: true });
  const parser = parse({
    delimiter: meta.delimiter ?? ',',
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    max_record_size: IMPORT_MAX_RECORD_BYTES,
  });
  source.on('error', (e) => parser.destroy(e));
  decoder.on('error', (e: Error) => parser.destroy(e));
  source.pipe(decoder).pipe(parser);
  let n = 0;
  let started = false;
  let lastComment: SourceRow | undefined;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      n++;
      const cells = record.length > IMPORT_MAX_COLUMNS ? record.slice(0, IMPORT_MAX_COLUMNS) : record;
      for (let i = 0; i < cells.length; i++) cells[i] = (cells[i] as string).trim();
      if (blank(cells)) continue;
      if (!started) {
        if (isComment(cells)) {
          lastComment = { row: n, cells };
          continue;
        }
        started = true;
        const header = lastComment && uncommented(lastComment.cells);
        if (header && lastComment && header.length > 1 && header.length === cells.length)
          yield { row: lastComment.row, cells: header };
        else {
          // No header line: an invented one, numbered 0 (the first line keeps its own number).
          const invented = inventedHeader(cells);
          if (invented) yield { row: 0, cells: invented };
        }
      }
      yield { row: n, cells };
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if ((e as { code?: string }).code?.startsWith('CSV_')) throw csvError(e);
    throw e;
  } finally {
    source.destroy();
    parser.destroy();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An exceljs cell value as text (dates as ISO; formulas by their cached result). */
function cellText(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    const date = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const h = v.getUTCHours();
    const m = v.getUTCMinutes();
    const s = v.getUTCSeconds();
    return h || m || s ? `${date} ${pad(h)}:${pad(m)}:${pad(s)}` : date;
  }
  if (typeof v === 'object') {
    const o = v as {
      richText?: { text?: string }[];
      formula?: string;
      sharedFormula?: string;
      result?: unknown;
      text?: unknown;
      error?: string;
    };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text ?? '').join('');
    if ('formula' in o || 'sharedFormula' in o) return cellText(o.result ?? null);
    if ('text' in o) return cellText(o.text);
    if ('error' in o) return '';
  }
  return '';
}

async function* xlsxRows(file: string, plan: XlsxPlan): AsyncGenerator<SourceRow> {
  const { stream, close } = xlsxPartsStream(file, plan);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        const width = Math.min(values.length - 1, IMPORT_MAX_COLUMNS);
        const cells: string[] = new Array(Math.max(width, 0));
        for (let i = 0; i < width; i++) cells[i] = cellText(values[i + 1]).trim();
        if (width > 0 && !blank(cells)) yield { row: row.number, cells };
      }
      break; // only the first sheet (the plan holds no other)
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw badRequest(IMPORT_MSG.xlsxRead);
  } finally {
    close();
  }
  if (sheets === 0) throw badRequest(IMPORT_MSG.noSheet);
}

/** Every non-blank row of the file, the header first. */
export function readRows(file: string, meta: FileMeta, plan?: XlsxPlan): AsyncGenerator<SourceRow> {
  if (meta.format === 'xlsx') {
    if (!plan) throw new Error('xlsx without a plan');
    return xlsxRows(file, plan);
  }
  return csvRows(file, meta);
}

export interface FileHead {
  headers: string[];
  /** The header's row number. */
  headerRow: number;
  rows: SourceRow[];
}

/** Header names: trailing blank columns dropped, blank ones named by their position. */
export function headersOf(cells: string[]): string[] {
  let n = cells.length;
  while (n > 0 && cells[n - 1] === '') n--;
  if (n > IMPORT_MAX_COLUMNS) throw badRequest(IMPORT_MSG.tooManyColumns);
  return cells.slice(0, n).map((c, i) => (c === '' ? `Столбец ${i + 1}` : c.slice(0, 200)));
}

/** The header and the first `limit` data rows. */
export async function readHead(file: string, meta: FileMeta, plan: XlsxPlan | undefined, limit: number): Promise<FileHead> {
  let headers: string[] | undefined;
  let headerRow = 0;
  const rows: SourceRow[] = [];
  const it = readRows(file, meta, plan);
  try {
    for await (const r of it) {
      if (!headers) {
        headers = headersOf(r.cells);
        headerRow = r.row;
        continue;
      }
      rows.push(r);
      if (rows.length >= limit) break;
    }
  } finally {
    await it.return(undefined);
  }
  if (!headers || headers.length === 0) throw badRequest(IMPORT_MSG.noHeader);
  if (rows.length === 0) throw badRequest(IMPORT_MSG.onlyHeader);
  return { headers, headerRow, rows };
}
