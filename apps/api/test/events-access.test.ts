/*
 * Tenant isolation of events and everything around them (tags, comments, docs, extras), role limits,
 * and all-or-nothing batches.
 */
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG, MODULE_LIST, MODULES } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let aUser: Client; // COMPANY_ANALYST of A
let aViewer: Client; // COMPANY_VIEWER of A
let staffAnalyst: Client;
let A: { id: number };
let B: { id: number };
const PW = ADMIN.password;

async function signIn(
  email: string,
  role: 'COMPANY_USER' | 'ANALYST',
  companies: { id: number; role: 'COMPANY_ANALYST' | 'COMPANY_VIEWER' | 'COMPANY_ADMIN' }[] = [],
) {
  await createUser(ctx, { email, role, companies });
  const c = new Client(ctx);
  await c.login(email, PW);
  return c;
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  admin = new Client(ctx);
  await admin.login(ADMIN.email, PW);
  aUser = await signIn('analyst.a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  aViewer = await signIn('viewer.a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
  staffAnalyst = await signIn('staff.analyst@forpost.test', 'ANALYST');
});

const create = async (
  c: Client,
  code: keyof typeof MODULES,
  company: number | undefined,
  n: number,
  extra: Record<string, unknown> = {},
) => {
  const r = await c.post(`/modules/${code}/events`, {
    ...(company ? { company_id: company } : {}),
    ...MODULES[code].sample(n),
    ...extra,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; company_id: number; title: string; status_id: number };
};
const ids = (r: { json(): { items: { id: number }[] } }) => r.json().items.map((i) => i.id);

describe('events: a company user sees and touches only their companies', () => {
  it('lists, counts, searches and filters only company A', async () => {
    const a1 = await create(admin, 'domains', A.id, 1);
    const b1 = await create(admin, 'domains', B.id, 2, { registrar: 'Уникальный-Регистратор-Беты' });
    const list = await aUser.get('/modules/domains/events?status_counts=true');
    expect(list.statusCode).toBe(200);
    expect(ids(list)).toContain(a1.id);
    expect(ids(list)).not.toContain(b1.id);
    expect(list.json().items.every((i: { company_id: number }) => i.company_id === A.id)).toBe(true);
    const adminA = (await admin.get(`/modules/domains/events?company_id=${A.id}`)).json().total;
    const adminAll = (await admin.get('/modules/domains/events')).json().total;
    expect(adminAll).toBeGreaterThan(adminA);
    expect(list.json().total).toBe(adminA);
    expect(list.json().status_counts.reduce((s: number, x: { count: number }) => s + x.count, 0)).toBe(adminA);
    expect((await aUser.get('/modules/domains/events?company_id=-1')).json().total).toBe(adminA);
    // Another company's id in the selector is "not found"; its rows never appear in a search.
    const foreign = await aUser.get(`/modules/domains/events?company_id=${B.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(EVENT_MSG.companyNotFound);
    expect(ids(await aUser.get('/modules/domains/events?q=Уникальный'))).toEqual([]);
    expect(ids(await admin.get('/modules/domains/events?q=Уникальный'))).toEqual([b1.id]);
    // The rules cannot widen the scope.
    expect(
      (await aUser.get(`/modules/domains/events?rules=${encodeURIComponent(JSON.stringify([{ company_id: B.id }]))}`)).statusCode,
    ).toBe(400);
  });

  it('answers 404 for another company’s event on every route, and changes nothing', async () => {
    const b = await create(admin, 'domains', B.id, 10);
    const base = '/modules/domains/events';
    for (const [method, url, body] of [
      ['GET', `${base}/${b.id}`, undefined],
      ['GET', `${base}/${b.id}/history`, undefined],
      ['PATCH', `${base}/${b.id}`, { title: 'Взлом' }],
      ['POST', `${base}/${b.id}/actions`, { action: 'takedown' }],
      ['GET', `${base}/snapshots/${b.id}`, undefined],
      ['POST', `${base}/snapshots/${b.id}`, { http_status: 200 }],
    ] as const) {
      const r = await aUser.req(method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().message).toBe(EVENT_MSG.eventNotFound);
    }
    expect((await aUser.del(`${base}/${b.id}`)).statusCode).toBe(403); // company roles never delete
    expect((await admin.get(`${base}/${b.id}`)).json().title).toBe(b.title);
    const hist = (await admin.get(`${base}/${b.id}/history`)).json().items;
    expect(hist).toHaveLength(1);
  });

  it('creates in the user’s own company only', async () => {
    const own = await create(aUser, 'brand', undefined, 20);
    expect(own.company_id).toBe(A.id);
    const r = await aUser.post('/modules/brand/events', { company_id: B.id, ...MODULES.brand.sample(21) });
    expect(r.statusCode).toBe(404);
    expect((await admin.get(`/modules/brand/events?company_id=${B.id}`)).json().total).toBe(0);
    // Staff must say which company.
    const none = await admin.post('/modules/brand/events', MODULES.brand.sample(22));
    expect(none.statusCode).toBe(400);
    expect(none.json().data.fields.company_id).toBe(EVENT_MSG.companyRequired);
    expect((await admin.post('/modules/brand/events', { company_id: 999999, ...MODULES.brand.sample(23) })).statusCode).toBe(404);
  });

  it('viewers read but cannot change; staff analysts reach every company', async () => {
    const a = await create(admin, 'firms', A.id, 30);
    const b = await create(admin, 'firms', B.id, 31);
    expect((await aViewer.get(`/modules/firms/events/${a.id}`)).statusCode).toBe(200);
    expect((await aViewer.get(`/modules/firms/events/${b.id}`)).statusCode).toBe(404);
    expect((await aViewer.patch(`/modules/firms/events/${a.id}`, { title: 'x' })).statusCode).toBe(403);
    expect((await aViewer.post('/modules/firms/events', MODULES.firms.sample(32))).statusCode).toBe(403);
    expect((await staffAnalyst.patch(`/modules/firms/events/${b.id}`, { title: 'Проверено аналитиком' })).statusCode).toBe(200);
    expect((await staffAnalyst.del(`/modules/firms/events/${b.id}`)).statusCode).toBe(204);
  });

  it('card numbers: masked for everyone, revealed only through the audited endpoint', async () => {
    const ev = await create(admin, 'acquiring', A.id, 40);
    const clear = MODULES.acquiring.sample(40).card_number as string;
    const raw = await ctx.database.pool.query('SELECT data::text AS d FROM events WHERE id = $1', [ev.id]);
    expect(raw.rows[0].d).not.toContain(clear);
    expect(raw.rows[0].d).not.toContain(clear.slice(4, 12));
    for (const c of [admin, aUser]) {
      const got = (await c.get(`/modules/acquiring/events/${ev.id}`)).json();
      expect(got.card_number).toBe(`${clear.slice(0, 4)} **** **** ${clear.slice(-4)}`);
      expect(JSON.stringify((await c.get('/modules/acquiring/events')).json())).not.toContain(clear);
    }
    expect((await aUser.post(`/modules/acquiring/events/${ev.id}/reveal`)).statusCode).toBe(403);
    expect((await staffAnalyst.post(`/modules/acquiring/events/${ev.id}/reveal`)).statusCode).toBe(403);
    const r = await admin.post(`/modules/acquiring/events/${ev.id}/reveal`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ card_number: clear });
    expect(r.headers['cache-control']).toBe('no-store');
    const audit = await ctx.database.pool.query("SELECT * FROM audit_log WHERE action = 'event.card_reveal' AND entity_id = $1", [
      String(ev.id),
    ]);
    expect(audit.rows).toHaveLength(1);
    expect(JSON.stringify(audit.rows[0])).not.toContain(clear);
    // Filtering by the full number works without storing it.
    expect(ids(await admin.get(`/modules/acquiring/events?card_number=${clear}`))).toEqual([ev.id]);
    // A change of card is recorded masked.
    const next = MODULES.acquiring.sample(41).card_number as string;
    await admin.patch(`/modules/acquiring/events/${ev.id}`, { card_number: next });
    const h = (await admin.get(`/modules/acquiring/events/${ev.id}/history`))
      .json()
      .items.find((x: { field: string }) => x.field === 'card_number');
    expect(h.after).toBe(`${next.slice(0, 4)} **** **** ${next.slice(-4)}`);
    expect(JSON.stringify(h)).not.toContain(next);
  });

  it('an API key limited to one module reaches no other', async () => {
    const key = (
      await admin.post('/apikeys', { name: 'Только домены', company_id: A.id, roles: [{ module: 'domains', access: 'write' }] })
    ).json();
    expect(key.secret).toBeTruthy();
    const bearer = { authorization: `Bearer ${key.secret}` };
    const anon = new Client(ctx);
    expect((await anon.get('/modules/domains/events', bearer)).statusCode).toBe(200);
    expect((await anon.get('/modules/brand/events', bearer)).statusCode).toBe(403);
    const created = await anon.post('/modules/domains/events', MODULES.domains.sample(50), bearer);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().company_id).toBe(A.id);
    expect((await anon.post('/modules/brand/events', MODULES.brand.sample(50), bearer)).statusCode).toBe(403);
  });
});

describe('batch operations are all or nothing', () => {
  it('a foreign or unknown id refuses the whole batch; nothing changes', async () => {
    const [a1, a2] = [await create(admin, 'employees', A.id, 1), await create(admin, 'employees', A.id, 2)];
    const b1 = await create(admin, 'employees', B.id, 3);
    const statuses = (await admin.get('/modules/employees/events/statuses')).json().items;
    const r = await aUser.patch('/modules/employees/events', {
      ids: [a1.id, b1.id, a2.id],
      patch: { status_id: statuses[1].id },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ message: EVENT_MSG.batchNotFound, data: { ids: [b1.id] } });
    for (const e of [a1, a2]) {
      expect((await admin.get(`/modules/employees/events/${e.id}`)).json().status_id).toBe(statuses[0].id);
      expect((await admin.get(`/modules/employees/events/${e.id}/history`)).json().items).toHaveLength(1);
    }
    const del = await admin.req('DELETE', '/modules/employees/events', { ids: [a1.id, 987654321] });
    expect(del.statusCode).toBe(404);
    expect((await admin.get(`/modules/employees/events/${a1.id}`)).statusCode).toBe(200);
    // An id of another module is not part of this collection either.
    const other = await create(admin, 'media', A.id, 5);
    expect((await admin.req('DELETE', '/modules/employees/events', { ids: [a1.id, other.id] })).statusCode).toBe(404);
    expect((await admin.get(`/modules/media/events/${other.id}`)).statusCode).toBe(200);
  });

  it('a valid batch changes every event and writes each one’s history', async () => {
    const evs = [
      await create(admin, 'media', A.id, 11),
      await create(admin, 'media', A.id, 12),
      await create(admin, 'media', A.id, 13),
    ];
    const statuses = (await admin.get('/modules/media/events/statuses')).json().items;
    const r = await aUser.patch('/modules/media/events', {
      ids: evs.map((e) => e.id),
      patch: { status_id: statuses[3].id, connotation: 'Negative' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ ids: evs.map((e) => e.id), count: 3, undo_token: expect.any(String) });
    for (const e of evs) {
      const got = (await admin.get(`/modules/media/events/${e.id}`)).json();
      expect(got).toMatchObject({ status_id: statuses[3].id, connotation: 'Negative' });
      expect(
        (await admin.get(`/modules/media/events/${e.id}/history`))
          .json()
          .items.some((h: { field: string }) => h.field === 'status_id'),
      ).toBe(true);
    }
    expect((await aUser.req('DELETE', '/modules/media/events', { ids: [evs[0]?.id] })).statusCode).toBe(403);
    const d = await staffAnalyst.req('DELETE', '/modules/media/events', { ids: evs.map((e) => e.id) });
    expect(d.statusCode).toBe(200);
    expect(d.json().count).toBe(3);
    for (const e of evs) expect((await admin.get(`/modules/media/events/${e.id}`)).statusCode).toBe(404);
  });

  it('a batch that would create a duplicate is rolled back entirely', async () => {
    const r1 = await create(admin, 'repositories', A.id, 21);
    const r2 = await create(admin, 'repositories', A.id, 22);
    const url = MODULES.repositories.sample(23).repo_url;
    const r = await admin.patch('/modules/repositories/events', {
      ids: [r1.id, r2.id],
      patch: { repo_url: url, owner: 'новый' },
    });
    expect(r.statusCode).toBe(409);
    expect((await admin.get(`/modules/repositories/events/${r1.id}`)).json().repo_url).toBe(
      MODULES.repositories.sample(21).repo_url,
    );
    expect((await admin.get(`/modules/repositories/events/${r1.id}`)).json().owner).toBe('dev21');
  });

  it('batch endpoints exist for every module (no longer only employees, repositories and media)', async () => {
    for (const m of MODULE_LIST) {
      const r = await admin.req('DELETE', `/modules/${m.code}/events`, { ids: [987654321] });
      expect(r.statusCode, m.code).toBe(404);
      expect(r.json().message).toBe(EVENT_MSG.batchNotFound);
    }
  });
});

describe('tags and comments are scoped by the event’s company', () => {
  it('tags: everyone with events.read lists them; only settings managers change them', async () => {
    const t = await admin.post('/tags', { name: 'Срочно', color: '#FF0000' });
    expect(t.statusCode).toBe(201);
    expect(t.json().color).toBe('#ff0000');
    expect((await aUser.get('/tags')).json().items.map((x: { name: string }) => x.name)).toContain('Срочно');
    expect((await aUser.post('/tags', { name: 'Моё' })).statusCode).toBe(403);
    expect((await aUser.patch(`/tags/${t.json().id}`, { name: 'Иначе' })).statusCode).toBe(403);
    expect((await aUser.del(`/tags/${t.json().id}`)).statusCode).toBe(403);
    // Attaching a tag is triage (events.write) in one's own company.
    const ev = await create(admin, 'services', A.id, 60);
    expect((await aUser.patch(`/modules/services/events/${ev.id}`, { tags: [t.json().id] })).json().tags).toEqual([t.json().id]);
    expect((await aUser.patch(`/modules/services/events/${ev.id}`, { tags: [999999] })).json().data.fields.tags).toBe(
      EVENT_MSG.unknownTag,
    );
  });

  it('comments of another company’s event are not found', async () => {
    const b = await create(admin, 'leaks', B.id, 70);
    const a = await create(admin, 'leaks', A.id, 71);
    const bcr = await admin.post('/comments', { event_id: b.id, text: 'Секрет Беты' });
    expect(bcr.statusCode, bcr.body).toBe(201);
    const bc = bcr.json();
    expect((await aUser.get(`/comments?event_id=${b.id}`)).statusCode).toBe(404);
    expect((await aUser.post('/comments', { event_id: b.id, text: 'Привет' })).statusCode).toBe(404);
    expect((await aUser.get(`/comments/${bc.id}`)).statusCode).toBe(404);
    expect((await aUser.patch(`/comments/${bc.id}`, { text: 'Изменено' })).statusCode).toBe(404);
    expect((await aUser.del(`/comments/${bc.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/comments/${bc.id}`)).json().text).toBe('Секрет Беты');
    const mine = await aUser.post('/comments', { event_id: a.id, text: 'Проверяю' });
    expect(mine.statusCode).toBe(201);
    expect((await aViewer.get(`/comments?event_id=${a.id}`)).json().items.map((c: { text: string }) => c.text)).toEqual([
      'Проверяю',
    ]);
    expect((await aViewer.post('/comments', { event_id: a.id, text: 'нельзя' })).statusCode).toBe(403);
  });

  it('domain allowlist entries of another company are invisible', async () => {
    const e = await admin.post('/modules/domains/allowlist', { company_id: B.id, domain: 'beta-bank.ru' });
    expect(e.statusCode).toBe(201);
    expect((await aUser.get('/modules/domains/allowlist')).json().items).toEqual([]);
    expect((await aUser.get(`/modules/domains/allowlist/${e.json().id}`)).statusCode).toBe(404);
    expect((await aUser.del(`/modules/domains/allowlist/${e.json().id}`)).statusCode).toBe(404);
    expect((await aUser.post('/modules/domains/allowlist', { company_id: B.id, domain: 'x.ru' })).statusCode).toBe(404);
    expect((await admin.get(`/modules/domains/allowlist/${e.json().id}`)).statusCode).toBe(200);
  });

  it('repository files and linked leaks of another company’s event are not found', async () => {
    const b = await create(admin, 'repositories', B.id, 80);
    expect((await aUser.get(`/modules/repositories/events/${b.id}/files`)).statusCode).toBe(404);
    expect((await aUser.post(`/modules/repositories/events/${b.id}/files`, { path: 'x' })).statusCode).toBe(404);
    const acc = await create(admin, 'accounts', B.id, 81);
    const leak = (await admin.post('/modules/leaks', { name: 'Утечка для изоляции' })).json();
    expect((await aUser.post(`/modules/accounts/events/${acc.id}/leaks`, { leak_id: leak.id })).statusCode).toBe(404);
    expect((await aUser.get(`/modules/accounts/events/${acc.id}/leaks`)).statusCode).toBe(404);
  });

  it('errors stay Russian and never 5xx for odd ids', async () => {
    const r = await aUser.get('/modules/domains/events/abc');
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/[а-я]/i);
    expect((await aUser.get('/modules/domains/events/99999999999999999999')).statusCode).toBe(400);
    expect((await aUser.get('/modules/domains/events/0')).statusCode).toBe(400);
    expect((await new Client(ctx).get('/modules/domains/events')).json().message).toBe(API_MSG.unauthorized);
  });
});
