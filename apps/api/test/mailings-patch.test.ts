/*
 * Mailings: PATCH changes only the fields sent; spec §5 messages; filters naming a module or a
 * company the caller may not use are refused.
 */
import type { Mailing } from '@forpost/contract/mailings';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let companyAdmin: Client;
let A: { id: number };
let B: { id: number };
const BASE = '/notifications/mailings';

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  companyAdmin = await signedIn(ctx, 'ca@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
});

async function create(c: Client, over: Record<string, unknown> = {}): Promise<Mailing> {
  const r = await c.post(BASE, {
    name: 'Сводка',
    recipients: ['soc@alfa.ru'],
    filters: { modules: ['domains', 'media'], priorities: ['critical'], sources: ['Other'], text: 'сбер' },
    params: { frequency: 'daily', hour: 9, weekday: 3, format: 'text', max_events: 7, quiet_hours: { from: 22, to: 7 } },
    ...over,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Mailing;
}

describe('mailings: PATCH changes only what is sent', () => {
  it('PATCH {params: {hour}} on a daily digest keeps its frequency, format, cap and quiet hours', async () => {
    const m = await create(admin, { company_id: A.id });
    const r = await admin.patch(`${BASE}/${m.id}`, { params: { hour: 10 } });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as Mailing).params).toEqual({
      frequency: 'daily',
      hour: 10,
      weekday: 3,
      format: 'text',
      max_events: 7,
      quiet_hours: { from: 22, to: 7 },
    });
    // Stored so, not only answered so.
    const got = (await admin.get(`${BASE}/${m.id}`)).json() as Mailing;
    expect(got.params.frequency).toBe('daily');
    expect(got.params.format).toBe('text');
    expect(got.filters).toEqual(m.filters);
  });

  it('PATCH {filters: {statuses}} keeps the modules, priorities, sources and text', async () => {
    const m = await create(admin, { company_id: A.id });
    const r = await admin.patch(`${BASE}/${m.id}`, { filters: { statuses: ['new'] } });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as Mailing).filters).toEqual({
      modules: ['domains', 'media'],
      statuses: ['new'],
      priorities: ['critical'],
      sources: ['Other'],
      tags: [],
      assignee: null,
      text: 'сбер',
      transitions: [],
    });
    expect((r.json() as Mailing).params).toEqual(m.params);
    // A field sent empty is changed to empty.
    const cleared = await admin.patch(`${BASE}/${m.id}`, { filters: { modules: [] } });
    expect((cleared.json() as Mailing).filters).toMatchObject({ modules: [], priorities: ['critical'], text: 'сбер' });
  });

  it('the merged params are validated with Russian messages and nothing is saved on error', async () => {
    const m = await create(admin, { company_id: A.id });
    const weekday = await admin.patch(`${BASE}/${m.id}`, { params: { frequency: 'weekly', weekday: 8 } });
    expect(weekday.statusCode).toBe(400);
    expect(weekday.json().message).toBe('День недели — число от 1 до 7');
    expect(weekday.json().data.fields).toEqual({ 'params.weekday': 'День недели — число от 1 до 7' });
    const quiet = await admin.patch(`${BASE}/${m.id}`, { params: { quiet_hours: { from: 5, to: 5 } } });
    expect(quiet.statusCode).toBe(400);
    expect(quiet.json().message).toBe('Начало и конец тихих часов совпадают');
    const hour = await admin.patch(`${BASE}/${m.id}`, { params: { hour: 24 } });
    expect(hour.json().message).toBe('Час — число от 0 до 23');
    expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).params).toEqual(m.params);
    // A weekly digest made by PATCH keeps the stored weekday.
    const weekly = await admin.patch(`${BASE}/${m.id}`, { params: { frequency: 'weekly' } });
    expect((weekly.json() as Mailing).params).toMatchObject({ frequency: 'weekly', weekday: 3, hour: 9, format: 'text' });
  });

  it('changing only the format keeps the digest schedule; changing the hour reschedules it', async () => {
    const m = await create(admin, { company_id: A.id, filters: { modules: ['services'] } });
    // A fixed instant outside the mailing's quiet hours (22–7 MSK): the wall clock would put every
    // evening run inside them, where a tick schedules nothing.
    await ctx.app.services.mailings.tick(new Date('2026-03-10T09:00:00Z')); // 12:00 MSK
    const scheduled = ((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).next_digest_at;
    expect(scheduled).not.toBeNull();
    await admin.patch(`${BASE}/${m.id}`, { params: { format: 'html' } });
    expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).next_digest_at).toBe(scheduled);
    await admin.patch(`${BASE}/${m.id}`, { params: { hour: 15 } });
    expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).next_digest_at).toBeNull();
  });
});

describe('mailings: spec §5 messages', () => {
  it('an invalid recipient is exactly «Неверный формат email», at its index; none is «Обязательное поле»', async () => {
    const bad = await admin.post(BASE, { name: 'x', company_id: A.id, recipients: ['ok@alfa.ru', 'a@b.ru', 'плохой'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Неверный формат email');
    expect(bad.json().data.fields).toEqual({ 'recipients.2': 'Неверный формат email' });
    const none = await admin.post(BASE, { name: 'x', company_id: A.id, recipients: [] });
    expect(none.json().message).toBe('Обязательное поле');
    expect(none.json().data.fields).toEqual({ recipients: 'Обязательное поле' });
    const missing = await admin.post(BASE, { name: 'x', company_id: A.id });
    expect(missing.json().data.fields.recipients).toBe('Обязательное поле');
  });

  it('a user of several companies must name one: «Обязательное поле»', async () => {
    const two = await signedIn(ctx, 'two@forpost.test', 'COMPANY_USER', [
      { id: A.id, role: 'COMPANY_ADMIN' },
      { id: B.id, role: 'COMPANY_ADMIN' },
    ]);
    const r = await two.post(BASE, { name: 'x', recipients: ['soc@alfa.ru'] });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('Обязательное поле');
    expect(r.json().data.fields).toEqual({ company_id: 'Обязательное поле' });
  });
});

describe('mailings: filters the caller may not use', () => {
  it('a company admin naming another company is refused (404), as is moving a mailing there', async () => {
    const r = await companyAdmin.post(BASE, { name: 'x', company_id: B.id, recipients: ['soc@alfa.ru'] });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('Компания не найдена');
    const own = await create(companyAdmin, { filters: { modules: ['domains'] } });
    expect((await companyAdmin.patch(`${BASE}/${own.id}`, { company_id: B.id })).statusCode).toBe(404);
    const preview = await companyAdmin.post(`${BASE}/preview`, { company_id: B.id, filters: {} });
    expect(preview.statusCode).toBe(404);
  });

  it('a module not enabled for the company is refused with a Russian message', async () => {
    const C = await createCompany(ctx, 'Гамма');
    await ctx.database.db.execute(sql`UPDATE companies SET modules = '{domains,media}' WHERE id = ${C.id}`);
    const cAdmin = await signedIn(ctx, 'gamma@forpost.test', 'COMPANY_USER', [{ id: C.id, role: 'COMPANY_ADMIN' }]);
    // The form offers only the modules the company has.
    const options = (await cAdmin.get(`${BASE}/filters`)).json() as { modules: { value: string }[] };
    expect(options.modules.map((m) => m.value).sort()).toEqual(['domains', 'media']);
    const refused = await cAdmin.post(BASE, {
      name: 'x',
      recipients: ['soc@gamma.ru'],
      filters: { modules: ['domains', 'leaks'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Модуль не подключён для компании: Утечки');
    expect(refused.json().data.fields).toEqual({ 'filters.modules': 'Модуль не подключён для компании: Утечки' });
    // Staff get the same answer for that company; the modules it has are fine.
    expect(
      (await admin.post(BASE, { name: 'x', company_id: C.id, recipients: ['a@b.ru'], filters: { modules: ['leaks'] } }))
        .statusCode,
    ).toBe(400);
    const ok = await cAdmin.post(BASE, { name: 'x', recipients: ['soc@gamma.ru'], filters: { modules: ['media'] } });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = (ok.json() as Mailing).id;
    const patched = await cAdmin.patch(`${BASE}/${id}`, { filters: { modules: ['leaks'] } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().message).toBe('Модуль не подключён для компании: Утечки');
    expect((await cAdmin.post(`${BASE}/preview`, { company_id: C.id, filters: { modules: ['leaks'] } })).statusCode).toBe(400);
    // Moving a mailing to a company without its modules is refused too.
    const ofA = await create(admin, { company_id: A.id, filters: { modules: ['leaks'] } });
    expect((await admin.patch(`${BASE}/${ofA.id}`, { company_id: C.id })).statusCode).toBe(400);
  });

  it('a preview for a company the caller may not see answers the same 404 whatever its modules (they stay secret)', async () => {
    const D = await createCompany(ctx, 'Дельта');
    await ctx.database.db.execute(sql`UPDATE companies SET modules = '{domains}' WHERE id = ${D.id}`);
    // A module D lacks and one it has: one answer, before anything about D's modules is looked at.
    const lacking = await companyAdmin.post(`${BASE}/preview`, { company_id: D.id, filters: { modules: ['media'] } });
    const having = await companyAdmin.post(`${BASE}/preview`, { company_id: D.id, filters: { modules: ['domains'] } });
    for (const r of [lacking, having]) {
      expect(r.statusCode, r.body).toBe(404);
      expect(r.json().message).toBe('Компания не найдена');
    }
    expect(lacking.body).toBe(having.body);
    // Staff, who may see D, still get the modules' message.
    const staff = await admin.post(`${BASE}/preview`, { company_id: D.id, filters: { modules: ['media'] } });
    expect(staff.statusCode).toBe(400);
    expect(staff.json().message).toBe('Модуль не подключён для компании: СМИ');
  });
});
