/* Module extras: domains (IDN, actions, snapshots, allowlist), merchant categories, accounts' leaks,
 * repository files, media types, the leaks catalogue and leak types. */
import { unicodeToPunycode } from '@forpost/contract/helpers';
import { EVENT_MSG, MODULES } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let aUser: Client;
let A: { id: number };

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  await createUser(ctx, { email: 'a@forpost.test', role: 'COMPANY_USER', companies: [{ id: A.id, role: 'COMPANY_ANALYST' }] });
  aUser = new Client(ctx);
  await aUser.login('a@forpost.test', ADMIN.password);
});

describe('domains', () => {
  const base = '/modules/domains/events';

  it('stores a Cyrillic domain as Unicode and punycode, flags it, finds it either way', async () => {
    const ace = unicodeToPunycode('сбербанк.рф');
    expect(ace).toMatch(/^xn--[a-z0-9-]+\.xn--p1ai$/);
    const r = await aUser.post(base, { domain: ace.toUpperCase(), ip: '2001:db8::1' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ domain: 'сбербанк.рф', domain_punycode: ace, is_cyrillic: true, title: 'сбербанк.рф' });
    const latin = (await aUser.post(base, { domain: 'sberbank-online.ru' })).json();
    expect(latin).toMatchObject({ domain_punycode: 'sberbank-online.ru', is_cyrillic: false });
    const ids = async (q: string) => (await aUser.get(`${base}?${q}`)).json().items.map((i: { id: number }) => i.id);
    expect(await ids('is_cyrillic=true')).toEqual([r.json().id]);
    expect(await ids(`domain_punycode=${encodeURIComponent(ace)}`)).toEqual([r.json().id]);
    expect(await ids(`q=${encodeURIComponent('сбербанк')}`)).toContain(r.json().id);
    expect(await ids('q=online')).toEqual([latin.id]);
    // The same domain typed in Unicode is a duplicate of the punycode one.
    const dup = await aUser.post(base, { domain: 'сбербанк.рф' });
    expect(dup.statusCode).toBe(409);
  });

  it('actions are recorded on the event history; allowlist adds the domain', async () => {
    const ev = (await aUser.post(base, { domain: 'sber-prize.ru' })).json();
    const t = await aUser.post(`${base}/${ev.id}/actions`, { action: 'takedown', comment: 'Фишинговая форма входа' });
    expect(t.statusCode, t.body).toBe(200);
    expect(t.json()).toMatchObject({ action: 'takedown', label: 'Запрос на блокировку' });
    const n = (await aUser.post(`${base}/${ev.id}/actions`, { action: 'report_netoscope' })).json();
    expect(n.label).toBe('Сообщить в Нетоскоп');
    expect((await aUser.post(`${base}/${ev.id}/actions`, { action: 'recheck' })).statusCode).toBe(200);
    const bad = await aUser.post(`${base}/${ev.id}/actions`, { action: 'explode' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(EVENT_MSG.actionUnknown);
    const hist = (await aUser.get(`${base}/${ev.id}/history`)).json().items;
    expect(hist.filter((h: { action: string }) => h.action === 'action').map((h: { field: string }) => h.field)).toEqual([
      'recheck',
      'report_netoscope',
      'takedown',
    ]);
    expect(hist.find((h: { field: string }) => h.field === 'takedown')).toMatchObject({
      after: { comment: 'Фишинговая форма входа' },
      field_label: 'Запрос на блокировку',
    });
    expect(hist.find((h: { field: string }) => h.field === 'report_netoscope').after).toEqual({ provider: 'Netoscope' });
    const audit = await ctx.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'event.action' AND entity_id = $1",
      [String(ev.id)],
    );
    expect(audit.rows[0].n).toBe(3);

    const allow = await aUser.post(`${base}/${ev.id}/actions`, { action: 'allowlist' });
    expect(allow.statusCode).toBe(200);
    const entry = (await aUser.get(`/modules/domains/allowlist/${allow.json().allowlist_id}`)).json();
    expect(entry).toMatchObject({ domain: 'sber-prize.ru', company_id: A.id });
  });

  it('an allowlisted domain or its subdomain never raises a new event', async () => {
    const e = await aUser.post('/modules/domains/allowlist', { domain: 'Пример.РФ', comment: 'Наш сайт' });
    expect(e.statusCode, e.body).toBe(201);
    expect(e.json()).toMatchObject({
      domain: 'пример.рф',
      domain_punycode: 'xn--e1afmkfd.xn--p1ai',
      company_id: A.id,
      comment: 'Наш сайт',
    });
    for (const domain of ['пример.рф', 'xn--e1afmkfd.xn--p1ai', 'shop.пример.рф']) {
      const r = await aUser.post(base, { domain });
      expect(r.statusCode, domain).toBe(409);
      expect(r.json().message).toBe(`${EVENT_MSG.allowlisted} (пример.рф)`);
    }
    expect((await aUser.post(base, { domain: 'другой-пример.рф' })).statusCode).toBe(201);
    expect((await aUser.post('/modules/domains/allowlist', { domain: 'xn--e1afmkfd.xn--p1ai' })).statusCode).toBe(409);
    const list = (await aUser.get('/modules/domains/allowlist?q=пример')).json();
    expect(list.items.map((i: { domain: string }) => i.domain)).toEqual(['пример.рф']);
    const patched = await aUser.patch(`/modules/domains/allowlist/${e.json().id}`, { comment: null });
    expect(patched.json().comment).toBeNull();
    expect((await aUser.del(`/modules/domains/allowlist/${e.json().id}`)).statusCode).toBe(204);
    expect((await aUser.post(base, { domain: 'пример.рф' })).statusCode).toBe(201);
    expect((await aUser.post('/modules/domains/allowlist', { domain: 'не домен' })).json().data.fields.domain).toBe(
      'Неверный формат домена',
    );
  });

  it('snapshot history: when, screenshot, IP, HTTP status, title', async () => {
    const ev = (await aUser.post(base, { domain: 'snap-test.ru' })).json();
    expect((await aUser.get(`${base}/snapshots/${ev.id}`)).json()).toEqual({ items: [] });
    const s1 = await aUser.post(`${base}/snapshots/${ev.id}`, {
      taken_at: '2026-03-01T10:00:00Z',
      ip: '185.1.2.3',
      http_status: 200,
      page_title: 'Вход в Сбербанк Онлайн',
    });
    expect(s1.statusCode, s1.body).toBe(201);
    await aUser.post(`${base}/snapshots/${ev.id}`, { taken_at: '2026-03-02T10:00:00Z', http_status: 404 });
    const items = (await aUser.get(`${base}/snapshots/${ev.id}`)).json().items;
    expect(items.map((i: { http_status: number }) => i.http_status)).toEqual([404, 200]);
    expect(items[1]).toMatchObject({
      ip: '185.1.2.3',
      page_title: 'Вход в Сбербанк Онлайн',
      taken_at: '2026-03-01T10:00:00.000Z',
      screenshot_doc_id: null,
    });
    expect((await aUser.post(`${base}/snapshots/${ev.id}`, { screenshot_doc_id: 999999 })).statusCode).toBe(400);
  });
});

describe('brand and management: decisions and actions', () => {
  it('decisions are module reference data; actions are the module’s own', async () => {
    for (const code of ['brand', 'management'] as const) {
      const decisions = (await aUser.get(`/modules/${code}/events/decisions`)).json().items;
      expect(decisions.map((d: { name: string }) => d.name)).toEqual([
        'Заблокировать',
        'Наблюдать',
        'Игнорировать',
        'Легитимный ресурс',
      ]);
      const ev = (
        await aUser.post(`/modules/${code}/events`, { ...MODULES[code].sample(1), decision_id: decisions[1].id })
      ).json();
      expect(ev.decision_id).toBe(decisions[1].id);
      const other = (await aUser.get('/modules/domains/events/decisions')).json().items[0].id;
      expect((await aUser.patch(`/modules/${code}/events/${ev.id}`, { decision_id: other })).json().data.fields.decision_id).toBe(
        EVENT_MSG.unknownDecision,
      );
      expect((await aUser.post(`/modules/${code}/events/${ev.id}/actions`, { action: 'report_platform' })).json().label).toBe(
        'Жалоба площадке',
      );
      expect((await aUser.post(`/modules/${code}/events/${ev.id}/actions`, { action: 'report_netoscope' })).statusCode).toBe(400);
    }
    expect((await aUser.post('/modules/databases/events/1/actions', { action: 'takedown' })).statusCode).toBe(404);
    expect((await aUser.post('/modules/databases/events', { ...MODULES.databases.sample(1), decision_id: 1 })).statusCode).toBe(
      400,
    );
  });
});

describe('merchant categories', () => {
  it('lists breach and questionable categories in Russian', async () => {
    const b = (await aUser.get('/modules/merchant/events/breach_categories')).json().items;
    expect(b).toContainEqual({ code: 'gambling', name: 'Азартные игры' });
    const q = (await aUser.get('/modules/merchant/events/questionable_categories')).json().items;
    expect(q).toContainEqual({ code: 'mcc_mismatch', name: 'Несоответствие MCC' });
    const ev = (
      await aUser.post('/modules/merchant/events', { ...MODULES.merchant.sample(5), breach_category: 'crypto' })
    ).json();
    const ids = (await aUser.get('/modules/merchant/events?breach_category=crypto,adult'))
      .json()
      .items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([ev.id]);
    expect(
      (await aUser.post('/modules/merchant/events', { ...MODULES.merchant.sample(6), questionable_category: 'gambling' })).json()
        .data.fields.questionable_category,
    ).toBe(EVENT_MSG.option);
  });
});

describe('leaks: catalogue and types; accounts: linked leaks', () => {
  it('leak types are seeded, readable by all, renamed by settings managers', async () => {
    const types = (await aUser.get('/modules/leaks/events/types')).json().items;
    expect(types.map((t: { code: string }) => t.code)).toContain('combolist');
    const t = types.find((x: { code: string }) => x.code === 'combolist');
    expect((await aUser.get(`/modules/leaks/events/types/${t.id}`)).json().name).toBe('Комбо-лист');
    expect((await aUser.patch(`/modules/leaks/events/types/${t.id}`, { name: 'Комболист' })).statusCode).toBe(403);
    expect(
      (await admin.patch(`/modules/leaks/events/types/${t.id}`, { name: 'Комболист', description: null })).json(),
    ).toMatchObject({ name: 'Комболист', description: null });
    expect((await admin.get('/modules/leaks/events/types/999999')).json().message).toBe(EVENT_MSG.leakTypeNotFound);
  });

  it('the catalogue: CRUD by settings managers, unique names, a used leak cannot be deleted', async () => {
    const type = (await admin.get('/modules/leaks/events/types')).json().items[0];
    const l = await admin.post('/modules/leaks', {
      name: 'Утечка СДЭК 2022',
      leak_type_id: type.id,
      leaked_at: '2022-03-01',
      records_count: 9_000_000,
      source_url: 'https://example.org/leak',
    });
    expect(l.statusCode, l.body).toBe(201);
    expect((await admin.post('/modules/leaks', { name: 'утечка сдэк 2022' })).statusCode).toBe(409);
    expect((await admin.post('/modules/leaks', { name: 'X', leak_type_id: 999999 })).json().data.fields.leak_type_id).toBe(
      EVENT_MSG.leakTypeNotFound,
    );
    expect((await aUser.post('/modules/leaks', { name: 'Моя' })).statusCode).toBe(403);
    expect((await aUser.get('/modules/leaks?q=сдэк')).json().items.map((i: { name: string }) => i.name)).toEqual([
      'Утечка СДЭК 2022',
    ]);
    expect((await aUser.get(`/modules/leaks?leak_type_id=${type.id}`)).json().total).toBe(1);
    const ev = (
      await aUser.post('/modules/leaks/events', { ...MODULES.leaks.sample(1), leak_id: l.json().id, leak_type_id: type.id })
    ).json();
    expect(ev.leak_id).toBe(l.json().id);
    expect(
      (await aUser.post('/modules/leaks/events', { ...MODULES.leaks.sample(2), leak_id: 999999 })).json().data.fields.leak_id,
    ).toBe(EVENT_MSG.unknownRef);
    expect((await admin.del(`/modules/leaks/${l.json().id}`)).statusCode).toBe(409);
    await admin.patch(`/modules/leaks/events/${ev.id}`, { leak_id: null });
    expect((await admin.del(`/modules/leaks/${l.json().id}`)).statusCode).toBe(204);
  });

  it('accounts link catalogue leaks (on the history) and suggest leak names', async () => {
    const leak = (await admin.post('/modules/leaks', { name: 'Утечка Яндекс.Еды' })).json();
    const acc = (await aUser.post('/modules/accounts/events', MODULES.accounts.sample(1))).json();
    const link = await aUser.post(`/modules/accounts/events/${acc.id}/leaks`, { leak_id: leak.id });
    expect(link.statusCode, link.body).toBe(201);
    expect(link.json().items.map((i: { name: string }) => i.name)).toEqual(['Утечка Яндекс.Еды']);
    expect((await aUser.post(`/modules/accounts/events/${acc.id}/leaks`, { leak_id: leak.id })).json().message).toBe(
      EVENT_MSG.leakAlreadyLinked,
    );
    expect((await aUser.post(`/modules/accounts/events/${acc.id}/leaks`, { leak_id: 999999 })).statusCode).toBe(400);
    expect((await aUser.get('/modules/accounts/leaknames?q=яндекс')).json().items).toEqual([
      { id: leak.id, name: 'Утечка Яндекс.Еды' },
    ]);
    expect((await aUser.del(`/modules/accounts/events/${acc.id}/leaks?leak_id=${leak.id}`)).statusCode).toBe(204);
    expect((await aUser.del(`/modules/accounts/events/${acc.id}/leaks?leak_id=${leak.id}`)).statusCode).toBe(404);
    expect((await aUser.get(`/modules/accounts/events/${acc.id}/leaks`)).json().items).toEqual([]);
    const hist = (await aUser.get(`/modules/accounts/events/${acc.id}/history`)).json().items;
    expect(hist.map((h: { action: string }) => h.action).slice(0, 2)).toEqual(['unlink', 'link']);
  });
});

describe('repositories: files', () => {
  it('add, change and remove files of a repository event, each on the history', async () => {
    const ev = (await aUser.post('/modules/repositories/events', MODULES.repositories.sample(1))).json();
    const base = `/modules/repositories/events/${ev.id}/files`;
    const f = await aUser.post(base, {
      path: 'config/application.yml',
      url: 'https://github.com/dev1/sber-internal-api/blob/main/config/application.yml',
      matched: 'password: S3cr3t',
    });
    expect(f.statusCode, f.body).toBe(201);
    const p = await aUser.patch(`${base}/${f.json().id}`, { path: 'config/app.yml', url: null });
    expect(p.json()).toMatchObject({ path: 'config/app.yml', url: null, matched: 'password: S3cr3t' });
    expect((await aUser.get(base)).json().items).toHaveLength(1);
    expect((await aUser.patch(`${base}/999999`, { path: 'x' })).json().message).toBe(EVENT_MSG.fileNotFound);
    expect((await aUser.del(`${base}/${f.json().id}`)).statusCode).toBe(204);
    expect((await aUser.get(base)).json().items).toEqual([]);
    const fields = (await aUser.get(`/modules/repositories/events/${ev.id}/history`))
      .json()
      .items.map((h: { action: string; field: string }) => `${h.action}:${h.field}`);
    expect(fields.slice(0, 3)).toEqual(['unlink:files', 'update:files', 'link:files']);
    // Another repository event's file is not reachable through this one.
    const other = (await aUser.post('/modules/repositories/events', MODULES.repositories.sample(2))).json();
    const g = (await aUser.post(`/modules/repositories/events/${other.id}/files`, { path: 'a.txt' })).json();
    expect((await aUser.del(`${base}/${g.id}`)).statusCode).toBe(404);
  });
});

describe('media: types and sentiment', () => {
  it('media types CRUD; a used type cannot be deleted; connotation filter', async () => {
    const types = (await aUser.get('/modules/media/types')).json();
    expect(types.items.map((t: { name: string }) => t.name)).toContain('Федеральные СМИ');
    const t = await admin.post('/modules/media/types', { name: 'Подкасты' });
    expect(t.statusCode).toBe(201);
    expect((await admin.post('/modules/media/types', { name: 'подкасты' })).json().message).toBe(EVENT_MSG.mediaTypeDuplicate);
    expect((await aUser.post('/modules/media/types', { name: 'Моё' })).statusCode).toBe(403);
    const ev = (
      await aUser.post('/modules/media/events', {
        ...MODULES.media.sample(1),
        media_type_id: t.json().id,
        connotation: 'Negative',
      })
    ).json();
    expect(
      (await aUser.get(`/modules/media/events?media_type_id=${t.json().id}&connotation=Negative`))
        .json()
        .items.map((i: { id: number }) => i.id),
    ).toEqual([ev.id]);
    expect((await admin.del(`/modules/media/types/${t.json().id}`)).json().message).toBe(EVENT_MSG.mediaTypeInUse);
    expect((await admin.patch(`/modules/media/types/${t.json().id}`, { name: 'Подкасты и радио' })).json().name).toBe(
      'Подкасты и радио',
    );
    await aUser.patch(`/modules/media/events/${ev.id}`, { media_type_id: null });
    expect((await admin.del(`/modules/media/types/${t.json().id}`)).statusCode).toBe(204);
    expect(
      (await aUser.post('/modules/media/events', { ...MODULES.media.sample(2), media_type_id: t.json().id })).json().data.fields
        .media_type_id,
    ).toBe(EVENT_MSG.unknownRef);
  });
});
