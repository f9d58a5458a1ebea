import { MSG } from '@forpost/contract/messages';
import { normaliseChannel, normalisePhone, TELEGRAM_MSG } from '@forpost/contract/telegram';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, telegramAccounts } from '../src/db/schema/index';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let A: { id: number; name: string };
let B: { id: number; name: string };
let sa: Client;
let admin: Client;
let analyst: Client;
let viewer: Client;
let companyAdmin: Client;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  admin = await signedIn(ctx, 'staff-admin@forpost.test', 'ADMIN');
  analyst = await signedIn(ctx, 'analyst@forpost.test', 'ANALYST');
  viewer = await signedIn(ctx, 'viewer@forpost.test', 'VIEWER');
  companyAdmin = await signedIn(ctx, 'cadmin@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
});

const ACC = '/modules/telegram/accounts';
const CH = '/modules/telegram/channels';

describe('phone and channel normalisation', () => {
  it.each([
    ['+7 (912) 345-67-89', '+79123456789'],
    ['8 912 345 67 89', '+79123456789'],
    ['79123456789', '+79123456789'],
    ['9123456789', '+79123456789'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+7 912 345', null],
    ['12345', null],
    ['+0123456789', null],
    ['+7912345678901', null],
    ['телефон', null],
    ['+7 912 345 67 89 доб. 1', null],
  ])('phone %j → %j', (input, out) => {
    expect(normalisePhone(input)).toBe(out);
  });

  it.each([
    ['https://t.me/Alfa_News', '@alfa_news'],
    ['http://t.me/alfa_news/', '@alfa_news'],
    ['t.me/s/alfa_news', '@alfa_news'],
    ['https://telegram.me/alfa_news', '@alfa_news'],
    ['@Alfa_News', '@alfa_news'],
    ['https://t.me/+AbCdEf123', null],
    ['https://t.me/joinchat/AbCdEf', null],
    ['https://t.me/alfa_news/123', null],
    ['https://example.com/alfa_news', null],
    ['https://t.me.evil.com/alfa_news', null],
    ['@ab', null],
    ['@_alfa', null],
    ['@alfa_', null],
    ['@al__fa', null],
    ['alfa news', null],
    ['alfa_news', null],
  ])('channel %j → %j', (input, out) => {
    expect(normaliseChannel(input)).toBe(out);
  });
});

describe('telegram: access', () => {
  it('staff read, only admins manage; company users see nothing', async () => {
    for (const c of [analyst, viewer]) {
      expect((await c.get(ACC)).statusCode).toBe(200);
      expect((await c.get(CH)).statusCode).toBe(200);
      expect((await c.post(ACC, { name: 'x', phone: '+79120000000' })).statusCode).toBe(403);
      expect((await c.post(CH, { link: '@some_channel', company_id: A.id })).statusCode).toBe(403);
    }
    for (const url of [ACC, CH, `${ACC}/1`, `${CH}/1`]) expect((await companyAdmin.get(url)).statusCode).toBe(403);
    expect((await companyAdmin.post(CH, { link: '@some_channel', company_id: A.id })).statusCode).toBe(403);
    expect((await new Client(ctx).get(ACC)).statusCode).toBe(401);
    expect((await admin.post(ACC, { name: 'Сборщик админа', phone: '+79120000001' })).statusCode).toBe(201);
  });
});

describe('telegram: collector accounts', () => {
  const secrets = {
    api_id: '9988776',
    api_hash: 'a3f9c1d2e4b5a6978877665544332211',
    session: '1BVtsOKABu-SECRET-SESSION-STRING',
  };

  it('normalises the phone, keeps credentials encrypted and write-only', async () => {
    const r = await sa.post(ACC, { name: 'Сборщик 1', phone: '+7 (912) 345-67-89', ...secrets });
    expect(r.statusCode).toBe(201);
    const acc = r.json();
    expect(acc).toMatchObject({
      name: 'Сборщик 1',
      phone: '+79123456789',
      status: 'active',
      has_api_id: true,
      has_api_hash: true,
      has_session: true,
      last_activity_at: null,
    });
    for (const v of Object.values(secrets)) {
      expect(r.body).not.toContain(v);
      expect((await sa.get(`${ACC}/${acc.id}`)).body).not.toContain(v);
      expect((await sa.get(ACC)).body).not.toContain(v);
    }
    const [row] = await ctx.database.db.select().from(telegramAccounts).where(eq(telegramAccounts.id, acc.id));
    for (const col of [row?.apiIdEnc, row?.apiHashEnc, row?.sessionEnc]) {
      expect(col).toMatch(/^v1\./);
      for (const v of Object.values(secrets)) expect(col).not.toContain(v);
    }
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'telegram_account'));
    for (const v of Object.values(secrets)) expect(JSON.stringify(audits)).not.toContain(v);
    // Only the server itself can read them back (for the collector).
    expect(await ctx.app.services.telegram.credentials(acc.id)).toEqual({ phone: '+79123456789', ...secrets });
  });

  it('PATCH: absent secrets are kept, null erases, a string replaces', async () => {
    const acc = (await sa.post(ACC, { name: 'Сборщик 2', phone: '+79123456780', ...secrets })).json();
    const r = await sa.patch(`${ACC}/${acc.id}`, { status: 'paused', last_activity_at: '2026-03-01T10:00:00Z' });
    expect(r.json()).toMatchObject({
      status: 'paused',
      has_api_id: true,
      has_session: true,
      last_activity_at: '2026-03-01T10:00:00.000Z',
    });
    const e = await sa.patch(`${ACC}/${acc.id}`, { session: null, api_hash: 'new-hash-value' });
    expect(e.json()).toMatchObject({ has_session: false, has_api_hash: true });
    expect(await ctx.app.services.telegram.credentials(acc.id)).toMatchObject({
      session: null,
      api_hash: 'new-hash-value',
      api_id: secrets.api_id,
    });
  });

  it('refuses bad phones, duplicates, bad statuses and api_id', async () => {
    for (const phone of ['12345', '+7 912 345', 'телефон', '']) {
      const r = await sa.post(ACC, { name: 'X', phone });
      expect(r.statusCode).toBe(400);
      expect(r.json().data.fields.phone).toBe(phone === '' ? MSG.required : TELEGRAM_MSG.phone);
    }
    const dup = await sa.post(ACC, { name: 'Дубль', phone: '8 912 345 67 89' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(TELEGRAM_MSG.phoneTaken);
    expect((await sa.post(ACC, { name: 'X', phone: '+79120000009', status: 'sleeping' })).statusCode).toBe(400);
    expect((await sa.post(ACC, { name: 'X', phone: '+79120000009', api_id: 'abc' })).json().data.fields.api_id).toBe(
      TELEGRAM_MSG.apiId,
    );
    expect((await sa.post(ACC, { phone: '+79120000009' })).json().data.fields.name).toBe(MSG.required);
  });

  it('lists with filters, gets, deletes', async () => {
    const list = (await sa.get(`${ACC}?status=paused`)).json();
    expect(list.items.every((a: { status: string }) => a.status === 'paused')).toBe(true);
    expect((await sa.get(`${ACC}?q=912345678`)).json().total).toBeGreaterThanOrEqual(2);
    const acc = (await sa.post(ACC, { name: 'Удаляемый', phone: '+79120000010' })).json();
    expect((await sa.del(`${ACC}/${acc.id}`)).statusCode).toBe(204);
    expect((await sa.get(`${ACC}/${acc.id}`)).statusCode).toBe(404);
    expect((await sa.get(`${ACC}/${acc.id}`)).json().message).toBe(TELEGRAM_MSG.accountNotFound);
    expect((await sa.del(`${ACC}/${acc.id}`)).statusCode).toBe(404);
  });
});

describe('telegram: channels', () => {
  it('a t.me link or @username is stored as @username; duplicates refused however written', async () => {
    const r = await sa.post(CH, {
      link: 'https://t.me/Alfa_News',
      title: 'Новости Альфы',
      company_id: A.id,
      keywords: ['Банк', ' банк ', 'кредит'],
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({
      username: '@alfa_news',
      link: 'https://t.me/alfa_news',
      title: 'Новости Альфы',
      company: { id: A.id, name: 'Альфа' },
      keywords: ['Банк', 'кредит'],
      is_active: true,
      last_message_at: null,
      messages_count: 0,
    });
    for (const link of ['@alfa_news', 't.me/s/ALFA_NEWS', 'https://telegram.me/alfa_news/']) {
      const d = await sa.post(CH, { link, company_id: A.id });
      expect(d.statusCode).toBe(409);
      expect(d.json().message).toBe(TELEGRAM_MSG.channelTaken);
    }
    // Another company may follow the same public channel (a shared source, its own keywords).
    const shared = await sa.post(CH, { link: 't.me/s/ALFA_NEWS', company_id: B.id, keywords: ['бета'] });
    expect(shared.statusCode).toBe(201);
    expect(shared.json()).toMatchObject({ username: '@alfa_news', company: { id: B.id }, keywords: ['бета'] });
    expect((await sa.del(`${CH}/${shared.json().id}`)).statusCode).toBe(204);
  });

  it.each([
    'https://t.me/+AbCdEf123',
    'https://t.me/joinchat/AbCdEf',
    'https://example.com/alfa',
    '@ab',
    'alfa news',
    'https://t.me/alfa_news/15',
  ])('refuses the channel link %j', async (link) => {
    const r = await sa.post(CH, { link, company_id: A.id });
    expect(r.statusCode).toBe(400);
    expect(r.json().data.fields.link).toBe(TELEGRAM_MSG.channel);
  });

  it('refuses an unknown company, empty keywords and extra fields', async () => {
    const r = await sa.post(CH, { link: '@orphan_channel', company_id: 999_999 });
    expect(r.statusCode).toBe(400);
    expect(r.json().data.fields.company_id).toBe(TELEGRAM_MSG.companyNotFound);
    expect(
      (await sa.post(CH, { link: '@orphan_channel', company_id: A.id, keywords: ['  '] })).json().data.fields['keywords.0'],
    ).toBe(TELEGRAM_MSG.keyword);
    expect((await sa.post(CH, { link: '@orphan_channel', company_id: A.id, owner: 1 })).statusCode).toBe(400);
    expect((await sa.post(CH, { link: '@orphan_channel' })).json().data.fields.company_id).toBe(MSG.required);
  });

  it('edits, lists with filters, deletes; audited', async () => {
    const ch = (await sa.post(CH, { link: '@beta_chat', company_id: B.id, keywords: ['утечка'] })).json();
    const p = await sa.patch(`${CH}/${ch.id}`, { title: 'Чат Беты', keywords: ['утечка', 'пароль'], is_active: false });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toMatchObject({ title: 'Чат Беты', keywords: ['утечка', 'пароль'], is_active: false });
    // Renamed and moved onto a channel its new company already follows.
    expect((await sa.patch(`${CH}/${ch.id}`, { link: 'https://t.me/alfa_news', company_id: A.id })).statusCode).toBe(409);
    expect((await sa.patch(`${CH}/${ch.id}`, { company_id: 999_999 })).statusCode).toBe(400);
    const byCompany = (await analyst.get(`${CH}?company_id=${B.id}`)).json();
    expect(byCompany.items.map((c: { username: string }) => c.username)).toEqual(['@beta_chat']);
    expect((await analyst.get(`${CH}?is_active=false`)).json().total).toBe(1);
    expect((await analyst.get(`${CH}?q=@alfa`)).json().items[0].username).toBe('@alfa_news');
    expect((await analyst.get(`${CH}?q=Чат`)).json().total).toBe(1);
    expect((await sa.del(`${CH}/${ch.id}`)).statusCode).toBe(204);
    expect((await sa.get(`${CH}/${ch.id}`)).json().message).toBe(TELEGRAM_MSG.channelNotFound);
    const actions = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'telegram_channel'))).map(
      (a) => a.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(['telegram_channel.create', 'telegram_channel.update', 'telegram_channel.delete']),
    );
  });
});
