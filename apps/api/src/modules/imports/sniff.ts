/*
 * What an uploaded file is: its format (by extension, confirmed by the first bytes), and for CSV
 * its text encoding (UTF-8 with or without BOM, UTF-16 with BOM, Windows-1251, KOI8-R) and its
 * delimiter. Never trusts the client's declared type.
 */
import { open } from 'node:fs/promises';
import {
  IMPORT_DELIMITERS,
  IMPORT_MSG,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportFormat,
} from '@forpost/contract/imports';
import iconv from 'iconv-lite';
import { badRequest } from '../../lib/errors';

export interface FileMeta {
  format: ImportFormat;
  /** CSV only. */
  encoding: ImportEncoding | null;
  delimiter: ImportDelimiter | null;
}

const SNIFF_BYTES = 256 * 1024;

async function readHead(file: string, bytes = SNIFF_BYTES): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

const startsWith = (b: Buffer, sig: number[]) => b.length >= sig.length && sig.every((x, i) => b[i] === x);
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const BINARY_MAGIC = [
  [0x25, 0x50, 0x44, 0x46] /* %PDF */,
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x1f, 0x8b] /* gzip */,
  [0x7f, 0x45, 0x4c, 0x46],
];

/** The format by the file name's extension; refuses anything else with a Russian message. */
function formatByName(name: string): ImportFormat {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name.trim())?.[1]?.toLowerCase();
  if (ext === 'csv' || ext === 'txt' || ext === 'tsv') return 'csv';
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'xls') throw badRequest(IMPORT_MSG.xls);
  throw badRequest(IMPORT_MSG.badExtension);
}

/** Confirms the format by the first bytes (magic numbers). */
function checkMagic(format: ImportFormat, head: Buffer): void {
  if (head.length === 0) throw badRequest(IMPORT_MSG.empty);
  if (startsWith(head, OLE)) throw badRequest(IMPORT_MSG.xls);
  if (format === 'xlsx') {
    if (!startsWith(head, ZIP)) throw badRequest(IMPORT_MSG.notXlsx);
    return;
  }
  if (startsWith(head, ZIP) || BINARY_MAGIC.some((sig) => startsWith(head, sig))) throw badRequest(IMPORT_MSG.binaryCsv);
}

/** Cuts a possibly incomplete UTF-8 sequence off the end of a sample. */
function trimUtf8Tail(b: Buffer): Buffer {
  let i = b.length - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (b[i] as number) >= 0x80 && (b[i] as number) < 0xc0) {
    i--;
    back++;
  }
  if (i < 0) return b;
  const lead = b[i] as number;
  const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return need > back ? b.subarray(0, i) : b;
}

const isValidUtf8 = (b: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

/** Bytes ≥ 0x80 that Windows-1251 maps to Russian letters or common punctuation. */
const CP1251_PLAUSIBLE = (x: number) =>
  (x >= 0xc0 && x <= 0xff) ||
  [0xa8, 0xb8, 0xa0, 0xab, 0xbb, 0xb9, 0x85, 0x96, 0x97, 0x93, 0x94, 0x91, 0x92, 0xb0, 0xb7].includes(x);

/**
 * The text encoding of a CSV sample. A BOM decides; otherwise valid UTF-8 is UTF-8; otherwise the
 * high bytes must look like Russian in Windows-1251 (or KOI8-R, where lower-case letters sit in
 * 0xC0–0xDF). Anything else is refused: guessing wrong would silently corrupt every value.
 */
export function detectEncoding(sample: Buffer): ImportEncoding {
  if (startsWith(sample, [0xef, 0xbb, 0xbf])) return 'utf-8';
  if (startsWith(sample, [0xff, 0xfe])) return 'utf-16le';
  if (startsWith(sample, [0xfe, 0xff])) return 'utf-16be';
  const nul = sample.indexOf(0);
  if (nul !== -1) {
    // UTF-16 without a BOM has a NUL in every other byte; other NULs mean a binary file.
    let zeros = 0;
    for (let i = 0; i < Math.min(sample.length, 4096); i++) if (sample[i] === 0) zeros++;
    throw badRequest(zeros > Math.min(sample.length, 4096) / 4 ? IMPORT_MSG.encoding : IMPORT_MSG.binaryCsv);
  }
  let control = 0;
  for (const x of sample) if (x < 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0d) control++;
  if (control > sample.length / 100) throw badRequest(IMPORT_MSG.binaryCsv);
  if (isValidUtf8(trimUtf8Tail(sample))) return 'utf-8';
  let high = 0;
  let plausible = 0;
  let koiLower = 0;
  let cpLower = 0;
  for (const x of sample) {
    if (x < 0x80) continue;
    high++;
    if (CP1251_PLAUSIBLE(x)) plausible++;
    if (x >= 0xc0 && x <= 0xdf) koiLower++;
    if (x >= 0xe0) cpLower++;
  }
  if (high === 0 || plausible / high < 0.9) throw badRequest(IMPORT_MSG.encoding);
  return koiLower > cpLower * 3 && koiLower >= 20 ? 'koi8-r' : 'windows-1251';
}

const decodeSample = (sample: Buffer, encoding: ImportEncoding) =>
  iconv.decode(encoding === 'utf-8' ? trimUtf8Tail(sample) : sample, encoding, { stripBOM: true });

/** Counts of a delimiter per line outside double quotes, for the first lines of the sample. */
function countsPerLine(text: string, d: string, maxLines = 30): number[] {
  const counts: number[] = [];
  let n = 0;
  let quoted = false;
  for (let i = 0; i < text.length && counts.length < maxLines; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === d) n++;
    else if (!quoted && ch === '\n') {
      counts.push(n);
      n = 0;
    }
  }
  if (counts.length < maxLines && n > 0) counts.push(n);
  return counts;
}

/**
 * The delimiter whose count is the same on most lines (and not zero in the header); ties go to the
 * one with more columns. A file with one column has no delimiter: ',' is as good as any. Leading
 * comment lines (`#…`, the banner of abuse.ch feeds — rows.ts skips them) are not counted.
 */
export function detectDelimiter(text: string): ImportDelimiter {
  let best: { d: ImportDelimiter; score: number; cols: number } = { d: ',', score: 0, cols: 0 };
  const body = text.replace(/^(?:#[^\n]*\n)+/, '') || text;
  // The last line of a sample may be cut in the middle.
  const sample = body.length >= 60_000 ? body.slice(0, body.lastIndexOf('\n') + 1) || body : body;
  for (const d of IMPORT_DELIMITERS) {
    const counts = countsPerLine(sample, d).filter((_, i, a) => i < a.length);
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const same = counts.filter((c) => c === header).length;
    const score = same / counts.length;
    if (score > best.score || (score === best.score && header > best.cols)) best = { d, score, cols: header };
  }
  return best.d;
}

/** Format, encoding and delimiter of a stored upload (refuses with a Russian message). */
export async function sniffFile(file: string, name: string): Promise<FileMeta> {
  const format = formatByName(name);
  const head = await readHead(file);
  checkMagic(format, head);
  if (format === 'xlsx') return { format, encoding: null, delimiter: null };
  const encoding = detectEncoding(head);
  const text = decodeSample(head, encoding);
  if (!text.trim()) throw badRequest(IMPORT_MSG.empty);
  const delimiter = /\.tsv$/i.test(name.trim()) ? '\t' : detectDelimiter(text.slice(0, 64 * 1024));
  return { format, encoding, delimiter };
}
