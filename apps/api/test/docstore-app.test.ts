/*
 * The app on an S3 bucket (S3_BUCKET + the AWS SDK's variables, a real S3-protocol server): uploads,
 * exports and downloads go through the bucket, DATA_DIR/files stays empty, and a second instance with
 * its own DATA_DIR (another machine) serves the same files. Downloads answer byte ranges
 * (206/416, Accept-Ranges) — on the bucket and, for documents, on local disk too.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExportItem } from '@forpost/contract/exports';
import { MODULES } from '@forpost/contract/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/client';
import { RANGE_MSG } from '../src/modules/docs/docs.routes';
import { ADMIN, Client, createCompany, createUser, csvRows, ORIGIN, setupApp, type TestContext } from './helpers';
import { attachJobs, finished, waitFor } from './imports-kit';
import { startS3, type TestS3 } from './s3-server';

let s3: TestS3;
let ctx: TestContext;
let other: TestContext;
let admin: Client;
let company: number;

/** A multipart/form-data body with fields, then the file. */
function multipart(fields: Record<string, string | number>, file: { filename: string; type: string; content: Buffer }) {
  const boundary = `----forpost${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function uploadDoc(c: TestContext, client: Client, eventId: number, content: Buffer) {
  const { payload, contentType } = multipart(
    { kind: 'sample', event_id: eventId },
    { filename: 'образец.bin', type: 'application/octet-stream', content },
  );
  const r = await c.app.inject({
    method: 'POST',
    url: '/api/v1/docs',
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: ORIGIN,
      'content-type': contentType,
    },
    payload,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; url: string; size: number };
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

const storageKey = async (table: 'docs' | 'exports', id: number) =>
  String((await ctx.database.pool.query(`SELECT storage_key FROM ${table} WHERE id = $1`, [id])).rows[0]?.storage_key);

/** The bytes 0…n-1 of a file that tells its offsets apart. */
const CONTENT = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

beforeAll(async () => {
  s3 = await startS3();
  ctx = await setupApp(s3.env);
  // «Another machine»: its own DATA_DIR, the same database and bucket.
  const database = createDatabase(ctx.url, { warn() {} });
  const config = { ...ctx.config, dataDir: mkdtempSync(path.join(tmpdir(), 'forpost-other-')) };
  const app = await buildApp({ config, database, logger: false });
  other = { app, database, config, url: ctx.url };
  afterAll(async () => {
    await app.close();
    await database.close();
    await s3.close();
  });
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  company = (await createCompany(ctx, 'Альфа')).id;
  await attachJobs(ctx, true);
});

describe('documents in the bucket', () => {
  let doc: { id: number; url: string; size: number };
  let key: string;

  it('an upload lands in the bucket under its storage key; DATA_DIR/files stays empty', async () => {
    const ev = (await admin.post('/modules/domains/events', { company_id: company, ...MODULES.domains.sample(1) })).json();
    doc = await uploadDoc(ctx, admin, ev.id, CONTENT);
    expect(doc.size).toBe(CONTENT.length);
    key = await storageKey('docs', doc.id);
    expect(await s3.keys()).toContain(key);
    expect(filesUnder(path.join(ctx.config.dataDir, 'files'))).toEqual([]);
  });

  it('downloads whole, with Accept-Ranges, on this instance and on another machine', async () => {
    const r = await admin.get(doc.url);
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.equals(CONTENT)).toBe(true);
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headers['content-length']).toBe(String(CONTENT.length));
    expect(r.headers['content-disposition']).toMatch(/^attachment;/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const elsewhere = new Client(other);
    await elsewhere.login(ADMIN.email, ADMIN.password);
    const o = await elsewhere.get(doc.url);
    expect(o.statusCode).toBe(200);
    expect(o.rawPayload.equals(CONTENT)).toBe(true);
    expect(filesUnder(path.join(other.config.dataDir, 'files'))).toEqual([]);
  });

  it('answers a byte range with 206 and Content-Range, read from the bucket at that offset', async () => {
    const sent = s3.requests.length;
    const r = await admin.get(doc.url, { range: 'bytes=60000-60009' });
    expect(r.statusCode).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 60000-60009/${CONTENT.length}`);
    expect(r.headers['content-length']).toBe('10');
    expect(r.headers['content-disposition']).toMatch(/^attachment;/);
    expect(r.rawPayload.equals(CONTENT.subarray(60000, 60010))).toBe(true);
    expect(s3.requests.slice(sent).some((q) => q.startsWith(`GET /${s3.bucket}/${key}`))).toBe(true);
  });

  it('an upload refused mid-stream (not an image) is refused as on disk and leaves no object', async () => {
    const before = await s3.keys();
    const ev = (await admin.post('/modules/domains/events', { company_id: company, ...MODULES.domains.sample(2) })).json();
    const { payload, contentType } = multipart(
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'shot.png', type: 'image/png', content: Buffer.from('<html><script>alert(1)</script></html>') },
    );
    const r = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/docs',
      headers: {
        cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        origin: ORIGIN,
        'content-type': contentType,
      },
      payload,
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(await s3.keys()).toEqual(before);
  });

  it('deleting the document removes its object', async () => {
    expect((await admin.del(`/docs/${doc.id}`)).statusCode).toBe(204);
    expect(await s3.keys()).not.toContain(key);
  });
});

describe('exports in the bucket', () => {
  let e: ExportItem;
  let whole: Buffer;

  beforeAll(async () => {
    for (let i = 1; i <= 40; i++)
      await admin.post('/modules/domains/events', { company_id: company, domain: `alfa-${i}.ru`, registrar: 'REG.RU' });
    const r = await admin.post('/modules/exports', {
      module: 'domains',
      format: 'csv',
      fields: ['domain', 'company_id'],
      filters: { company_id: company, sort: 'domain' },
    });
    expect(r.statusCode, r.body).toBe(202);
    e = await waitFor<ExportItem>(admin, `/modules/exports/${(r.json() as ExportItem).id}`, finished);
    expect(e.status).toBe('done');
  });

  it('the file is an object in the bucket; the whole download is as before, plus Accept-Ranges', async () => {
    expect(await s3.keys()).toContain(await storageKey('exports', e.id));
    expect(filesUnder(path.join(ctx.config.dataDir, 'files'))).toEqual([]);
    const r = await admin.get(`/modules/exports/${e.id}/download`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(/^attachment;/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(Number(r.headers['content-length'])).toBe(e.size);
    whole = r.rawPayload;
    expect(e.rows_written).toBeGreaterThanOrEqual(40);
    expect(csvRows(whole)).toHaveLength(1 + (e.rows_written ?? 0));
  });

  it('Range: a span, an open end, a suffix — 206 with the right bytes', async () => {
    const size = whole.length;
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      ['bytes=100-', 100, size - 1],
      ['bytes=-25', size - 25, size - 1],
      [`bytes=${size - 5}-${size + 1000}`, size - 5, size - 1],
    ];
    for (const [range, from, to] of cases) {
      const r = await admin.get(`/modules/exports/${e.id}/download`, { range });
      expect(r.statusCode, range).toBe(206);
      expect(r.headers['content-range'], range).toBe(`bytes ${from}-${to}/${size}`);
      expect(r.headers['content-length'], range).toBe(String(to - from + 1));
      expect(r.headers['content-disposition']).toMatch(/^attachment;/);
      expect(r.rawPayload.equals(whole.subarray(from, to + 1)), range).toBe(true);
    }
    // The other instance (another machine) answers the same.
    const elsewhere = new Client(other);
    await elsewhere.login(ADMIN.email, ADMIN.password);
    const o = await elsewhere.get(`/modules/exports/${e.id}/download`, { range: 'bytes=0-9' });
    expect(o.statusCode).toBe(206);
    expect(o.rawPayload.equals(whole.subarray(0, 10))).toBe(true);
  });

  it('a range past the end is 416 in the API error shape; unusable Range headers get the whole file', async () => {
    const size = whole.length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const r = await admin.get(`/modules/exports/${e.id}/download`, { range });
      expect(r.statusCode, range).toBe(416);
      expect(r.headers['content-range']).toBe(`bytes */${size}`);
      expect(r.headers['content-disposition']).toBeUndefined();
      expect(r.json()).toEqual({ statusCode: 416, statusMessage: 'Range Not Satisfiable', message: RANGE_MSG.unsatisfiable });
    }
    const unusable: Record<string, string>[] = [
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=9-2' },
      { range: 'items=0-5' },
      { range: 'bytes=0-9', 'if-range': '"что-то"' },
    ];
    for (const headers of unusable) {
      const r = await admin.get(`/modules/exports/${e.id}/download`, headers);
      expect(r.statusCode, JSON.stringify(headers)).toBe(200);
      expect(r.rawPayload.equals(whole)).toBe(true);
    }
  });

  it('still checks access before any byte: another user gets 404, a range changes nothing', async () => {
    await createUser(ctx, { email: 'other@forpost.test' });
    const stranger = new Client(ctx);
    await stranger.login('other@forpost.test', ADMIN.password);
    const r = await stranger.get(`/modules/exports/${e.id}/download`, { range: 'bytes=0-9' });
    expect(r.statusCode).toBe(404);
  });
});

describe('ranges on local disk (the default store)', () => {
  let local: TestContext;
  let client: Client;
  beforeAll(async () => {
    local = await setupApp();
    await createUser(local, { email: ADMIN.email });
    client = new Client(local);
    await client.login(ADMIN.email, ADMIN.password);
  });

  it('document downloads answer ranges too; the file is on disk', async () => {
    const c = (await createCompany(local, 'Бета')).id;
    const ev = (await client.post('/modules/domains/events', { company_id: c, ...MODULES.domains.sample(1) })).json();
    const d = await uploadDoc(local, client, ev.id, CONTENT);
    expect(filesUnder(path.join(local.config.dataDir, 'files'))).toHaveLength(1);
    const r = await client.get(d.url, { range: 'bytes=65536-65545' });
    expect(r.statusCode).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 65536-65545/${CONTENT.length}`);
    expect(r.rawPayload.equals(CONTENT.subarray(65536, 65546))).toBe(true);
    const bad = await client.get(d.url, { range: `bytes=${CONTENT.length}-` });
    expect(bad.statusCode).toBe(416);
    expect(bad.json().message).toBe(RANGE_MSG.unsatisfiable);
    const all = await client.get(d.url);
    expect(all.statusCode).toBe(200);
    expect(all.rawPayload.equals(CONTENT)).toBe(true);
  });
});
