/*
 * XLSX files are zip archives of XML: checked before anything is expanded.
 *
 * 1. The central directory (yauzl): entry count, total and per-entry uncompressed sizes and ratio
 *    (zip bombs), encryption — refused before a byte is inflated.
 * 2. Every XML part, inflated by yauzl (which verifies the real sizes against the directory):
 *    DOCTYPE / ENTITY declarations refused (entity expansion, external entities), shared strings
 *    counted and capped (they are held in memory while the sheet is read).
 * 3. exceljs never sees the uploaded archive itself: it reads a rebuilt, uncompressed stream of
 *    just the parts it needs (workbook, relations, styles, shared strings, the first sheet), taken
 *    from the checked central directory — entries hidden from the directory never reach it.
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  IMPORT_MSG,
  XLSX_MAX_ENTRIES,
  XLSX_MAX_RATIO,
  XLSX_MAX_SHARED_STRINGS,
  XLSX_MAX_UNCOMPRESSED,
} from '@forpost/contract/imports';
import yauzl from 'yauzl';
import { ApiError, badRequest } from '../../lib/errors';

export interface XlsxPlan {
  /** Zip entry names in the order exceljs should read them, the first sheet last. */
  parts: { name: string; as: string }[];
  sharedStrings: number;
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true },
      (err, zf) => (err || !zf ? reject(err ?? new Error('zip')) : resolve(zf)),
    ),
  );

async function readEntries(zf: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  if (zf.entryCount > XLSX_MAX_ENTRIES) throw badRequest(IMPORT_MSG.zipTooManyEntries);
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zf.on('entry', (e: yauzl.Entry) => {
      if (e.isEncrypted()) return reject(badRequest(IMPORT_MSG.badZip));
      total += e.uncompressedSize;
      const ratio = e.uncompressedSize / Math.max(1, e.compressedSize);
      if (total > XLSX_MAX_UNCOMPRESSED || (ratio > XLSX_MAX_RATIO && e.uncompressedSize > 1024 * 1024))
        return reject(badRequest(IMPORT_MSG.zipBomb));
      entries.set(e.fileName.replace(/^\/+/, ''), e);
      zf.readEntry();
    });
    zf.on('end', () => resolve());
    zf.on('error', reject);
    zf.readEntry();
  });
  return entries;
}

const openEntry = (zf: yauzl.ZipFile, e: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) =>
    zf.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('entry')) : resolve(s))),
  );

async function readText(zf: yauzl.ZipFile, e: yauzl.Entry, max = 16 * 1024 * 1024): Promise<string> {
  if (e.uncompressedSize > max) throw badRequest(IMPORT_MSG.xlsxRead);
  const chunks: Buffer[] = [];
  for await (const c of await openEntry(zf, e)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const FORBIDDEN = /<!\s*(doctype|entity)/i;
const SHARED_STRING = /<(?:[A-Za-z_][\w.-]*:)?si[\s>/]/g;
const TAIL = 32;

/** Streams a part through the DOCTYPE check (and counts `<si>` of the shared strings). */
async function scanPart(zf: yauzl.ZipFile, e: yauzl.Entry, countStrings: boolean): Promise<number> {
  let tail = '';
  let strings = 0;
  for await (const chunk of await openEntry(zf, e)) {
    let text = (chunk as Buffer).toString('latin1');
    if (text.includes('\0')) text = text.replaceAll('\0', ''); // UTF-16 parts must not hide a DOCTYPE
    const s = tail + text;
    if (FORBIDDEN.test(s)) throw badRequest(IMPORT_MSG.xmlDoctype);
    if (countStrings) {
      SHARED_STRING.lastIndex = 0;
      for (let m = SHARED_STRING.exec(s); m; m = SHARED_STRING.exec(s)) if (m.index + m[0].length > tail.length) strings++;
      if (strings > XLSX_MAX_SHARED_STRINGS) throw badRequest(IMPORT_MSG.sharedStrings);
    }
    tail = s.slice(-TAIL);
  }
  return strings;
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1] ?? new RegExp(`\\s${name}\\s*=\\s*'([^']*)'`).exec(tag)?.[1];
}

/** The zip path of the workbook's first sheet (workbook order), or the lowest-numbered sheet. */
function firstSheet(workbook: string, rels: string, entries: Map<string, yauzl.Entry>): string | undefined {
  const sheetTag = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbook)?.[0];
  const rid = sheetTag ? /\s(?:\w+:)?id\s*=\s*"([^"]*)"/.exec(sheetTag)?.[1] : undefined;
  if (rid) {
    for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      if (attr(m[0], 'Id') !== rid) continue;
      const target = attr(m[0], 'Target');
      if (!target) break;
      const p = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
      if (entries.has(p)) return p;
    }
  }
  const sheets = [...entries.keys()]
    .map((n) => ({ n, i: Number(/^xl\/worksheets\/sheet(\d+)\.xml$/.exec(n)?.[1]) }))
    .filter((x) => Number.isFinite(x.i))
    .sort((a, b) => a.i - b.i);
  return sheets[0]?.n;
}

/** Checks an XLSX file (refusing with a Russian 400) and plans what exceljs will read. */
export async function inspectXlsx(file: string): Promise<XlsxPlan> {
  let zf: yauzl.ZipFile;
  try {
    zf = await openZip(file);
  } catch {
    throw badRequest(IMPORT_MSG.badZip);
  }
  try {
    const entries = await readEntries(zf);
    const workbookEntry = entries.get('xl/workbook.xml');
    if (!workbookEntry || !entries.has('[Content_Types].xml')) throw badRequest(IMPORT_MSG.notXlsx);
    let sharedStrings = 0;
    for (const [name, e] of entries) {
      if (!/\.(xml|rels|vml)$/i.test(name)) continue;
      const n = await scanPart(zf, e, name === 'xl/sharedStrings.xml');
      if (name === 'xl/sharedStrings.xml') sharedStrings = n;
    }
    const relsEntry = entries.get('xl/_rels/workbook.xml.rels');
    const sheet = firstSheet(await readText(zf, workbookEntry), relsEntry ? await readText(zf, relsEntry) : '', entries);
    if (!sheet) throw badRequest(IMPORT_MSG.noSheet);
    const parts = [
      { name: 'xl/_rels/workbook.xml.rels', as: 'xl/_rels/workbook.xml.rels' },
      { name: 'xl/workbook.xml', as: 'xl/workbook.xml' },
      { name: 'xl/styles.xml', as: 'xl/styles.xml' },
      { name: 'xl/sharedStrings.xml', as: 'xl/sharedStrings.xml' },
      { name: sheet, as: 'xl/worksheets/sheet1.xml' },
    ];
    return { parts, sharedStrings };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw badRequest(IMPORT_MSG.badZip);
  } finally {
    zf.close();
  }
}

const EMPTY_PARTS: Record<string, string> = {
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
  // Without shared strings exceljs would spool the sheet to a temporary file first.
  'xl/sharedStrings.xml':
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
};

function localHeader(name: string, size: number, crc: number): Buffer {
  const nameBuf = Buffer.from(name, 'utf8');
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4); // version needed
  h.writeUInt16LE(0x0800, 6); // UTF-8 names
  h.writeUInt16LE(0, 8); // stored
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(0x21, 12);
  h.writeUInt32LE(crc >>> 0, 14);
  h.writeUInt32LE(size, 18);
  h.writeUInt32LE(size, 22);
  h.writeUInt16LE(nameBuf.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, nameBuf]);
}

/**
 * The planned parts as an uncompressed zip stream (local headers and data only) for exceljs'
 * streaming reader. `close()` releases the file when reading stops early.
 */
export function xlsxPartsStream(file: string, plan: XlsxPlan): { stream: Readable; close: () => void } {
  let zf: yauzl.ZipFile | undefined;
  let closed = false;
  let released = false;
  const release = () => {
    if (released || !zf) return;
    released = true;
    zf.close();
  };
  async function* parts() {
    zf = await openZip(file);
    if (closed) return release();
    const entries = await readEntries(zf);
    for (const p of plan.parts) {
      if (closed) return;
      const e = entries.get(p.name);
      if (!e) {
        const empty = EMPTY_PARTS[p.as];
        if (!empty) continue;
        const buf = Buffer.from(empty, 'utf8');
        yield localHeader(p.as, buf.length, crc32(buf));
        yield buf;
        continue;
      }
      yield localHeader(p.as, e.uncompressedSize, e.crc32);
      for await (const chunk of await openEntry(zf, e)) yield chunk as Buffer;
    }
  }
  const stream = Readable.from(parts(), { objectMode: false });
  const close = () => {
    closed = true;
    stream.destroy();
    release();
  };
  stream.on('close', release);
  return { stream, close };
}
