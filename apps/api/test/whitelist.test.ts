import { MSG } from '@forpost/contract/messages';
import { canonicalIp, detectWhitelistType, normaliseWhitelistValue, WHITELIST_MSG } from '@forpost/contract/whitelist';
import { and, eq, isNull, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, whitelistItems } from '../src/db/schema/index';
import { domainSuffixes, subjectCandidates, urlPrefixes } from '../src/modules/whitelist/whitelist.match';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let A: { id: number };
let B: { id: number };
let sa: Client;
let adminA: Client;
let analystA: Client;
let viewerA: Client;
let staffAnalyst: Client;
let staffViewer: Client;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  adminA = await signedIn(ctx, 'admin-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
  analystA = await signedIn(ctx, 'analyst-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  viewerA = await signedIn(ctx, 'viewer-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
  staffAnalyst = await signedIn(ctx, 'analyst@forpost.test', 'ANALYST');
  staffViewer = await signedIn(ctx, 'viewer@forpost.test', 'VIEWER');
});

const wl = (company: number | 'global') => `/companies/${company}/whitelist`;

describe('whitelist: values are validated and normalised', () => {
  it('canonical IPs', () => {
    expect(canonicalIp('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(canonicalIp('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(canonicalIp('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(canonicalIp('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalIp('1:0:0:1:0:0:0:1')).toBe('1:0:0:1::1');
    expect(canonicalIp('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(canonicalIp('10.0.0.256')).toBeNull();
    expect(canonicalIp('10.0.0.0/33')).toBeNull();
  });

  it('detects the type of a pasted line', () => {
    expect(detectWhitelistType('10.0.0.0/8')).toBe('ip');
    expect(detectWhitelistType('999.1.1.1')).toBe('ip');
    expect(detectWhitelistType('2001:db8::/32')).toBe('ip');
    expect(detectWhitelistType('https://alfa.ru/login')).toBe('url');
    expect(detectWhitelistType('alfa.ru/login')).toBe('url');
    expect(detectWhitelistType('ceo@alfa.ru')).toBe('email');
    expect(detectWhitelistType('7707083893')).toBe('inn');
    expect(detectWhitelistType('пример.рф')).toBe('domain');
    expect(detectWhitelistType('ООО «Ромашка»')).toBe('name');
  });

  it('normalises for comparison', () => {
    expect(normaliseWhitelistValue('domain', ' Пример.РФ. ')).toEqual({
      ok: true,
      value: 'пример.рф',
      key: 'xn--e1afmkfd.xn--p1ai',
    });
    expect(normaliseWhitelistValue('url', 'HTTPS://Alfa.RU/Login/#x')).toMatchObject({ ok: true, key: 'alfa.ru/Login' });
    expect(normaliseWhitelistValue('name', ' ООО  «Ёлка» ')).toMatchObject({ ok: true, value: 'ООО «Ёлка»', key: 'ооо елка' });
    expect(normaliseWhitelistValue('inn', '7707083893')).toMatchObject({ ok: true });
    expect(normaliseWhitelistValue('inn', '7707083894')).toEqual({ ok: false, error: MSG.inn });
  });

  it('matching candidates', () => {
    expect(domainSuffixes('a.b.Alfa.ru')).toEqual(['a.b.alfa.ru', 'b.alfa.ru', 'alfa.ru']);
    expect(urlPrefixes('https://ex.com/a/b?x=1')).toEqual(['ex.com/a/b?x=1', 'ex.com/a/b', 'ex.com/a', 'ex.com']);
    const c = subjectCandidates({ url: 'https://shop.alfa.ru/x', ip: '::ffff:10.1.2.3', email: 'CEO@Alfa.ru', name: '«Ёлка»' });
    expect(c.domain).toEqual(['shop.alfa.ru', 'alfa.ru']);
    expect(c.ip).toBe('10.1.2.3');
    expect(c.email).toEqual(['ceo@alfa.ru']);
    expect(c.name).toEqual(['елка']);
    expect(subjectCandidates({ ip: '10.0.0.0/8' }).ip).toBeNull();
  });
});

describe('whitelist: permissions and tenant scope', () => {
  it('a COMPANY_ADMIN manages their own company’s whitelist', async () => {
    const c = await adminA.post(wl(A.id), {
      type: 'domain',
      value: 'Alfa-Bank.ru',
      kind: 'whitelistClient',
      comment: 'Основной домен',
    });
    expect(c.statusCode).toBe(201);
    const item = c.json();
    expect(item).toMatchObject({
      company_id: A.id,
      type: 'domain',
      value: 'alfa-bank.ru',
      kind: 'whitelistClient',
      comment: 'Основной домен',
      is_expired: false,
      expires_at: null,
    });
    expect(item.created_by.name).toBeTruthy();
    expect((await adminA.get(`${wl(A.id)}/${item.id}`)).json()).toEqual(item);
    const list = await adminA.get(wl(A.id));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, page: 1, page_size: 20 });
    const p = await adminA.patch(`${wl(A.id)}/${item.id}`, { kind: 'whitelistPartner', comment: '' });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toMatchObject({ kind: 'whitelistPartner', comment: null, value: 'alfa-bank.ru' });
    expect((await adminA.del(`${wl(A.id)}/${item.id}`)).statusCode).toBe(204);
    expect((await adminA.get(`${wl(A.id)}/${item.id}`)).statusCode).toBe(404);
    const actions = (
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'whitelist_item'), eq(auditLog.entityId, String(item.id))))
    ).map((a) => a.action);
    expect(actions).toEqual(['whitelist.create', 'whitelist.update', 'whitelist.delete']);
  });

  it('…and never reads, changes or counts another company’s (404)', async () => {
    const bItem = (await sa.post(wl(B.id), { type: 'domain', value: 'beta.ru' })).json();
    for (const r of [
      await adminA.get(wl(B.id)),
      await adminA.post(wl(B.id), { type: 'domain', value: 'x-beta.ru' }),
      await adminA.post(`${wl(B.id)}/bulk`, { text: 'y-beta.ru' }),
      await adminA.get(`${wl(B.id)}/${bItem.id}`),
      await adminA.patch(`${wl(B.id)}/${bItem.id}`, { comment: 'взлом' }),
      await adminA.del(`${wl(B.id)}/${bItem.id}`),
      // B's entry addressed through A's list is not found either.
      await adminA.get(`${wl(A.id)}/${bItem.id}`),
      await adminA.patch(`${wl(A.id)}/${bItem.id}`, { comment: 'взлом' }),
      await adminA.del(`${wl(A.id)}/${bItem.id}`),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toMatch(/не найден/);
    }
    const [row] = await ctx.database.db.select().from(whitelistItems).where(eq(whitelistItems.id, bItem.id));
    expect(row?.comment).toBeNull();
    expect((await sa.get(wl(999_999))).statusCode).toBe(404);
  });

  it('company analysts read, company viewers do not; staff analysts manage company lists', async () => {
    expect((await analystA.get(wl(A.id))).statusCode).toBe(200);
    expect((await analystA.post(wl(A.id), { type: 'domain', value: 'a1.ru' })).statusCode).toBe(403);
    expect((await viewerA.get(wl(A.id))).statusCode).toBe(403);
    expect((await staffViewer.get(wl(B.id))).statusCode).toBe(200);
    expect((await staffViewer.post(wl(B.id), { type: 'domain', value: 'a2.ru' })).statusCode).toBe(403);
    expect((await staffAnalyst.post(wl(B.id), { type: 'domain', value: 'a3.ru' })).statusCode).toBe(201);
  });

  it('the global list: staff read it, only admins change it, company users never see it', async () => {
    const created = await sa.post(wl('global'), { type: 'domain', value: 'gosuslugi.ru', kind: 'whitelistPartner' });
    expect(created.statusCode).toBe(201);
    expect(created.json().company_id).toBeNull();
    const admin = await signedIn(ctx, 'staff-admin@forpost.test', 'ADMIN');
    expect((await admin.post(wl('global'), { type: 'domain', value: 'nalog.ru' })).statusCode).toBe(201);
    expect((await staffAnalyst.get(wl('global'))).json().total).toBe(2);
    expect((await staffAnalyst.post(wl('global'), { type: 'domain', value: 'mos.ru' })).statusCode).toBe(403);
    expect((await staffAnalyst.patch(`${wl('global')}/${created.json().id}`, { comment: 'x' })).statusCode).toBe(403);
    for (const c of [adminA, analystA, viewerA]) {
      expect((await c.get(wl('global'))).statusCode).toBe(403);
      expect((await c.get(`${wl('global')}/${created.json().id}`)).statusCode).toBe(403);
      expect((await c.post(wl('global'), { type: 'domain', value: 'mos.ru' })).statusCode).toBe(403);
    }
    // A company entry is not reachable through the global path and vice versa.
    const a = (await adminA.post(wl(A.id), { type: 'domain', value: 'only-a.ru' })).json();
    expect((await sa.get(`${wl('global')}/${a.id}`)).statusCode).toBe(404);
    expect((await sa.get(`${wl(A.id)}/${created.json().id}`)).statusCode).toBe(404);
  });
});

describe('whitelist: bad input and duplicates', () => {
  it.each([
    ['ip', '999.1.1.1', MSG.ip],
    ['ip', '10.0.0.0/33', MSG.ip],
    ['ip', '10.0.0.1 ', null],
    ['ip', '2001:db8::g', MSG.ip],
    ['domain', 'exa mple.com', MSG.domain],
    ['domain', 'localhost', MSG.domain],
    ['url', 'htp://alfa.ru', MSG.url],
    ['url', 'alfa.ru/login', MSG.url],
    ['email', 'a@b', MSG.email],
    ['inn', '1234567890', MSG.inn],
    ['name', '12345', WHITELIST_MSG.name],
    ['domain', '', MSG.required],
  ])('%s %j', async (type, value, message) => {
    const r = await adminA.post(wl(A.id), { type, value });
    if (message === null) {
      expect(r.statusCode).toBe(201);
      return;
    }
    expect(r.statusCode).toBe(400);
    expect(r.json().data.fields.value).toBe(message);
    expect(r.json().message).toBe(message);
  });

  it('refuses unknown types and kinds, bad dates and extra fields', async () => {
    expect((await adminA.post(wl(A.id), { type: 'phone', value: '+7999' })).statusCode).toBe(400);
    expect((await adminA.post(wl(A.id), { type: 'domain', value: 'k.ru', kind: 'friend' })).statusCode).toBe(400);
    expect(
      (await adminA.post(wl(A.id), { type: 'domain', value: 'k.ru', expires_at: 'завтра' })).json().data.fields.expires_at,
    ).toBe('Неверная дата');
    expect((await adminA.post(wl(A.id), { type: 'domain', value: 'k.ru', company_id: B.id })).statusCode).toBe(400);
  });

  it('a duplicate is a Russian 409, however it is spelled; other lists may hold the same value', async () => {
    expect((await adminA.post(wl(A.id), { type: 'domain', value: 'Dup.RU' })).statusCode).toBe(201);
    for (const value of ['dup.ru', 'DUP.ru.', ' dup.ru ']) {
      const r = await adminA.post(wl(A.id), { type: 'domain', value });
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(WHITELIST_MSG.duplicate);
    }
    expect((await adminA.post(wl(A.id), { type: 'ip', value: '2001:DB8::1' })).statusCode).toBe(201);
    expect((await adminA.post(wl(A.id), { type: 'ip', value: '2001:db8:0:0::1' })).statusCode).toBe(409);
    expect((await adminA.post(wl(A.id), { type: 'domain', value: 'пример.рф' })).statusCode).toBe(201);
    expect((await adminA.post(wl(A.id), { type: 'domain', value: 'xn--e1afmkfd.xn--p1ai' })).statusCode).toBe(409);
    expect((await sa.post(wl(B.id), { type: 'domain', value: 'dup.ru' })).statusCode).toBe(201);
    expect((await sa.post(wl('global'), { type: 'domain', value: 'dup.ru' })).statusCode).toBe(201);
    expect((await sa.post(wl('global'), { type: 'domain', value: 'dup.ru' })).statusCode).toBe(409);
    // Editing into a duplicate is refused too.
    const other = (await adminA.post(wl(A.id), { type: 'domain', value: 'other-dup.ru' })).json();
    const r = await adminA.patch(`${wl(A.id)}/${other.id}`, { value: 'dup.ru' });
    expect(r.statusCode).toBe(409);
  });

  it('changing the type re-validates the value', async () => {
    const item = (await adminA.post(wl(A.id), { type: 'domain', value: 'retype.ru' })).json();
    const r = await adminA.patch(`${wl(A.id)}/${item.id}`, { type: 'ip' });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(MSG.ip);
    const ok = await adminA.patch(`${wl(A.id)}/${item.id}`, { type: 'ip', value: '192.168.0.0/16' });
    expect(ok.json()).toMatchObject({ type: 'ip', value: '192.168.0.0/16' });
  });
});

describe('whitelist: bulk paste', () => {
  const text = [
    'bulk-one.ru',
    '',
    '10.20.0.0/16',
    'bad..domain',
    'https://evil.bulk.ru/path',
    'ceo@bulk.ru',
    '7707083893',
    'ООО «Ромашка»',
    'BULK-ONE.ru',
    '999.1.1.1',
    'dup.ru',
    '   ',
    '7707083894',
  ].join('\r\n');

  it('reports every line, saves the valid new ones, and nothing twice', async () => {
    const r = await adminA.post(`${wl(A.id)}/bulk`, { text, kind: 'whitelistClient', comment: 'Вставка' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.items.map((i: { line: number; ok: boolean; type: string }) => [i.line, i.type, i.ok])).toEqual([
      [1, 'domain', true],
      [3, 'ip', true],
      [4, 'domain', false],
      [5, 'url', true],
      [6, 'email', true],
      [7, 'inn', true],
      [8, 'name', true],
      [9, 'domain', false],
      [10, 'ip', false],
      [11, 'domain', false],
      [13, 'inn', false],
    ]);
    const errors = Object.fromEntries(
      body.items.filter((i: { ok: boolean }) => !i.ok).map((i: { line: number; error: string }) => [i.line, i.error]),
    );
    expect(errors).toEqual({
      4: MSG.domain,
      9: WHITELIST_MSG.duplicateInText,
      10: MSG.ip,
      11: WHITELIST_MSG.duplicate,
      13: MSG.inn,
    });
    expect(body.created).toBe(6);
    expect(body.failed).toBe(5);
    for (const i of body.items.filter((x: { ok: boolean }) => x.ok)) expect(i.id).toEqual(expect.any(Number));
    const saved = await ctx.database.db
      .select()
      .from(whitelistItems)
      .where(and(eq(whitelistItems.companyId, A.id), eq(whitelistItems.comment, 'Вставка')));
    expect(saved).toHaveLength(6);
    expect(saved.every((s) => s.kind === 'whitelistClient')).toBe(true);

    const again = (await adminA.post(`${wl(A.id)}/bulk`, { text })).json();
    expect(again.created).toBe(0);
    expect(again.items.filter((i: { error?: string }) => i.error === WHITELIST_MSG.duplicate)).toHaveLength(7);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'whitelist.bulk_create'));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.meta).toMatchObject({ created: 6 });
  });

  it('a given type applies to every line', async () => {
    const r = (await sa.post(`${wl('global')}/bulk`, { text: 'typed.ru\n10.0.0.1', type: 'domain' })).json();
    expect(r.items).toEqual([
      { line: 1, value: 'typed.ru', type: 'domain', ok: true, id: expect.any(Number) },
      { line: 2, value: '10.0.0.1', type: 'domain', ok: false, error: MSG.domain },
    ]);
    const g = await ctx.database.db
      .select()
      .from(whitelistItems)
      .where(and(isNull(whitelistItems.companyId), like(whitelistItems.value, 'typed%')));
    expect(g).toHaveLength(1);
  });

  it('refuses an empty paste and too many lines', async () => {
    expect((await adminA.post(`${wl(A.id)}/bulk`, { text: ' \n \n' })).json().message).toBe(WHITELIST_MSG.emptyText);
    const many = Array.from({ length: 5001 }, (_, i) => `h${i}.ru`).join('\n');
    const r = await adminA.post(`${wl(A.id)}/bulk`, { text: many });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(WHITELIST_MSG.tooManyLines(5000));
  });
});

describe('whitelist: list filters', () => {
  it('filters by type, kind, text and expiry; sorts', async () => {
    const past = new Date(Date.now() - 3600_000).toISOString();
    const exp = (await adminA.post(wl(A.id), { type: 'domain', value: 'expired-list.ru', expires_at: past })).json();
    expect(exp.is_expired).toBe(true);
    const onlyExpired = (await adminA.get(`${wl(A.id)}?expired=true`)).json();
    expect(onlyExpired.items.map((i: { id: number }) => i.id)).toEqual([exp.id]);
    const live = (await adminA.get(`${wl(A.id)}?expired=false&page_size=500`)).json();
    expect(live.items.map((i: { id: number }) => i.id)).not.toContain(exp.id);
    const ips = (await adminA.get(`${wl(A.id)}?type=ip&sort=value`)).json();
    expect(ips.items.every((i: { type: string }) => i.type === 'ip')).toBe(true);
    const values = ips.items.map((i: { value: string }) => i.value);
    expect(values).toEqual([...values].sort());
    expect((await adminA.get(`${wl(A.id)}?q=ромашк`)).json().total).toBe(1);
    expect((await adminA.get(`${wl(A.id)}?kind=whitelistClient`)).json().total).toBe(6);
    expect((await adminA.get(`${wl(A.id)}?page_size=501`)).statusCode).toBe(400);
    expect((await adminA.get(`${wl(A.id)}?sort=password`)).statusCode).toBe(400);
  });
});

describe('whitelistKindFor', () => {
  it('company entries first, then global; subdomains, URLs, CIDRs, e-mail, ИНН and names; expired ignored', async () => {
    const kindFor = ctx.app.services.whitelist.whitelistKindFor;
    const C = await createCompany(ctx, 'Гамма');
    const D = await createCompany(ctx, 'Дельта');
    const add = (company: number | 'global', body: object) =>
      sa.post(wl(company), body).then((r) => expect(r.statusCode).toBe(201));
    await add(C.id, { type: 'domain', value: 'gamma.ru', kind: 'whitelistClient' });
    await add('global', { type: 'domain', value: 'gamma.ru', kind: 'whitelistPartner' });
    await add(C.id, { type: 'ip', value: '10.0.0.0/8', kind: 'whitelistClient' });
    await add(C.id, { type: 'ip', value: '2001:db8::/32', kind: 'whitelistPartner' });
    await add(C.id, { type: 'url', value: 'https://phish.example/login', kind: 'undefined' });
    await add(C.id, { type: 'email', value: 'CEO@gamma-corp.ru', kind: 'whitelistClient' });
    await add(C.id, { type: 'inn', value: '7707083893', kind: 'whitelistPartner' });
    await add(C.id, { type: 'name', value: 'ООО «Ёлка»', kind: 'whitelistClient' });
    await add(C.id, {
      type: 'domain',
      value: 'old.ru',
      kind: 'whitelistClient',
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    await add(C.id, {
      type: 'domain',
      value: 'later.ru',
      kind: 'whitelistClient',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });

    expect(await kindFor(C.id, { domain: 'gamma.ru' })).toBe('whitelistClient');
    expect(await kindFor(D.id, { domain: 'gamma.ru' })).toBe('whitelistPartner');
    expect(await kindFor(C.id, { domain: 'mail.GAMMA.ru' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { domain: 'notgamma.ru' })).toBeNull();
    expect(await kindFor(C.id, { domain: 'gamma.ru.evil.com' })).toBeNull();
    expect(await kindFor(C.id, { url: 'https://shop.gamma.ru/cart' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { ip: '10.1.2.3' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { ip: '::ffff:10.1.2.3' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { ip: '11.0.0.1' })).toBeNull();
    expect(await kindFor(C.id, { ip: '2001:db8:1::5' })).toBe('whitelistPartner');
    expect(await kindFor(C.id, { ip: 'garbage' })).toBeNull();
    expect(await kindFor(C.id, { url: 'https://phish.example/login/step2?x=1' })).toBe('undefined');
    expect(await kindFor(C.id, { url: 'https://phish.example/other' })).toBeNull();
    expect(await kindFor(C.id, { email: 'ceo@Gamma-Corp.ru' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { email: 'cfo@gamma-corp.ru' })).toBeNull();
    expect(await kindFor(C.id, { inn: '7707083893' })).toBe('whitelistPartner');
    expect(await kindFor(C.id, { name: 'ооо елка' })).toBe('whitelistClient');
    expect(await kindFor(C.id, { domain: 'old.ru' })).toBeNull();
    expect(await kindFor(C.id, { domain: 'later.ru' })).toBe('whitelistClient');
    expect(await kindFor(C.id, {})).toBeNull();
    // Another company's entries never apply.
    expect(await kindFor(D.id, { ip: '10.1.2.3' })).toBeNull();
    expect(await kindFor(D.id, { inn: '7707083893' })).toBeNull();
  });
});

describe('whitelist ↔ events', () => {
  const idle = () => ctx.app.services.whitelist.remarker?.idle();
  const kindOf = async (module: string, id: number) => (await sa.get(`/modules/${module}/events/${id}`)).json().whitelist_kind;

  it('a new event gets the kind of a matching entry; entries added or removed re-mark existing events', async () => {
    const E = await createCompany(ctx, 'Эпсилон');
    const Z = await createCompany(ctx, 'Зета');
    const mk = async (company_id: number, module: string, body: object) => {
      const r = await sa.post(`/modules/${module}/events`, { company_id, ...body });
      expect(r.statusCode, r.body).toBe(201);
      return r.json();
    };
    const phish = await mk(E.id, 'domains', { domain: 'login.epsilon-bank.ru' });
    const other = await mk(E.id, 'domains', { domain: 'other-site.ru', ip: '10.9.8.7' });
    const firm = await mk(E.id, 'firms', { firm_name: 'ООО «Эпсилон Партнёр»', inn: '7707083893' });
    const foreign = await mk(Z.id, 'domains', { domain: 'login.epsilon-bank.ru' });
    expect(phish.whitelist_kind).toBeNull();

    const entry = (await sa.post(wl(E.id), { type: 'domain', value: 'epsilon-bank.ru', kind: 'whitelistClient' })).json();
    await idle();
    expect(await kindOf('domains', phish.id)).toBe('whitelistClient');
    expect(await kindOf('domains', other.id)).toBeNull();
    expect(await kindOf('domains', foreign.id)).toBeNull();
    // A new event is marked at creation (the event engine's hook).
    expect((await mk(E.id, 'domains', { domain: 'pay.epsilon-bank.ru' })).whitelist_kind).toBe('whitelistClient');

    await sa.post(wl(E.id), { type: 'ip', value: '10.9.0.0/16', kind: 'whitelistPartner' });
    await sa.post(wl(E.id), { type: 'inn', value: '7707083893', kind: 'whitelistPartner' });
    await idle();
    expect(await kindOf('domains', other.id)).toBe('whitelistPartner');
    expect(await kindOf('firms', firm.id)).toBe('whitelistPartner');

    expect((await sa.del(`${wl(E.id)}/${entry.id}`)).statusCode).toBe(204);
    await idle();
    expect(await kindOf('domains', phish.id)).toBeNull();

    // A global entry re-marks every company's events.
    const g = (await sa.post(wl('global'), { type: 'domain', value: 'epsilon-bank.ru', kind: 'whitelistPartner' })).json();
    await idle();
    expect(await kindOf('domains', phish.id)).toBe('whitelistPartner');
    expect(await kindOf('domains', foreign.id)).toBe('whitelistPartner');
    // Bulk additions and edits re-mark too.
    await sa.patch(`${wl('global')}/${g.id}`, { kind: 'whitelistClient' });
    await idle();
    expect(await kindOf('domains', foreign.id)).toBe('whitelistClient');
    await sa.post(`${wl(Z.id)}/bulk`, { text: 'login.epsilon-bank.ru', kind: 'undefined' });
    await idle();
    expect(await kindOf('domains', foreign.id)).toBe('undefined');
  });

  it('an entry that expires stops applying: the sweep re-marks its events once, a new expiry is swept again', async () => {
    const H = await createCompany(ctx, 'Срок-Тест');
    const ev = (await sa.post('/modules/domains/events', { company_id: H.id, domain: 'pay.eta-bank.ru' })).json();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const entry = (
      await sa.post(wl(H.id), { type: 'domain', value: 'eta-bank.ru', kind: 'whitelistClient', expires_at: future })
    ).json();
    await idle();
    expect(await kindOf('domains', ev.id)).toBe('whitelistClient');
    const sweep = ctx.app.services.whitelist.sweepExpired;
    await sweep(); // entries of earlier tests that are already past their expiry
    await idle();
    // Not expired yet: nothing to sweep, the mark stays.
    expect(await sweep()).toBe(0);
    await idle();
    expect(await kindOf('domains', ev.id)).toBe('whitelistClient');

    // Time passes (the entry's expiry moves into the past): one sweep re-marks, the next has nothing to do.
    const expire = () =>
      ctx.database.db
        .update(whitelistItems)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(whitelistItems.id, entry.id));
    await expire();
    expect(await sweep()).toBe(1);
    await idle();
    expect(await kindOf('domains', ev.id)).toBeNull();
    expect(await sweep()).toBe(0);

    // Extended again through the API: it applies again (the edit re-marks) and its next expiry is swept too.
    expect((await sa.patch(`${wl(H.id)}/${entry.id}`, { expires_at: future })).statusCode).toBe(200);
    await idle();
    expect(await kindOf('domains', ev.id)).toBe('whitelistClient');
    await expire();
    expect(await sweep()).toBe(1);
    await idle();
    expect(await kindOf('domains', ev.id)).toBeNull();
  });

  it('the in-memory matcher used for re-marking agrees with the database query', async () => {
    const { matchIn, subjectOfEvent } = await import('../src/modules/whitelist/whitelist.events');
    expect(subjectOfEvent('domains', { domain: 'a.ru', url: 'https://b.ru/x', ip: '1.2.3.4' })).toEqual({
      domain: 'a.ru',
      url: 'https://b.ru/x',
      ip: '1.2.3.4',
    });
    expect(subjectOfEvent('services', { host: '10.0.0.1' })).toEqual({ ip: '10.0.0.1' });
    expect(subjectOfEvent('services', { host: 'db.alfa.ru' })).toEqual({ domain: 'db.alfa.ru' });
    expect(subjectOfEvent('firms', { firm_name: 'ООО Ёлка', inn: '7707083893' })).toEqual({
      inn: '7707083893',
      name: 'ООО Ёлка',
    });
    const entries = [
      { id: 1, companyId: 5, type: 'ip', matchKey: '10.0.0.0/8', kind: 'whitelistClient' as const },
      { id: 2, companyId: null, type: 'domain', matchKey: 'alfa.ru', kind: 'whitelistPartner' as const },
    ];
    const { subjectCandidates: cands } = await import('../src/modules/whitelist/whitelist.match');
    expect(matchIn(entries, cands({ ip: '::ffff:10.2.3.4' }))).toBe('whitelistClient');
    expect(matchIn(entries, cands({ url: 'https://x.alfa.ru/' }))).toBe('whitelistPartner');
    expect(matchIn(entries, cands({ domain: 'beta.ru' }))).toBeNull();
  });
});

describe('whitelist: bulk matcher for imports', () => {
  it('gives the same answers as the per-event query', async () => {
    const H = await createCompany(ctx, 'Эта');
    await sa.post(wl(H.id), { type: 'domain', value: 'eta.ru', kind: 'whitelistClient' });
    await sa.post(wl(H.id), { type: 'ip', value: '172.16.0.0/12', kind: 'whitelistPartner' });
    await sa.post(wl(H.id), { type: 'url', value: 'https://t.me/eta_official', kind: 'whitelistClient' });
    await sa.post(wl(H.id), { type: 'inn', value: '7707083893', kind: 'undefined' });
    await sa.post(wl(H.id), { type: 'domain', value: 'gone-eta.ru', expires_at: new Date(Date.now() - 1000).toISOString() });
    const svc = ctx.app.services.whitelist;
    const match = await svc.eventMatcher(H.id);
    const cases: [Parameters<typeof match>[0], Record<string, unknown>][] = [
      ['domains', { domain: 'shop.eta.ru' }],
      ['domains', { domain: 'gone-eta.ru' }],
      ['domains', { domain: 'x.ru', ip: '172.20.1.1' }],
      ['services', { host: '172.31.255.255' }],
      ['services', { host: '172.32.0.1' }],
      ['brand', { url: 'https://t.me/eta_official/15' }],
      ['firms', { firm_name: 'ООО Эта', inn: '7707083893' }],
      ['domains', { domain: 'gosuslugi.ru' }],
      ['media', { url: 'https://news.eta.ru/a' }],
    ];
    for (const [module, data] of cases) {
      expect(match(module, data), `${module} ${JSON.stringify(data)}`).toBe(await svc.kindForEvent(H.id, module, data));
    }
    expect(cases.map(([m, d]) => match(m, d))).toEqual([
      'whitelistClient',
      null,
      'whitelistPartner',
      'whitelistPartner',
      null,
      'whitelistClient',
      'undefined',
      // A global entry from an earlier test.
      'whitelistPartner',
      'whitelistClient',
    ]);
  });
});
