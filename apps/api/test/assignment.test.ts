/*
 * Assignment: an event's assignee through the one write path (single PATCH, batch PATCH, bulk by
 * filter), the rule that the assignee must see the event, history and audit, the list's `assignee`
 * filter, «Мои события» across modules, the picker, company API keys and the mailings' filter.
 */
import { ASSIGN_MSG } from '@forpost/contract/assignment';
import { MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let adminId: number;
/** Company users: analyst of A, analyst of B, analyst of C (C takes only the «domains» module). */
let aUser: Client;
let aUserId: number;
let bUserId: number;
let cUserId: number;
let staffId: number;
let inactiveId: number;
let keyClient: Client;
let keyHeaders: Record<string, string>;
let A: number;
let B: number;
let C: number;

const m1 = MODULE_LIST.find((m) => m.code === 'domains') as ModuleDescriptor;
const m2 = MODULE_LIST.find((m) => m.code !== 'domains') as ModuleDescriptor;
const path = (m: ModuleDescriptor) => `/modules/${m.code}/events`;
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
const ev = (m: ModuleDescriptor, companyId: number, extra: { priority?: string; status?: string } = {}) =>
  insertEvent(ctx, { companyId, module: m.code, ...extra }).then(Number);
const assigneeOf = async (id: number) =>
  (await q<{ assignee_id: number | null }>(`SELECT assignee_id FROM events WHERE id = $1`, [id]))[0]?.assignee_id ?? null;
const notificationsOf = (userId: number) =>
  q<{ kind: string; event_id: number | null; text: string; actor_id: number | null }>(
    `SELECT kind, event_id::int, text, actor_id FROM notifications WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
const userId = async (email: string) =>
  (await q<{ id: number }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [email]))[0]?.id as number;
const auditMark = async () => (await q<{ id: number | null }>(`SELECT max(id)::int AS id FROM audit_log`))[0]?.id ?? 0;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  adminId = await userId(ADMIN.email);
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  C = (await createCompany(ctx, 'Гамма')).id;
  await q(`UPDATE companies SET modules = ARRAY['domains'] WHERE id = $1`, [C]);
  aUser = await signedIn(ctx, 'a@assign.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  aUserId = await userId('a@assign.test');
  bUserId = (
    await createUser(ctx, { email: 'b@assign.test', role: 'COMPANY_USER', companies: [{ id: B, role: 'COMPANY_ANALYST' }] })
  ).id;
  cUserId = (
    await createUser(ctx, { email: 'c@assign.test', role: 'COMPANY_USER', companies: [{ id: C, role: 'COMPANY_VIEWER' }] })
  ).id;
  staffId = (await createUser(ctx, { email: 'staff@assign.test', role: 'ANALYST', name: 'Анна Аналитик' })).id;
  inactiveId = (await createUser(ctx, { email: 'gone@assign.test', role: 'ANALYST' })).id;
  await q(`UPDATE users SET is_active = false WHERE id = $1`, [inactiveId]);
  const key = await admin.post('/apikeys', { name: 'Ключ Альфы', company_id: A, roles: [{ module: '*', access: 'write' }] });
  expect(key.statusCode).toBe(201);
  keyClient = new Client(ctx);
  keyHeaders = { authorization: `Bearer ${key.json().secret}` };
});

describe('single PATCH', () => {
  it('assigns, shows the assignee, writes history («Исполнитель»), audit and a notification', async () => {
    const id = await ev(m2, A);
    const mark = await auditMark();
    const r = await admin.patch(`${path(m2)}/${id}`, { assignee_id: staffId });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ assignee_id: staffId, assignee_name: 'Анна Аналитик' });
    const list = await admin.get(`${path(m2)}?company_id=${A}`);
    expect(list.json().items.find((x: { id: number }) => x.id === id)).toMatchObject({ assignee_name: 'Анна Аналитик' });
    const h = (await admin.get(`${path(m2)}/${id}/history`)).json().items;
    expect(h[0]).toMatchObject({ field: 'assignee_id', field_label: 'Исполнитель', before: null });
    expect(h[0].after).toEqual({ id: staffId, name: 'Анна Аналитик' });
    const audit = await q<{ action: string; entity_id: string; company_id: number }>(
      `SELECT action, entity_id, company_id FROM audit_log WHERE id > $1`,
      [mark],
    );
    expect(audit).toEqual([{ action: 'event.assign', entity_id: String(id), company_id: A }]);
    const n = await notificationsOf(staffId);
    expect(n.at(-1)).toMatchObject({ kind: 'assigned', event_id: id, actor_id: adminId });
    expect(n.at(-1)?.text).toContain(`№${id}`);

    // Unassigning: history again, no notification for anyone.
    const before = (await notificationsOf(staffId)).length;
    expect((await admin.patch(`${path(m2)}/${id}`, { assignee_id: null })).json().assignee_id).toBeNull();
    expect(await assigneeOf(id)).toBeNull();
    const h2 = (await admin.get(`${path(m2)}/${id}/history`)).json().items;
    expect(h2[0]).toMatchObject({ field: 'assignee_id', after: null, before: { id: staffId, name: 'Анна Аналитик' } });
    expect((await notificationsOf(staffId)).length).toBe(before);
    // The same assignee again changes nothing: no history row.
    await admin.patch(`${path(m2)}/${id}`, { assignee_id: null });
    expect((await admin.get(`${path(m2)}/${id}/history`)).json().items.length).toBe(h2.length);
  });

  it('refuses an assignee who cannot see the event (400, Russian), leaving it as it was', async () => {
    const id = await ev(m2, A);
    const cases = [bUserId, inactiveId, 2_000_000_000];
    for (const who of cases) {
      const r = await admin.patch(`${path(m2)}/${id}`, { assignee_id: who });
      expect(r.statusCode, String(who)).toBe(400);
      expect(r.json()).toMatchObject({ message: ASSIGN_MSG.cannotSee, data: { fields: { assignee_id: ASSIGN_MSG.cannotSee } } });
    }
    // A company user of a company that does not take the module: not for that module's events.
    const inC = await ev(m2, C);
    expect((await admin.patch(`${path(m2)}/${inC}`, { assignee_id: cUserId })).statusCode).toBe(400);
    const domainsInC = await ev(m1, C);
    expect((await admin.patch(`${path(m1)}/${domainsInC}`, { assignee_id: cUserId })).statusCode).toBe(200);
    expect(await assigneeOf(id)).toBeNull();
    expect((await q(`SELECT 1 FROM event_history WHERE event_id = $1 AND field = 'assignee_id'`, [id])).length).toBe(0);
  });

  it('the actor assigning themselves gets no notification', async () => {
    const id = await ev(m2, A);
    const before = (await notificationsOf(adminId)).length;
    expect((await admin.patch(`${path(m2)}/${id}`, { assignee_id: adminId })).statusCode).toBe(200);
    expect((await notificationsOf(adminId)).length).toBe(before);
  });
});

describe('batch and bulk', () => {
  it('batch PATCH assigns all, one summary notification; a wrong assignee refuses the whole batch', async () => {
    const ids = [await ev(m2, A), await ev(m2, A), await ev(m2, A)];
    const before = (await notificationsOf(aUserId)).length;
    const r = await admin.patch(path(m2), { ids, patch: { assignee_id: aUserId } });
    expect(r.statusCode, r.body).toBe(200);
    for (const id of ids) expect(await assigneeOf(id)).toBe(aUserId);
    const n = (await notificationsOf(aUserId)).slice(before);
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({ kind: 'assigned', event_id: null });
    expect(n[0]?.text).toContain('3');
    const hist = await q(`SELECT 1 FROM event_history WHERE event_id = ANY($1) AND field = 'assignee_id'`, [ids]);
    expect(hist).toHaveLength(3);

    // aUser sees A only: a batch with an event of B is refused whole.
    const b = await ev(m2, B);
    const a = await ev(m2, A);
    const bad = await admin.patch(path(m2), { ids: [a, b], patch: { assignee_id: aUserId } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(ASSIGN_MSG.cannotSee);
    expect(await assigneeOf(a)).toBeNull();
  });

  it('bulk by filter assigns every selected event; refuses an assignee outside the filter’s companies', async () => {
    const tag = (await admin.post('/tags', { name: 'Назначение-bulk', color: '#112233' })).json().id as number;
    const ids = await Promise.all([1, 2, 3, 4].map(() => insertEvent(ctx, { companyId: A, module: m2.code, tags: [tag] })));
    const r = await admin.post(`${path(m2)}/bulk?tags=${tag}`, { op: 'patch', patch: { assignee_id: staffId } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'done', processed: 4 });
    for (const id of ids) expect(await assigneeOf(Number(id))).toBe(staffId);
    // All companies: bUser cannot see A's events.
    const bad = await admin.post(`${path(m2)}/bulk?tags=${tag}`, { op: 'patch', patch: { assignee_id: bUserId } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(ASSIGN_MSG.cannotSee);
    expect(await assigneeOf(Number(ids[0]))).toBe(staffId);
    // Unassign by filter.
    expect((await admin.post(`${path(m2)}/bulk?tags=${tag}`, { op: 'patch', patch: { assignee_id: null } })).statusCode).toBe(
      200,
    );
    for (const id of ids) expect(await assigneeOf(Number(id))).toBeNull();
  });
});

describe('list filter and «Мои события»', () => {
  it('assignee=me|none|<id> filters the list; a bad value is 400', async () => {
    const mine = await ev(m2, A);
    const other = await ev(m2, A);
    const none = await ev(m2, A);
    await admin.patch(`${path(m2)}/${mine}`, { assignee_id: aUserId });
    await admin.patch(`${path(m2)}/${other}`, { assignee_id: staffId });
    const ids = async (c: Client, query: string) =>
      ((await c.get(`${path(m2)}?company_id=${A}&page_size=500&${query}`)).json().items as { id: number }[]).map((x) => x.id);
    const me = await ids(aUser, 'assignee=me');
    expect(me).toContain(mine);
    expect(me).not.toContain(other);
    expect(me).not.toContain(none);
    const byId = await ids(admin, `assignee=${staffId}`);
    expect(byId).toContain(other);
    expect(byId).not.toContain(mine);
    const un = await ids(admin, 'assignee=none');
    expect(un).toContain(none);
    expect(un).not.toContain(mine);
    expect((await admin.get(`${path(m2)}?assignee=somebody`)).statusCode).toBe(400);
  });

  it('lists my events across modules, never in companies I cannot see', async () => {
    const inM1 = await ev(m1, A, { priority: 'critical' });
    const inM2 = await ev(m2, A, { priority: 'low', status: 'resolved' });
    await admin.patch(`${path(m1)}/${inM1}`, { assignee_id: aUserId });
    await admin.patch(`${path(m2)}/${inM2}`, { assignee_id: aUserId });
    // An assignment left in a company the user does not (any longer) belong to.
    const inB = await ev(m2, B);
    await q(`UPDATE events SET assignee_id = $1 WHERE id = $2`, [aUserId, inB]);
    const r = await aUser.get('/events/assigned?page_size=100');
    expect(r.statusCode, r.body).toBe(200);
    const items = r.json().items as { id: number; module: string; company_id: number; status_name: string }[];
    expect(items.map((x) => x.id)).toEqual(expect.arrayContaining([inM1, inM2]));
    expect(items.map((x) => x.id)).not.toContain(inB);
    expect(new Set(items.map((x) => x.module))).toEqual(new Set([m1.code, m2.code]));
    expect(items.every((x) => x.company_id === A)).toBe(true);
    expect(r.json().total).toBe(items.length);
    // Sorted by priority: the critical one first; `open=true` drops the resolved one.
    const byPriority = (await aUser.get('/events/assigned?sort=-priority')).json().items;
    expect(byPriority[0].id).toBe(inM1);
    const open = (await aUser.get('/events/assigned?open=true&page_size=100')).json().items as { id: number }[];
    expect(open.map((x) => x.id)).not.toContain(inM2);
    const resolved = (await aUser.get('/events/assigned?status=resolved')).json().items as { id: number }[];
    expect(resolved.map((x) => x.id)).toEqual([inM2]);
    const onlyM1 = (await aUser.get(`/events/assigned?module=${m1.code}`)).json().items as { module: string }[];
    expect(onlyM1.every((x) => x.module === m1.code)).toBe(true);
    expect((await aUser.get('/events/assigned?sort=title')).statusCode).toBe(400);
  });

  it('a personal queue: the nearest deadline first by default, none last; each item carries its SLA and assignee', async () => {
    // Its own company: the picker tests count the members of A.
    const D = (await createCompany(ctx, 'Эпсилон')).id;
    const user = await signedIn(ctx, 'queue@assign.test', 'COMPANY_USER', [{ id: D, role: 'COMPANY_ANALYST' }]);
    const uid = await userId('queue@assign.test');
    // Created in this order; deadlines: `late` overdue, `soon` within the hour, `calm` in days, `done` none.
    const calm = await ev(m1, D, { priority: 'low' });
    const late = await ev(m2, D, { priority: 'critical' });
    const done = await ev(m1, D, { priority: 'critical', status: 'resolved' });
    const soon = await ev(m1, D, { priority: 'critical' });
    for (const id of [calm, late, done, soon]) await q(`UPDATE events SET assignee_id = $1 WHERE id = $2`, [uid, id]);
    await q(`UPDATE events SET created_at = now() - interval '3 hours' WHERE id = $1`, [late]);
    const r = await user.get('/events/assigned?page_size=100');
    expect(r.statusCode, r.body).toBe(200);
    const items = r.json().items as {
      id: number;
      sla: { due_at: string | null; overdue: boolean };
      assignee_id: number;
      assignee_name: string;
    }[];
    expect(items.map((x) => x.id)).toEqual([late, soon, calm, done]);
    expect(items[0]?.sla.overdue).toBe(true);
    expect(items[3]?.sla.due_at).toBeNull();
    expect(items.every((x) => x.assignee_id === uid && typeof x.assignee_name === 'string')).toBe(true);
    const latest = (await user.get('/events/assigned?sort=-sla_due_at')).json().items as { id: number }[];
    expect(latest.map((x) => x.id)).toEqual([calm, soon, late, done]);
    const newest = (await user.get('/events/assigned?sort=-created_at')).json().items as { id: number }[];
    expect(newest.map((x) => x.id)).toEqual([soon, done, calm, late]);
  });
});

describe('picker and API keys', () => {
  it('lists who may be assigned: staff see staff and members; company callers only members', async () => {
    const staffView = (await admin.get(`/modules/${m2.code}/assignees?company_id=${A}`)).json().items as { id: number }[];
    expect(staffView.map((x) => x.id)).toEqual(expect.arrayContaining([staffId, aUserId, adminId]));
    expect(staffView.map((x) => x.id)).not.toContain(bUserId);
    expect(staffView.map((x) => x.id)).not.toContain(inactiveId);
    const own = (await aUser.get(`/modules/${m2.code}/assignees?company_id=${A}`)).json().items as { id: number }[];
    expect(own.map((x) => x.id)).toEqual([aUserId]);
    expect((await aUser.get(`/modules/${m2.code}/assignees?company_id=${B}`)).statusCode).toBe(404);
    // C takes only domains: its user is no candidate for another module.
    const inC = (await admin.get(`/modules/${m2.code}/assignees?company_id=${C}`)).json().items as { id: number }[];
    expect(inC.map((x) => x.id)).not.toContain(cUserId);
    const domainsC = (await admin.get(`/modules/${m1.code}/assignees?company_id=${C}`)).json().items as { id: number }[];
    expect(domainsC.map((x) => x.id)).toContain(cUserId);
    // Without a company: staff see staff only (they see every company); a company user their only company.
    const noCompany = (await admin.get(`/modules/${m2.code}/assignees`)).json().items as { id: number }[];
    expect(noCompany.map((x) => x.id)).toContain(staffId);
    expect(noCompany.map((x) => x.id)).not.toContain(aUserId);
    expect((await aUser.get(`/modules/${m2.code}/assignees`)).json().items).toEqual([
      { id: aUserId, name: 'a', email: 'a@assign.test' },
    ]);
    const byName = (await admin.get(`/modules/${m2.code}/assignees?company_id=${A}&q=Анна`)).json().items;
    expect(byName).toEqual([{ id: staffId, name: 'Анна Аналитик', email: 'staff@assign.test' }]);
  });

  it('a company key assigns within its company, sees only its members, has no «Мои события»', async () => {
    const id = await ev(m2, A);
    const r = await keyClient.patch(`${path(m2)}/${id}`, { assignee_id: aUserId }, keyHeaders);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().assignee_id).toBe(aUserId);
    const inB = await ev(m2, B);
    expect((await keyClient.patch(`${path(m2)}/${inB}`, { assignee_id: aUserId }, keyHeaders)).statusCode).toBe(404);
    const picker = (await keyClient.get(`/modules/${m2.code}/assignees?company_id=${A}`, keyHeaders)).json().items as {
      id: number;
    }[];
    expect(picker.map((x) => x.id)).toEqual([aUserId]);
    expect((await keyClient.get(`/modules/${m2.code}/assignees?company_id=${B}`, keyHeaders)).statusCode).toBe(404);
    expect((await keyClient.get('/events/assigned', keyHeaders)).statusCode).toBe(403);
  });
});

describe('assignment within the picker’s offer (issue #28.4)', () => {
  it('a company user or key cannot assign staff: 400 without the staff name, nothing changed, no notification', async () => {
    const id = await ev(m2, A);
    const before = (await notificationsOf(staffId)).length;
    for (const target of [staffId, adminId, inactiveId]) {
      const r = await aUser.patch(`${path(m2)}/${id}`, { assignee_id: target });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().message).toBe(ASSIGN_MSG.cannotSee);
      expect(r.body).not.toContain('Анна');
      const k = await keyClient.patch(`${path(m2)}/${id}`, { assignee_id: target }, keyHeaders);
      expect(k.statusCode, k.body).toBe(400);
    }
    // The batch and the bulk by filter follow the same rule.
    const batch = await aUser.patch(path(m2), { ids: [id], patch: { assignee_id: staffId } });
    expect(batch.statusCode, batch.body).toBe(400);
    const bulk = await aUser.post(`${path(m2)}/bulk?company_id=${A}`, { op: 'patch', patch: { assignee_id: staffId } });
    expect(bulk.statusCode, bulk.body).toBe(400);
    expect(await assigneeOf(id)).toBeNull();
    expect((await notificationsOf(staffId)).length).toBe(before);
    // What the picker offers is assignable: the company's own member.
    const offered = (await aUser.get(`/modules/${m2.code}/assignees?company_id=${A}`)).json().items as { id: number }[];
    for (const u of offered) expect((await aUser.patch(`${path(m2)}/${id}`, { assignee_id: u.id })).statusCode).toBe(200);
    // Staff may still assign staff.
    expect((await admin.patch(`${path(m2)}/${id}`, { assignee_id: staffId })).statusCode).toBe(200);
  });
});

describe('mailings', () => {
  it('the mailing filter selects by assignee; an assignee who cannot see the company is refused', async () => {
    const D = (await createCompany(ctx, 'Дельта')).id;
    const dUser = await createUser(ctx, {
      email: 'd@assign.test',
      role: 'COMPANY_USER',
      companies: [{ id: D, role: 'COMPANY_VIEWER' }],
    });
    const mine = await ev(m2, D);
    await ev(m2, D);
    await admin.patch(`${path(m2)}/${mine}`, { assignee_id: dUser.id });
    const filters = { modules: [m2.code], statuses: [], priorities: [], sources: [], tags: [], text: '' };
    const preview = (assignee: unknown) =>
      admin.post('/notifications/mailings/preview', { company_id: D, filters: { ...filters, assignee } });
    const byUser = await preview(dUser.id);
    expect(byUser.statusCode, byUser.body).toBe(200);
    expect(byUser.json()).toMatchObject({ count: 1, sample: [{ id: mine }] });
    expect((await preview('none')).json().count).toBe(1);
    expect((await preview(null)).json().count).toBe(2);
    const bad = await preview(bUserId);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields['filters.assignee']).toBe(ASSIGN_MSG.cannotSee);
  });
});
