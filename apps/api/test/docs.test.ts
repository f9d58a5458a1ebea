/* Documents: multipart upload, content checks (magic bytes), size limits, safe download headers, isolation. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DOC_MSG, DOC_SIZE_LIMITS } from '@forpost/contract/docs';
import { MODULES } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, ORIGIN, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let aUser: Client;
let aViewer: Client;
let bUser: Client;
let A: { id: number };
let B: { id: number };

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(60, 3)]);
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');

/** A multipart/form-data body: fields first, then the file. */
function multipart(fields: Record<string, string | number>, file?: { filename: string; type: string; content: Buffer }) {
  const boundary = `----forpost${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  c: Client,
  fields: Record<string, string | number>,
  file?: { filename: string; type: string; content: Buffer },
  query = '',
) {
  const { payload, contentType } = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/docs${query}`,
    headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: ORIGIN, 'content-type': contentType },
    payload,
  });
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  const as = async (email: string, companies: { id: number; role: 'COMPANY_ANALYST' | 'COMPANY_VIEWER' }[]) => {
    await createUser(ctx, { email, role: 'COMPANY_USER', companies });
    const c = new Client(ctx);
    await c.login(email, ADMIN.password);
    return c;
  };
  aUser = await as('a@forpost.test', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  aViewer = await as('av@forpost.test', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
  bUser = await as('b@forpost.test', [{ id: B.id, role: 'COMPANY_ANALYST' }]);
});

const eventIn = async (company: number, n: number) =>
  (await admin.post('/modules/domains/events', { company_id: company, ...MODULES.domains.sample(n) })).json();

describe('upload', () => {
  it('stores a screenshot of an event; the event lists it; the disk never sees the file name', async () => {
    const ev = await eventIn(A.id, 1);
    const r = await upload(
      aUser,
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'фишинг ../../etc/passwd.png', type: 'image/png', content: PNG },
    );
    expect(r.statusCode, r.body).toBe(201);
    const d = r.json();
    expect(d).toMatchObject({
      kind: 'screenshot',
      mimetype: 'image/png',
      size: PNG.length,
      company_id: A.id,
      event_id: ev.id,
      url: `/api/v1/docs/${d.id}/content`,
    });
    expect(d.name).toBe('passwd.png'); // the client's path is dropped
    expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    const detail = (await aUser.get(`/modules/domains/events/${ev.id}`)).json();
    expect(detail.attachments).toEqual([
      { id: d.id, kind: 'screenshot', name: d.name, mimetype: 'image/png', size: PNG.length, created_at: d.created_at },
    ]);
    const files = path.join(ctx.config.dataDir, 'files');
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const stored = walk(files);
    expect(stored.some((f) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/.test(path.relative(files, f)))).toBe(true);
    expect(stored.some((f) => f.includes('фишинг') || f.includes('passwd'))).toBe(false);
  });

  it('refuses a "png" that is really HTML, and non-images as screenshots or avatars', async () => {
    const ev = await eventIn(A.id, 2);
    for (const [kind, file] of [
      ['screenshot', { filename: 'shot.png', type: 'image/png', content: HTML }],
      ['avatar', { filename: 'me.jpg', type: 'image/jpeg', content: HTML }],
      ['sample', { filename: 'evil.png', type: 'image/png', content: HTML }],
      ['sample', { filename: 'evil.svg', type: 'image/svg+xml', content: Buffer.from('<svg onload="alert(1)"/>') }],
      [
        'screenshot',
        { filename: 'shot.bin', type: 'application/octet-stream', content: Buffer.from('plain text, not an image') },
      ],
    ] as const) {
      const r = await upload(aUser, { kind, ...(kind === 'avatar' ? {} : { event_id: ev.id }) }, file);
      expect(r.statusCode, `${kind} ${file.filename}`).toBe(400);
      expect(r.json().message).toBe(DOC_MSG.notImage);
    }
    expect((await aUser.get(`/modules/domains/events/${ev.id}`)).json().attachments).toEqual([]);
    // Real JPEG and WebP pass; the type comes from the content, not the claim.
    const j = await upload(
      aUser,
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'a.png', type: 'image/png', content: JPEG },
    );
    expect(j.json().mimetype).toBe('image/jpeg');
    const w = await upload(
      aUser,
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'a.webp', type: 'application/octet-stream', content: WEBP },
    );
    expect(w.json().mimetype).toBe('image/webp');
  });

  it('enforces the size limit of each kind', async () => {
    const ev = await eventIn(A.id, 3);
    const big = Buffer.concat([PNG, Buffer.alloc(DOC_SIZE_LIMITS.screenshot - PNG.length + 1)]);
    const r = await upload(
      aUser,
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'big.png', type: 'image/png', content: big },
    );
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toBe(DOC_MSG.tooLarge(DOC_SIZE_LIMITS.screenshot));
    const ok = await upload(
      aUser,
      { kind: 'sample', event_id: ev.id },
      { filename: 'big.bin', type: 'application/octet-stream', content: big },
    );
    expect(ok.statusCode).toBe(201);
    const avatar = await upload(
      aUser,
      { kind: 'avatar' },
      { filename: 'a.png', type: 'image/png', content: Buffer.concat([PNG, Buffer.alloc(DOC_SIZE_LIMITS.avatar)]) },
    );
    expect(avatar.statusCode).toBe(413);
    const sample = await upload(
      aUser,
      { kind: 'sample', event_id: ev.id },
      { filename: 'huge.bin', type: 'application/octet-stream', content: Buffer.alloc(DOC_SIZE_LIMITS.sample + 10) },
    );
    expect(sample.statusCode).toBe(413);
    expect((await aUser.get(`/modules/domains/events/${ev.id}`)).json().attachments).toHaveLength(1);
    const empty = await upload(
      aUser,
      { kind: 'sample', event_id: ev.id },
      { filename: 'e.txt', type: 'text/plain', content: Buffer.alloc(0) },
    );
    expect(empty.json().message).toBe(DOC_MSG.empty);
  });

  it('validates the form: a file is required, the kind must be known', async () => {
    expect((await upload(aUser, { kind: 'sample' })).json().message).toBe(DOC_MSG.noFile);
    expect(
      (await upload(aUser, { kind: 'virus' }, { filename: 'x', type: 'text/plain', content: Buffer.from('x') })).json().message,
    ).toBe(DOC_MSG.badKind);
    expect((await aUser.post('/docs', { kind: 'sample' })).statusCode).toBe(400);
    // Fields may also come in the query string.
    const ev = await eventIn(A.id, 4);
    const q = await upload(
      aUser,
      {},
      { filename: 'report.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.7\n...') },
      `?kind=sample&event_id=${ev.id}`,
    );
    expect(q.statusCode, q.body).toBe(201);
    expect(q.json().mimetype).toBe('application/pdf');
  });
});

describe('download', () => {
  it('sends attachments with nosniff, the exact type and an RFC 6266 name; images inline', async () => {
    const ev = await eventIn(A.id, 10);
    const html = await upload(
      aUser,
      { kind: 'sample', event_id: ev.id },
      { filename: 'страница фишинга.html', type: 'text/html', content: HTML },
    );
    expect(html.statusCode).toBe(201);
    expect(html.json().mimetype).toBe('application/octet-stream');
    const r = await aUser.get(html.json().url);
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.equals(HTML)).toBe(true);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="${'страница фишинга.html'.replace(/[^ -~]/g, '_')}"; filename*=UTF-8''${encodeURIComponent('страница фишинга.html')}`,
    );
    expect(String(r.headers['content-security-policy'])).toContain('sandbox');
    const img = await upload(
      aUser,
      { kind: 'screenshot', event_id: ev.id },
      { filename: 'shot.png', type: 'image/png', content: PNG },
    );
    const ri = await aUser.get(img.json().url);
    expect(ri.headers['content-type']).toBe('image/png');
    expect(String(ri.headers['content-disposition'])).toMatch(/^inline; filename="shot.png"/);
    expect(ri.headers['x-content-type-options']).toBe('nosniff');
    expect(ri.rawPayload.equals(PNG)).toBe(true);
  });
});

describe('access', () => {
  it('another company’s documents are not found; viewers read but cannot change', async () => {
    const evB = await eventIn(B.id, 20);
    const evA = await eventIn(A.id, 21);
    expect(
      (
        await upload(
          aUser,
          { kind: 'sample', event_id: evB.id },
          { filename: 'x.txt', type: 'text/plain', content: Buffer.from('x') },
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await upload(
          aUser,
          { kind: 'sample', company_id: B.id },
          { filename: 'x.txt', type: 'text/plain', content: Buffer.from('x') },
        )
      ).statusCode,
    ).toBe(404);
    const bDoc = (
      await upload(
        bUser,
        { kind: 'sample', event_id: evB.id },
        { filename: 'b.txt', type: 'text/plain', content: Buffer.from('секрет Беты') },
      )
    ).json();
    for (const [method, url, body] of [
      ['GET', `/docs/${bDoc.id}`, undefined],
      ['GET', `/docs/${bDoc.id}/content`, undefined],
      ['PATCH', `/docs/${bDoc.id}`, { name: 'взлом.txt' }],
      ['DELETE', `/docs/${bDoc.id}`, undefined],
    ] as const) {
      const r = await aUser.req(method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.body).not.toContain('секрет');
    }
    expect((await admin.get(`/docs/${bDoc.id}/content`)).body).toBe('секрет Беты');
    const aDoc = (
      await upload(
        aUser,
        { kind: 'sample', event_id: evA.id },
        { filename: 'a.txt', type: 'text/plain', content: Buffer.from('альфа') },
      )
    ).json();
    expect((await aViewer.get(`/docs/${aDoc.id}/content`)).body).toBe('альфа');
    expect((await aViewer.patch(`/docs/${aDoc.id}`, { name: 'b.txt' })).statusCode).toBe(403);
    expect(
      (
        await upload(
          aViewer,
          { kind: 'sample', event_id: evA.id },
          { filename: 'v.txt', type: 'text/plain', content: Buffer.from('v') },
        )
      ).statusCode,
    ).toBe(403);
    const renamed = await aUser.patch(`/docs/${aDoc.id}`, { name: 'Образец письма.txt' });
    expect(renamed.json().name).toBe('Образец письма.txt');
    expect((await aUser.del(`/docs/${aDoc.id}`)).statusCode).toBe(204);
    expect((await aUser.get(`/docs/${aDoc.id}`)).statusCode).toBe(404);
  });

  it('an avatar is its owner’s (and staff’s) only; the profile can check it', async () => {
    const av = await upload(aUser, { kind: 'avatar' }, { filename: 'me.png', type: 'image/png', content: PNG });
    expect(av.statusCode, av.body).toBe(201);
    expect(av.json()).toMatchObject({ company_id: null, event_id: null });
    expect((await aUser.get(av.json().url)).statusCode).toBe(200);
    expect((await aViewer.get(av.json().url)).statusCode).toBe(404);
    expect((await admin.get(av.json().url)).statusCode).toBe(200);
    expect(
      (await upload(aUser, { kind: 'avatar', company_id: A.id }, { filename: 'me.png', type: 'image/png', content: PNG }))
        .statusCode,
    ).toBe(400);
  });

  it('deleting an event deletes its documents and their files', async () => {
    const ev = await eventIn(A.id, 30);
    const d = (
      await upload(
        aUser,
        { kind: 'sample', event_id: ev.id },
        { filename: 'x.bin', type: 'application/octet-stream', content: Buffer.from('bytes') },
      )
    ).json();
    const [row] = (await ctx.database.pool.query('SELECT storage_key FROM docs WHERE id = $1', [d.id])).rows;
    const file = path.join(ctx.config.dataDir, 'files', ...String(row.storage_key).split('/'));
    expect(existsSync(file)).toBe(true);
    expect((await admin.del(`/modules/domains/events/${ev.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/docs/${d.id}`)).statusCode).toBe(404);
    expect(existsSync(file)).toBe(false);
  });
});
