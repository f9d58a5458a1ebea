/* Helpers of the import/export tests: multipart bodies, a tiny zip writer for the malicious-file corpus, job polling. */
import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import type PgBoss from 'pg-boss';
import { afterAll } from 'vitest';
import { startJobs } from '../src/jobs';
import { type Client, ORIGIN, type TestContext } from './helpers';

export interface FilePart {
  name: string;
  content: Buffer | string;
  type?: string;
}

/** A multipart/form-data body: fields first, then the file (as browsers send it). */
export function multipart(fields: Record<string, string>, file?: FilePart): { payload: Buffer; contentType: string } {
  const boundary = `----forpost${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content);
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(ctx: TestContext, client: Client, url: string, file: FilePart, fields: Record<string, string> = {}) {
  const { payload, contentType } = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: ORIGIN, 'content-type': contentType },
    payload,
  });
}

/** Starts pg-boss on the test database and attaches the transfer area (workers run in-process when `work`). */
export async function attachJobs(ctx: TestContext, work: boolean): Promise<PgBoss> {
  const quiet = { warn() {}, info() {}, error() {} };
  const boss = await startJobs(ctx.url, quiet, work);
  await ctx.app.services.transfer.attach(boss, { work });
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  });
  return boss;
}

/** Polls `url` until `done(body)` (or fails after `ms`). */
export async function waitFor<T>(client: Client, url: string, done: (b: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await client.get(url);
    const b = r.json() as T;
    if (r.statusCode === 200 && done(b)) return b;
    if (Date.now() > until) throw new Error(`timeout waiting for ${url}: ${r.statusCode} ${r.body}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

export const finished = (b: { status: string }) => b.status === 'done' || b.status === 'failed';

// ---------------------------------------------------------------------------
// A minimal zip writer (for crafting XLSX files, normal and malicious)
// ---------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Lie in the central directory about the uncompressed size. */
  declaredSize?: number;
  store?: boolean;
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : e.data;
    const body = e.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(raw) >>> 0;
    const size = e.declaredSize ?? raw.length;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(0x0800, 6);
    lh.writeUInt16LE(e.store ? 0 : 8, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(size, 22);
    lh.writeUInt16LE(name.length, 26);
    locals.push(lh, name, body);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0x0800, 8);
    ch.writeUInt16LE(e.store ? 0 : 8, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(size, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    central.push(ch, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A hand-made XLSX: inline-string rows, optional extra parts or a replaced sheet XML. */
export function xlsxOf(
  rows: string[][],
  opts: { sheetXml?: string; sharedStringsXml?: string; extra?: ZipEntry[] } = {},
): Buffer {
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheet =
    opts.sheetXml ??
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData>${rows
      .map(
        (r, ri) =>
          `<row r="${ri + 1}">${r.map((v, ci) => `<c r="${col(ci)}${ri + 1}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`).join('')}</row>`,
      )
      .join('')}</sheetData></worksheet>`;
  const entries: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Лист1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ];
  if (opts.sharedStringsXml) entries.push({ name: 'xl/sharedStrings.xml', data: opts.sharedStringsXml });
  return zip([...entries, ...(opts.extra ?? [])]);
}
