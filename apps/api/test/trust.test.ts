/*
 * Issue «Trust under attack», defects 1–6, each as found: an API key reaching its owner's company-less
 * objects, `GET /me` through a key, unstorable text, ids past the column, malformed multipart, and
 * errors raised below the router — all in the API's error shape with a Russian message.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, createUser, ORIGIN, setupApp, signedIn, type TestContext } from './helpers';
import { multipart, upload } from './imports-kit';

let ctx: TestContext;
let staff: Client;
let A: { id: number };
let B: { id: number };
let keyA: Record<string, string>;
let keyId: number;

const CYRILLIC = /[а-яё]/i;
function expectShape(r: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(r.statusCode, r.body).toBe(status);
  const b = r.json() as { statusCode: number; statusMessage: string; message: string };
  expect(b.statusCode).toBe(status);
  expect(typeof b.statusMessage).toBe('string');
  expect(b.message).toMatch(CYRILLIC);
}

async function asKey(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...keyA, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}

const count = async (table: string) =>
  Number(((await ctx.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))).rows[0] as { n: number }).n);

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  staff = await signedIn(ctx, 'owner@forpost.test', 'SUPER_ADMIN');
  const k = await staff.post('/apikeys', {
    name: 'Сборщик Альфы',
    company_id: A.id,
    roles: [{ module: '*', access: 'write' }],
  });
  expect(k.statusCode, k.body).toBe(201);
  keyA = { authorization: `Bearer ${k.json().secret}` };
  keyId = k.json().id;
});

describe('1. an API key reaches only its company, never its owner’s company-less objects', () => {
  it('a file its staff owner uploaded without a company: 404 to the key (content, metadata, rename, delete)', async () => {
    const { payload, contentType } = multipart({ kind: 'sample' }, { name: 'b.txt', content: 'секрет Беты', type: 'text/plain' });
    const up = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/docs',
      headers: {
        cookie: [...staff.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        origin: ORIGIN,
        'content-type': contentType,
      },
      payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const doc = up.json() as { id: number; company_id: number | null };
    expect(doc.company_id).toBeNull();
    for (const [method, url, body] of [
      ['GET', `/docs/${doc.id}/content`],
      ['GET', `/docs/${doc.id}`],
      ['PATCH', `/docs/${doc.id}`, { name: 'x.txt' }],
      ['DELETE', `/docs/${doc.id}`],
    ] as const) {
      expectShape(await asKey(method, url, body), 404);
    }
    // The owner still reaches it.
    expect((await staff.get(`/docs/${doc.id}/content`)).statusCode).toBe(200);
  });

  it("a draft import the owner uploaded for B or without a company: the key can't read, delete or start it", async () => {
    const csv = 'Домен;Заголовок\nb-evil.ru;Бета\n';
    for (const fields of [{ company_id: String(B.id) }, {}] as Record<string, string>[]) {
      const up = await upload(ctx, staff, '/modules/domains/events/imports', { name: 'b.csv', content: csv }, fields);
      expect(up.statusCode, up.body).toBe(201);
      const id = up.json().id as number;
      expectShape(await asKey('GET', `/modules/domains/events/imports/${id}`), 404);
      expectShape(await asKey('POST', `/modules/domains/events/imports/${id}/start`, { mapping: ['domain', 'title'] }), 404);
      expectShape(await asKey('DELETE', `/modules/domains/events/imports/${id}`), 404);
      const list = (await asKey('GET', '/modules/domains/events/imports')).json() as { items: { id: number }[] };
      expect(list.items.map((x) => x.id)).not.toContain(id);
      // Still there, untouched.
      const [row] = (await ctx.database.db.execute(sql`SELECT status FROM imports WHERE id = ${id}`)).rows as {
        status: string;
      }[];
      expect(row?.status).toBe('uploaded');
    }
  });

  it('what a key uploads belongs to its company from the first byte (import files and documents)', async () => {
    const { payload, contentType } = multipart({}, { name: 'a.csv', content: 'Домен;Заголовок\na.ru;А\n' });
    const imp = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/modules/domains/events/imports',
      headers: { ...keyA, 'content-type': contentType },
      payload,
    });
    expect(imp.statusCode, imp.body).toBe(201);
    expect(imp.json().company_id).toBe(A.id);
    const [doc] = (
      await ctx.database.db.execute(
        sql`SELECT d.company_id FROM imports i JOIN docs d ON d.id = i.doc_id WHERE i.id = ${imp.json().id}`,
      )
    ).rows as { company_id: number }[];
    expect(doc?.company_id).toBe(A.id);

    const sample = multipart({ kind: 'sample' }, { name: 'a.txt', content: 'x', type: 'text/plain' });
    const d = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/docs',
      headers: { ...keyA, 'content-type': sample.contentType },
      payload: sample.payload,
    });
    expect(d.statusCode, d.body).toBe(201);
    expect(d.json().company_id).toBe(A.id);
    // An avatar is personal: a key makes none.
    const avatar = multipart(
      { kind: 'avatar' },
      { name: 'a.png', content: Buffer.from('89504e470d0a1a0a', 'hex'), type: 'image/png' },
    );
    expectShape(
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/docs',
        headers: { ...keyA, 'content-type': avatar.contentType },
        payload: avatar.payload,
      }),
      403,
    );
  });
});

describe('2. GET /me through a key: the key itself, never its owner', () => {
  it('answers the key’s name, company, roles and expiry; no email, role, IPs or other companies', async () => {
    const r = await asKey('GET', '/me');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({
      kind: 'api_key',
      id: keyId,
      name: 'Сборщик Альфы',
      company: { id: A.id, name: 'Альфа' },
      roles: [{ module: '*', access: 'write' }],
      collector: false,
      expires_at: null,
    });
    expect(r.body).not.toContain('owner@forpost.test');
    expect(r.body).not.toContain('Бета');
  });

  it("the owner's profile, password, second factor, sessions and activation are not for keys (403)", async () => {
    for (const [method, url, body] of [
      ['PATCH', '/me', { name: 'Взлом' }],
      ['POST', '/me/2fa/setup', {}],
      ['POST', '/me/2fa/disable', { password: 'x' }],
      ['GET', '/me/sessions'],
      ['DELETE', '/me/sessions'],
      ['GET', '/companies/activation/list'],
    ] as const) {
      const r = await asKey(method, url, body);
      expectShape(r, 403);
      expect(r.json().message).toBe('Недоступно для API-ключа: войдите в консоль');
    }
    const me = (await staff.get('/me')).json() as { name: string };
    expect(me.name).not.toBe('Взлом');
  });
});

describe('3. text PostgreSQL cannot store is refused, and nothing is half-written', () => {
  it('a lone surrogate or NUL in a name: 400 with the field, no row and no audit entry', async () => {
    for (const name of ['\udc00', 'Альфа\u0000Бета', 'a\ud800']) {
      const companies = await count('companies');
      const audit = await count('audit_log');
      const r = await staff.post('/companies', { name });
      expectShape(r, 400);
      expect(r.json().data.fields).toEqual({ name: expect.stringMatching(CYRILLIC) });
      expect(r.body).not.toContain('\\u0000');
      expect(await count('companies')).toBe(companies);
      expect(await count('audit_log')).toBe(audit);
    }
    // Deep in a body, in an object key, in the query string and through a key: the same rule.
    expectShape(await staff.post('/tags', { name: 'ok', color: '#112233', extra: { ['k\u0000']: 1 } }), 400);
    expectShape(await staff.get('/companies?q=%00'), 400);
    expectShape(await asKey('POST', '/modules/domains/events', { title: 'x\udc00', domain: 'a.ru' }), 400);
    // A well-formed pair (an emoji) is fine.
    const ok = await staff.post('/companies', { name: 'Смайл 😀' });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('4. ids past what a column holds are refused, not 500', () => {
  it('2^31, 2^53 and junk on docs, exports, imports, allowlist, product keys, whitelist', async () => {
    const urls = [
      '/docs/ID',
      '/docs/ID/content',
      '/modules/exports/ID',
      '/modules/exports/ID/download',
      '/modules/domains/events/imports/ID',
      '/modules/domains/allowlist/ID',
      `/companies/${A.id}/whitelist/ID`,
      '/notifications/mailings/ID',
      '/tags/ID',
    ];
    for (const id of ['2147483648', '9007199254740991', '9007199254740993', '-1', '0', 'abc']) {
      for (const u of urls) {
        const r = await staff.get(u.replace('ID', id));
        expect([400, 404], `${u} ${id}: ${r.body}`).toContain(r.statusCode);
        expectShape(r, r.statusCode);
      }
      for (const u of ['/docs/ID', '/modules/exports/ID', '/modules/domains/allowlist/ID', `/companies/${A.id}/keys/ID`]) {
        const r = await staff.del(u.replace('ID', id));
        expect([400, 404], `${u} ${id}: ${r.body}`).toContain(r.statusCode);
      }
    }
    // Body ids too.
    expectShape(await staff.post('/apikeys', { name: 'k', company_id: 2 ** 31, roles: [] }), 400);
    expectShape(await staff.post('/comments', { event_id: 2 ** 53, text: 'x' }), 400);
  });
});

describe('5. malformed multipart is 400, not 500', () => {
  it('no boundary, a truncated body, garbage: on /docs and an import upload', async () => {
    const cookie = [...staff.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const good = multipart({ kind: 'sample' }, { name: 'a.txt', content: 'x'.repeat(5000), type: 'text/plain' });
    const bodies: [string, Buffer][] = [
      ['multipart/form-data', good.payload],
      [good.contentType, good.payload.subarray(0, 200)],
      [good.contentType, Buffer.from('это не multipart')],
      ['multipart/form-data; boundary=', good.payload],
    ];
    for (const url of ['/api/v1/docs', '/api/v1/modules/domains/events/imports', '/api/v1/modules/media/events/imports']) {
      for (const [contentType, payload] of bodies) {
        const r = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { cookie, origin: ORIGIN, 'content-type': contentType },
          payload,
        });
        expect([400, 413], `${url} ${contentType} ${payload.length}: ${r.body}`).toContain(r.statusCode);
        expectShape(r, r.statusCode);
      }
    }
  });
});

describe('6. errors below the router keep the error shape', () => {
  let base: string;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  const raw = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}${path}`, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('an invalid percent-encoding: 400, Russian, the path not echoed', async () => {
    const r = await raw('/api/v1/%C0%AE');
    expect(r.status).toBe(400);
    const b = JSON.parse(r.body);
    expect(b).toMatchObject({ statusCode: 400, message: expect.stringMatching(CYRILLIC) });
    expect(r.body).not.toContain('%C0');
  });

  it('a URL over the header limit: 431 in the error shape, nothing echoed', async () => {
    const r = await raw(`/api/v1/companies?q=${'я'.repeat(9000)}`);
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toMatchObject({ statusCode: 431, message: expect.stringMatching(CYRILLIC) });
    expect(r.body.length).toBeLessThan(300);
  });
});

describe('found by the fuzz suite at 100 cases per operation', () => {
  it('a company named twice in a new user’s memberships (or a user twice among members): 400 at the repeat, not 500', async () => {
    const users = await count('users');
    const r = await staff.post('/users', {
      email: 'twice@forpost.test',
      name: 'Дважды',
      role: 'COMPANY_USER',
      companies: [
        { company_id: A.id, role: 'COMPANY_VIEWER' },
        { company_id: B.id, role: 'COMPANY_VIEWER' },
        { company_id: A.id, role: 'COMPANY_ADMIN' },
      ],
      password_mode: 'generate',
    });
    expectShape(r, 400);
    expect(r.json().data.fields).toEqual({ 'companies.2.company_id': 'Компания указана дважды' });
    expect(await count('users')).toBe(users);
    const u = await createUser(ctx, { email: 'member@forpost.test', role: 'COMPANY_USER' });
    const m = await staff.patch(`/companies/${A.id}`, {
      members: [
        { user_id: u.id, role: 'COMPANY_VIEWER' },
        { user_id: u.id, role: 'COMPANY_ADMIN' },
      ],
    });
    expectShape(m, 400);
    expect(m.json().data.fields).toEqual({ 'members.1.user_id': 'Пользователь указан дважды' });
  });
});
