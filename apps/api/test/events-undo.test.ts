/*
 * «Отменить» a change of many events (issue #30): the collection's PATCH and a change by filter return a
 * token; its author (the same user through the same key or signed in) may, for a while, put back exactly
 * the fields the change set — not a blanket revert: a field someone changed since stays. One `undo`
 * history entry per restored field, one `event.undo` audit entry; the audit of a change names the module
 * and the company and says what changed in words.
 */
import { UNDO_MSG } from '@forpost/contract/events';
import type { BulkJob } from '@forpost/contract/events-bulk';
import { getModule } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let aUser: Client;
let aOther: Client;
let bUser: Client;
let keyClient: Client;
let keyHeaders: Record<string, string>;
let A: number;
let B: number;
let tagId: number;
const m = getModule('domains');
const path = `/modules/${m.code}/events`;

const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
const status = async (code: string) =>
  (await q<{ id: number }>(`SELECT id FROM event_statuses WHERE module = $1 AND code = $2`, [m.code, code]))[0]?.id as number;
const priority = async (code: string) =>
  (await q<{ id: number }>(`SELECT id FROM event_priorities WHERE module = $1 AND code = $2`, [m.code, code]))[0]?.id as number;
const row = async (id: number) =>
  (
    await q<{ status_id: number; priority_id: number | null; tags: number[] }>(
      `SELECT status_id, priority_id, tags FROM events WHERE id = $1`,
      [id],
    )
  )[0];
const historyOf = (id: number) =>
  q<{ action: string; field: string | null; before: unknown; after: unknown }>(
    `SELECT action, field, before, after FROM event_history WHERE event_id = $1 ORDER BY id`,
    [id],
  );
const auditMark = async () => (await q<{ id: number | null }>(`SELECT max(id)::int AS id FROM audit_log`))[0]?.id ?? 0;
const auditSince = (mark: number) =>
  q<{ action: string; company_id: number | null; meta: Record<string, unknown> }>(
    `SELECT action, company_id, meta FROM audit_log WHERE id > $1 ORDER BY id`,
    [mark],
  );
const events = (companyId: number, n: number, tags: number[] = []) =>
  Promise.all(Array.from({ length: n }, () => insertEvent(ctx, { companyId, module: m.code, tags })));

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'undo-a@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  aOther = await signedIn(ctx, 'undo-a2@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  bUser = await signedIn(ctx, 'undo-b@forpost.test', 'COMPANY_USER', [{ id: B, role: 'COMPANY_ANALYST' }]);
  const key = await admin.post('/apikeys', { name: 'Ключ Альфы', company_id: A, roles: [{ module: '*', access: 'write' }] });
  expect(key.statusCode, key.body).toBe(201);
  keyHeaders = { authorization: `Bearer ${key.json().secret}` };
  keyClient = new Client(ctx);
  tagId = (await admin.post('/tags', { name: 'Фишинг', color: '#f5222d' })).json().id;
});

describe('undo of a batch change', () => {
  it('puts back exactly the changed fields, keeps what another user changed since, and only once', async () => {
    const [inWork, fresh, high] = [await status('in_progress'), await status('new'), await priority('high')];
    const [e1, e2, e3] = await events(A, 3);
    const r = await aUser.patch(path, { ids: [e1, e2, e3], patch: { status_id: inWork, tags_add: [tagId] } });
    expect(r.statusCode, r.body).toBe(200);
    const token = r.json().undo_token as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);

    // Meanwhile another user changes e2's status (the changed field) and e3's priority (another field).
    expect((await aOther.patch(`${path}/${e2}`, { status_id: fresh })).statusCode).toBe(200);
    expect((await aOther.patch(`${path}/${e3}`, { priority_id: high })).statusCode).toBe(200);

    // Another user of the same company, another company's user: not theirs to undo.
    for (const who of [aOther, bUser]) {
      const x = await who.post(`${path}/undo/${token}`, {});
      expect(x.statusCode, x.body).toBe(404);
      expect(x.json().message).toBe(UNDO_MSG.notFound);
    }

    const mark = await auditMark();
    const u = await aUser.post(`${path}/undo/${token}`, {});
    expect(u.statusCode, u.body).toBe(200);
    expect(u.json()).toMatchObject({ restored: 3, skipped: 1 });
    // e1: all back. e2: its status stays as the other user set it; its tag goes. e3: back, its new priority stays.
    expect(await row(e1 as number)).toMatchObject({ status_id: fresh, tags: [] });
    expect(await row(e2 as number)).toMatchObject({ status_id: fresh, tags: [] });
    expect(await row(e3 as number)).toMatchObject({ status_id: fresh, priority_id: high, tags: [] });
    const h1 = await historyOf(e1 as number);
    expect(h1.filter((h) => h.action === 'undo').map((h) => h.field)).toEqual(['status_id', 'tags']);
    expect(h1.at(-2)).toMatchObject({ action: 'undo', field: 'status_id', before: inWork, after: fresh });
    const h2 = await historyOf(e2 as number);
    expect(h2.filter((h) => h.action === 'undo').map((h) => h.field)).toEqual(['tags']);

    const audit = await auditSince(mark);
    expect(audit.map((a) => a.action)).toEqual(['event.undo']);
    expect(audit[0]?.company_id).toBe(A);
    expect(audit[0]?.meta).toMatchObject({ module: m.code, module_name: m.name, company_name: 'Альфа', skipped: 1 });
    expect(String(audit[0]?.meta.change)).toContain('Статус: В работе → Новое');
    expect(String(audit[0]?.meta.change)).toContain('теги: −«Фишинг»');

    const twice = await aUser.post(`${path}/undo/${token}`, {});
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json().message).toBe(UNDO_MSG.done);
  });

  it('too late: 409, nothing changes; an unknown token: 404, a malformed one: 400', async () => {
    const inWork = await status('in_progress');
    const [e1] = await events(A, 1);
    const r = await aUser.patch(path, { ids: [e1], patch: { status_id: inWork } });
    const token = r.json().undo_token as string;
    await q(`UPDATE event_undos SET expires_at = now() - interval '1 second' WHERE id = $1`, [token]);
    const late = await aUser.post(`${path}/undo/${token}`, {});
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().message).toBe(UNDO_MSG.expired);
    expect((await row(e1 as number))?.status_id).toBe(inWork);
    expect((await aUser.post(`${path}/undo/abc`, {})).statusCode).toBe(400);
    expect((await aUser.post(`${path}/undo/00000000-0000-4000-8000-000000000000`, {})).statusCode).toBe(404);
    // Another module's path: not found either.
    expect((await aUser.post(`/modules/services/events/undo/${token}`, {})).statusCode).toBe(404);
  });

  it('a change that changes nothing has no token', async () => {
    const fresh = await status('new');
    const [e1] = await events(A, 1);
    const r = await aUser.patch(path, { ids: [e1], patch: { status_id: fresh } });
    expect(r.json()).toEqual({ ids: [e1], count: 1, undo_token: null });
  });

  it('an API key undoes its own change; the same user signed in does not', async () => {
    const inWork = await status('in_progress');
    const [e1] = await events(A, 1);
    const r = await keyClient.patch(path, { ids: [e1], patch: { status_id: inWork } }, keyHeaders);
    expect(r.statusCode, r.body).toBe(200);
    const token = r.json().undo_token as string;
    expect((await admin.post(`${path}/undo/${token}`, {})).statusCode).toBe(404);
    const u = await keyClient.post(`${path}/undo/${token}`, {}, keyHeaders);
    expect(u.statusCode, u.body).toBe(200);
    expect(u.json()).toEqual({ restored: 1, skipped: 0, ids: [e1] });
    expect((await row(e1 as number))?.status_id).toBe(await status('new'));
  });

  it('a change by filter: its job carries the token; undo puts every event back', async () => {
    const inWork = await status('in_progress');
    const tag = (await admin.post('/tags', { name: 'Отмена по фильтру', color: '#8c8c8c' })).json().id;
    const ids = await events(A, 4, [tag]);
    const r = await aUser.post(`${path}/bulk?tags=${tag}`, { op: 'patch', patch: { status_id: inWork } });
    expect(r.statusCode, r.body).toBe(200);
    const job = r.json() as BulkJob;
    expect(job.undo_token).toMatch(/^[0-9a-f-]{36}$/);
    const u = await aUser.post(`${path}/undo/${job.undo_token}`, {});
    expect(u.statusCode, u.body).toBe(200);
    expect(u.json()).toMatchObject({ restored: 4, skipped: 0 });
    for (const id of ids) expect((await row(id))?.status_id).toBe(await status('new'));
  });
});

describe('undo of an assignment', () => {
  it('takes the assignee back off; one audit entry', async () => {
    const [e1] = await events(A, 1);
    const other = (await q<{ id: number }>(`SELECT id FROM users WHERE email = 'undo-a2@forpost.test'`))[0]?.id as number;
    const r = await aUser.patch(path, { ids: [e1], patch: { assignee_id: other } });
    expect(r.statusCode, r.body).toBe(200);
    const mark = await auditMark();
    const u = await aUser.post(`${path}/undo/${r.json().undo_token}`, {});
    expect(u.statusCode, u.body).toBe(200);
    expect(u.json()).toMatchObject({ restored: 1, skipped: 0 });
    expect((await q<{ assignee_id: number | null }>(`SELECT assignee_id FROM events WHERE id = $1`, [e1]))[0]?.assignee_id).toBe(
      null,
    );
    const audit = await auditSince(mark);
    expect(audit.map((a) => a.action)).toEqual(['event.undo']);
    expect(String(audit[0]?.meta.change)).toMatch(/^Исполнитель: .+ → не задан$/);
    expect((await historyOf(e1 as number)).at(-1)).toMatchObject({ action: 'undo', field: 'assignee_id', after: null });
  });
});

describe('the audit entry of a batch change', () => {
  it('names the module and the company and says what changed in words', async () => {
    const inWork = await status('in_progress');
    const [e1, e2] = await events(A, 2);
    const mark = await auditMark();
    const r = await aUser.patch(path, { ids: [e1, e2], patch: { status_id: inWork, tags_add: [tagId] } });
    expect(r.statusCode, r.body).toBe(200);
    const [entry] = await auditSince(mark);
    expect(entry?.action).toBe('event.batch_update');
    expect(entry?.company_id).toBe(A);
    expect(entry?.meta).toMatchObject({
      module: m.code,
      module_name: m.name,
      company_name: 'Альфа',
      change: 'Статус: Новое → В работе; теги: +«Фишинг»',
      summary: `${m.name}, Альфа: Статус: Новое → В работе; теги: +«Фишинг»`,
    });
  });
});
