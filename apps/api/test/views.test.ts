/* Saved views (personal and shared, owner rules, tenant isolation) and user preferences. */
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG } from '@forpost/contract/modules';
import { VIEW_MSG } from '@forpost/contract/views';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let staff: Client; // SUPER_ADMIN
let aAdmin: Client; // COMPANY_ADMIN of A
let a1: Client; // COMPANY_ANALYST of A
let a2: Client; // COMPANY_VIEWER of A
let b1: Client; // COMPANY_ADMIN of B
let A: number;
let B: number;
let keyA: Record<string, string>;

const state = { filters: { status: 'new', q: 'сбер' }, sort: '-priority_id', columns: ['id', 'domain', 'status_id'] };
const body = (r: { body: string }) => JSON.parse(r.body);
const names = async (c: Client, url = '/modules/domains/views') =>
  body(await c.get(url)).items.map((v: { name: string }) => v.name);

beforeAll(async () => {
  ctx = await setupApp();
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  staff = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  aAdmin = await signedIn(ctx, 'a.admin@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]);
  a1 = await signedIn(ctx, 'a1@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  a2 = await signedIn(ctx, 'a2@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
  b1 = await signedIn(ctx, 'b1@forpost.test', 'COMPANY_USER', [{ id: B, role: 'COMPANY_ADMIN' }]);
  const key = body(
    await staff.post('/apikeys', { name: 'Ключ Альфы', company_id: A, roles: [{ module: '*', access: 'write' }] }),
  ) as { secret: string };
  keyA = { authorization: `Bearer ${key.secret}` };
});

describe('saved views', () => {
  it('validates the state against the module: filters, sort and columns of the module only', async () => {
    const bad = async (s: unknown) => {
      const r = await a1.post('/modules/domains/views', { name: 'Вид', state: s });
      expect(r.statusCode, r.body).toBe(400);
      return body(r);
    };
    expect(JSON.stringify((await bad({ filters: { card_number: '1' } })).data)).toContain(VIEW_MSG.filterUnknown('card_number'));
    expect(JSON.stringify((await bad({ filters: { created_from: 'вчера' } })).data.fields)).toContain('filters.created_from');
    expect(JSON.stringify((await bad({ filters: { status: 'new; drop' } })).data.fields)).toContain('filters.status');
    expect(JSON.stringify((await bad({ sort: '-card_number' })).data)).toContain(VIEW_MSG.sortUnknown);
    expect(JSON.stringify((await bad({ columns: ['id', 'card_number'] })).data)).toContain(VIEW_MSG.columnUnknown('card_number'));
    expect(JSON.stringify((await bad({ columns: ['id', 'id'] })).data)).toContain(VIEW_MSG.columnTwice('id'));
    await bad({ filters: {}, extra: 1 });
    expect((await a1.post('/modules/domains/views', { name: '  ', state })).statusCode).toBe(400);
    expect((await a1.post('/modules/nosuch/views', { name: 'Вид', state })).statusCode).toBe(404);
    // The same state is fine for the module it belongs to; acquiring takes its own field as a column.
    expect(
      (await a1.post('/modules/acquiring/views', { name: 'Карты', state: { filters: {}, columns: ['card_number'] } })).statusCode,
    ).toBe(201);
  });

  it('personal views are the owner’s alone; shared ones are seen by every user of the company, not by another company', async () => {
    const mine = await a1.post('/modules/domains/views', { name: 'Мои новые', state });
    expect(mine.statusCode, mine.body).toBe(201);
    const v = body(mine);
    expect(v).toMatchObject({ name: 'Мои новые', shared: false, company_id: null, can_edit: true, state });
    // A company user shares with their only company without naming it.
    const shared = body(await a1.post('/modules/domains/views', { name: 'Общий Альфы', shared: true, state }));
    expect(shared).toMatchObject({ shared: true, company_id: A, company_name: 'Альфа' });

    expect(await names(a1)).toEqual(['Мои новые', 'Общий Альфы']);
    expect(await names(a2)).toEqual(['Общий Альфы']);
    expect(await names(b1)).toEqual([]);
    expect(await names(a1, '/modules/brand/views')).toEqual([]); // per module
    // Staff see the shared view of A (they read every company), with A selected too; not a1's personal one.
    expect(await names(staff)).toEqual(['Общий Альфы']);
    expect(await names(staff, `/modules/domains/views?company_id=${A}`)).toEqual(['Общий Альфы']);
    expect(await names(staff, `/modules/domains/views?company_id=${B}`)).toEqual([]);
    // Another company as the list's company: «not found», as a missing one.
    const foreign = await a1.get(`/modules/domains/views?company_id=${B}`);
    const ghost = await a1.get('/modules/domains/views?company_id=2147000000');
    expect([foreign.statusCode, body(foreign).message]).toEqual([404, EVENT_MSG.companyNotFound]);
    expect([ghost.statusCode, body(ghost).message]).toEqual([404, EVENT_MSG.companyNotFound]);

    // Others' personal views and other companies' shared views are not found, for reading as for changing.
    for (const [who, id] of [
      [a2, v.id],
      [b1, v.id],
      [b1, shared.id],
      [staff, v.id],
    ] as const) {
      expect((await who.patch(`/modules/domains/views/${id}`, { name: 'Взлом' })).statusCode).toBe(404);
      expect((await who.del(`/modules/domains/views/${id}`)).statusCode).toBe(404);
      expect((await who.req('PUT', '/me/preferences/default_view:domains', { value: id })).statusCode).toBe(404);
    }
    // A view is reached under its own module only.
    expect((await a1.patch(`/modules/brand/views/${v.id}`, { name: 'Другой модуль' })).statusCode).toBe(404);
    // Sharing into another company is refused like a missing company.
    const into = await b1.post('/modules/domains/views', { name: 'В Альфу', shared: true, company_id: A, state });
    const intoGhost = await b1.post('/modules/domains/views', { name: 'В никуда', shared: true, company_id: 2147000000, state });
    expect([into.statusCode, body(into).message]).toEqual([404, EVENT_MSG.companyNotFound]);
    expect([intoGhost.statusCode, body(intoGhost).message]).toEqual([404, EVENT_MSG.companyNotFound]);
    expect(
      (
        await b1.patch(`/modules/domains/views/${body(await b1.post('/modules/domains/views', { name: 'Б', state })).id}`, {
          company_id: A,
        })
      ).statusCode,
    ).toBe(404);
    // Staff must name the company of a shared view.
    const noCompany = await staff.post('/modules/domains/views', { name: 'Сотрудник', shared: true, state });
    expect([noCompany.statusCode, body(noCompany).message]).toEqual([400, VIEW_MSG.companyForShared]);
    expect(
      (await staff.post('/modules/domains/views', { name: 'Для Беты', shared: true, company_id: B, state })).statusCode,
    ).toBe(201);
    expect(await names(b1)).toEqual(['Б', 'Для Беты']);
    expect(await names(a1)).toEqual(['Мои новые', 'Общий Альфы']);
  });

  it('the owner changes a view; a shared one also its company’s admin; other readers get 403', async () => {
    const v = body(
      await a1.post('/modules/brand/views', { name: 'Бренды', shared: true, state: { filters: { decision: 'block' } } }),
    );
    const seen = body(await a2.get('/modules/brand/views')).items[0];
    expect(seen).toMatchObject({ id: v.id, can_edit: false, owner_name: 'a1' });
    const r = await a2.patch(`/modules/brand/views/${v.id}`, { name: 'Чужой' });
    expect([r.statusCode, body(r).message]).toEqual([403, VIEW_MSG.notOwner]);
    expect((await a2.del(`/modules/brand/views/${v.id}`)).statusCode).toBe(403);
    // The owner updates the state and renames; the company admin unshares it (it becomes the owner's own).
    const upd = await a1.patch(`/modules/brand/views/${v.id}`, {
      name: 'Бренды: новые',
      state: { filters: { status: 'new' }, sort: 'id' },
    });
    expect(body(upd)).toMatchObject({ name: 'Бренды: новые', state: { filters: { status: 'new' }, sort: 'id' } });
    expect(body(await aAdmin.get('/modules/brand/views')).items[0].can_edit).toBe(true);
    expect(body(await aAdmin.patch(`/modules/brand/views/${v.id}`, { shared: false }))).toMatchObject({ shared: false });
    expect(await names(a2, '/modules/brand/views')).toEqual([]);
    expect(await names(a1, '/modules/brand/views')).toEqual(['Бренды: новые']);
    expect((await aAdmin.patch(`/modules/brand/views/${v.id}`, { shared: true })).statusCode).toBe(404);
  });

  it('API keys are refused (views and preferences are a signed-in user’s)', async () => {
    const c = a1;
    for (const [m, url, b] of [
      ['GET', '/modules/domains/views', undefined],
      ['POST', '/modules/domains/views', { name: 'Ключ', state }],
      ['PATCH', '/modules/domains/views/1', { name: 'Ключ' }],
      ['DELETE', '/modules/domains/views/1', undefined],
      ['GET', '/me/preferences', undefined],
      ['PUT', '/me/preferences/theme', { value: 'dark' }],
    ] as const) {
      const r = await c.req(m, url, b, keyA);
      expect([r.statusCode, body(r).message], `${m} ${url}`).toEqual([403, API_MSG.sessionOnly]);
    }
  });
});

describe('preferences', () => {
  it('known keys only, values checked per key; null resets', async () => {
    const put = (c: Client, key: string, value: unknown) => c.req('PUT', `/me/preferences/${key}`, { value });
    expect((await put(a1, 'theme', 'dark')).statusCode).toBe(200);
    expect((await put(a1, 'theme', 'pink')).statusCode).toBe(400);
    const unknown = await put(a1, 'font', 'big');
    expect([unknown.statusCode, body(unknown).message]).toEqual([400, VIEW_MSG.unknownKey]);
    expect((await put(a1, 'columns:nosuch', ['id'])).statusCode).toBe(400);
    expect((await put(a1, 'columns:domains', ['id', 'card_number'])).statusCode).toBe(400);
    expect((await put(a1, 'columns:domains', [])).statusCode).toBe(400);
    expect((await put(a1, 'columns:domains', ['id', 'domain', 'registrar', 'status_id'])).statusCode).toBe(200);
    expect((await put(a1, 'default_view:domains', 'x')).statusCode).toBe(400);
    expect((await a1.req('PUT', '/me/preferences/theme', { value: 'dark', more: 1 })).statusCode).toBe(400);
    const got = body(await a1.get('/me/preferences')).items.map((p: { key: string; value: unknown }) => [p.key, p.value]);
    expect(got).toEqual([
      ['columns:domains', ['id', 'domain', 'registrar', 'status_id']],
      ['theme', 'dark'],
    ]);
    // Another user's preferences are their own.
    expect(body(await a2.get('/me/preferences')).items).toEqual([]);
    expect((await put(a1, 'theme', null)).statusCode).toBe(200);
    expect(body(await a1.get('/me/preferences')).items.map((p: { key: string }) => p.key)).toEqual(['columns:domains']);
  });

  it('the default view: a view the user sees; deleting the view drops every default that named it', async () => {
    const v = body(
      await a1.post('/modules/media/views', { name: 'Негатив', shared: true, state: { filters: { reach_from: '100' } } }),
    );
    expect((await a1.req('PUT', '/me/preferences/default_view:media', { value: v.id })).statusCode).toBe(200);
    expect((await a2.req('PUT', '/me/preferences/default_view:media', { value: v.id })).statusCode).toBe(200);
    // Not a view of another module.
    expect((await a1.req('PUT', '/me/preferences/default_view:brand', { value: v.id })).statusCode).toBe(404);
    expect((await a1.del(`/modules/media/views/${v.id}`)).statusCode).toBe(204);
    for (const c of [a1, a2])
      expect(body(await c.get('/me/preferences')).items.map((p: { key: string }) => p.key)).not.toContain('default_view:media');
    expect((await a1.del(`/modules/media/views/${v.id}`)).statusCode).toBe(404);
  });
});
