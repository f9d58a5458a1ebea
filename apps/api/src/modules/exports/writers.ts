/*
 * Streaming writers of an export file: rows go out as they come, with backpressure, so memory stays
 * flat whatever the row count. CSV: UTF-8 with BOM, `;`, CRLF, decimal comma (what Russian Excel
 * opens as a table). XLSX: exceljs' streaming WorkbookWriter, inline strings (never formulas),
 * numbers as numbers, a new sheet every XLSX_ROWS_PER_SHEET rows.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXPORT_CSV_DELIMITER, type ExportFormat, XLSX_ROWS_PER_SHEET } from '@forpost/contract/exports';
import ExcelJS from 'exceljs';
import type { Cell } from './cells';

export interface SheetWriter {
  /** The file's bytes, to hand to the DocStore. */
  output: Readable;
  write(cells: Cell[]): Promise<void>;
  /** Many rows at once (one write to the stream). */
  writeMany(rows: Cell[][]): Promise<void>;
  end(): Promise<void>;
  abort(err: Error): void;
}

const NEEDS_QUOTES = /[";\r\n]|^\s|\s$/;
const csvCell = (c: Cell): string => {
  if (c === null) return '';
  if (typeof c === 'number') return String(c).replace('.', ',');
  return NEEDS_QUOTES.test(c) ? `"${c.replaceAll('"', '""')}"` : c;
};
const csvLine = (cells: readonly Cell[]) => `${cells.map(csvCell).join(EXPORT_CSV_DELIMITER)}\r\n`;

export function csvWriter(header: readonly string[]): SheetWriter {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  out.write(`\ufeff${csvLine(header)}`);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  return {
    output: out,
    write: (cells) => put(csvLine(cells)),
    writeMany: (rows) => put(rows.map(csvLine).join('')),
    async end() {
      out.end();
    },
    abort: (err) => out.destroy(err),
  };
}

/** Buffered bytes above which the producer waits for the consumer. */
const HIGH_WATER = 8 * 1024 * 1024;

export function xlsxWriter(header: readonly string[], rowsPerSheet = XLSX_ROWS_PER_SHEET): SheetWriter {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const widths = header.map((h) => Math.min(50, Math.max(12, h.length + 4)));
  let sheetNo = 0;
  let inSheet = 0;
  let ws: ExcelJS.Worksheet | undefined;

  const newSheet = () => {
    ws?.commit();
    sheetNo++;
    ws = wb.addWorksheet(sheetNo === 1 ? 'Данные' : `Данные ${sheetNo}`, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = widths.map((width) => ({ width }));
    const h = ws.addRow([...header]);
    h.font = { bold: true };
    h.commit();
    inSheet = 0;
  };
  newSheet();

  /**
   * Bytes waiting between exceljs and the file: exceljs' sheet stream writes into the zip's deflate
   * stream without backpressure, so its input buffer is watched as well as our output.
   */
  const pending = () => {
    type Pipe = { writableLength?: number; _writableState?: { length?: number } };
    const pipes = (ws as unknown as { stream?: { pipes?: Pipe[] } }).stream?.pipes ?? [];
    // exceljs' zip (archiver) uses readable-stream 2, which has no `writableLength`.
    return (
      pipes.reduce((n, p) => n + (p.writableLength ?? p._writableState?.length ?? 0), 0) + out.readableLength + out.writableLength
    );
  };

  async function write(cells: Cell[]) {
    if (inSheet >= rowsPerSheet) newSheet();
    (ws as ExcelJS.Worksheet).addRow(cells).commit();
    inSheet++;
    if ((inSheet & 255) === 0) while (pending() > HIGH_WATER && !out.destroyed) await sleep(2);
  }

  return {
    output: out,
    write,
    async writeMany(rows) {
      for (const r of rows) await write(r);
    },
    async end() {
      ws?.commit();
      await wb.commit();
    },
    abort: (err) => out.destroy(err),
  };
}

export const writerFor = (format: ExportFormat, header: readonly string[]): SheetWriter =>
  format === 'csv' ? csvWriter(header) : xlsxWriter(header);

export const EXPORT_MIME: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
