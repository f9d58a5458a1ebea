/*
 * In-app notifications: produced by an assignment (never to oneself) and by @mentions in comments
 * (only users who may see the event), read and unread, strictly personal, closed to API keys.
 */

import { MODULE_LIST } from '@forpost/contract/modules';
import { mentionToken } from '@forpost/contract/notifications';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let ann: Client;
let bob: Client;
let annId: number;
let bobId: number;
let outsiderId: number;
let adminId: number;
let A: number;
const m = MODULE_LIST[0] as (typeof MODULE_LIST)[number];
const path = `/modules/${m.code}/events`;

const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
const idOf = async (email: string) =>
  (await q<{ id: number }>(`SELECT id FROM users WHERE email = $1`, [email]))[0]?.id as number;
const ev = async () => Number(await insertEvent(ctx, { companyId: A, module: m.code }));
const unread = async (c: Client) => (await c.get('/notifications/unread-count')).json().count as number;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN', name: 'Админ' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  const B = (await createCompany(ctx, 'Бета')).id;
  ann = await signedIn(ctx, 'ann@notify.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  bob = await signedIn(ctx, 'bob@notify.test', 'ANALYST');
  await createUser(ctx, { email: 'out@notify.test', role: 'COMPANY_USER', companies: [{ id: B, role: 'COMPANY_ANALYST' }] });
  annId = await idOf('ann@notify.test');
  bobId = await idOf('bob@notify.test');
  outsiderId = await idOf('out@notify.test');
  adminId = await idOf(ADMIN.email);
});

describe('produced', () => {
  it('by an assignment to someone else, linked to the event; not by assigning oneself', async () => {
    const id = await ev();
    expect((await admin.patch(`${path}/${id}`, { assignee_id: annId })).statusCode).toBe(200);
    const list = (await ann.get('/notifications')).json();
    expect(list.items[0]).toMatchObject({
      kind: 'assigned',
      event_id: id,
      company_id: A,
      module: m.code,
      actor_id: adminId,
      actor_name: 'Админ',
      read_at: null,
    });
    expect(list.unread).toBe(1);
    const own = await ev();
    expect((await bob.patch(`${path}/${own}`, { assignee_id: bobId })).statusCode).toBe(200);
    expect(await unread(bob)).toBe(0);
  });

  it('by @mentions in a comment: only users who may see the event, never the author, once per edit', async () => {
    const id = await ev();
    const before = await unread(ann);
    const text = `Посмотрите ${mentionToken('Анна', annId)} и ${mentionToken('Чужой', outsiderId)}, ${mentionToken('Я', bobId)}`;
    const c = await bob.post('/comments', { event_id: id, text });
    expect(c.statusCode, c.body).toBe(201);
    expect(await unread(ann)).toBe(before + 1);
    expect((await ann.get('/notifications?unread=true')).json().items[0]).toMatchObject({
      kind: 'mention',
      event_id: id,
      actor_id: bobId,
    });
    expect((await q(`SELECT 1 FROM notifications WHERE user_id = $1`, [outsiderId])).length).toBe(0);
    expect(await unread(bob)).toBe(0);
    // Editing the comment notifies only whom it newly mentions.
    const edit = await bob.patch(`/comments/${c.json().id}`, { text: `${text} ${mentionToken('Админ', adminId)}` });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await unread(ann)).toBe(before + 1);
    expect(await unread(admin)).toBe(1);
  });
});

describe('read and unread, personal', () => {
  it('marks read by ids and all; another user’s ids change nothing', async () => {
    for (let i = 0; i < 3; i++) await admin.patch(`${path}/${await ev()}`, { assignee_id: annId });
    const items = (await ann.get('/notifications?unread=true')).json().items as { id: number }[];
    expect(items.length).toBeGreaterThanOrEqual(3);
    // Bob cannot mark Ann's.
    expect((await bob.post('/notifications/read', { ids: [items[0]?.id] })).json()).toEqual({ updated: 0 });
    expect((await bob.get('/notifications')).json().items.map((x: { id: number }) => x.id)).not.toContain(items[0]?.id);
    const total = await unread(ann);
    expect((await ann.post('/notifications/read', { ids: [items[0]?.id] })).json()).toEqual({ updated: 1 });
    expect(await unread(ann)).toBe(total - 1);
    const all = (await ann.get('/notifications')).json();
    expect(all.items.find((x: { id: number }) => x.id === items[0]?.id).read_at).not.toBeNull();
    expect((await ann.post('/notifications/read', { all: true })).json()).toEqual({ updated: total - 1 });
    expect(await unread(ann)).toBe(0);
    expect((await ann.get('/notifications?unread=true')).json().items).toEqual([]);
    expect((await ann.post('/notifications/read', {})).statusCode).toBe(400);
    expect((await ann.get('/notifications?page_size=1000')).statusCode).toBe(400);
  });

  it('is closed to API keys and to anonymous callers', async () => {
    const key = await admin.post('/apikeys', { name: 'Ключ', company_id: A, roles: [{ module: '*', access: 'write' }] });
    const h = { authorization: `Bearer ${key.json().secret}` };
    const anon = new Client(ctx);
    expect((await anon.get('/notifications/unread-count', h)).statusCode).toBe(403);
    expect((await anon.post('/notifications/read', { all: true }, h)).statusCode).toBe(403);
    expect((await anon.get('/notifications')).statusCode).toBe(401);
  });
});

describe('@mentions: whom «@» offers and whom a comment notifies', () => {
  let olgaId: number;
  let petrId: number;
  let goneId: number;
  const names = (r: { json: () => { items: { name: string }[] } }) =>
    r
      .json()
      .items.map((u) => u.name)
      .sort();
  const offer = (c: Client, q: string) => c.get(`/modules/${m.code}/assignees?company_id=${A}&q=${encodeURIComponent(q)}`);

  beforeAll(async () => {
    await createUser(ctx, { email: 'olga.ivanova@mention.test', role: 'ANALYST', name: 'Ольга Иванова' });
    await createUser(ctx, {
      email: 'soc@severbank.mention.test',
      role: 'COMPANY_USER',
      name: 'Ирина Соколова',
      companies: [{ id: A, role: 'COMPANY_ADMIN' }],
    });
    await createUser(ctx, {
      email: 'petr@mention.test',
      role: 'COMPANY_USER',
      name: 'Пётр Семёнов',
      companies: [{ id: A, role: 'COMPANY_VIEWER' }],
    });
    await createUser(ctx, { email: 'gone@mention.test', role: 'ANALYST', name: 'Ольга Уволенная' });
    olgaId = await idOf('olga.ivanova@mention.test');
    petrId = await idOf('petr@mention.test');
    goneId = await idOf('gone@mention.test');
    await q(`UPDATE users SET is_active = false WHERE id = $1`, [goneId]);
  });

  it('filters by what is typed: name and e-mail, any case, «ё» as «е»', async () => {
    expect(names(await offer(admin, 'Оль'))).toEqual(['Ольга Иванова']);
    expect(names(await offer(admin, 'оль'))).toEqual(['Ольга Иванова']);
    expect(names(await offer(admin, 'Ир'))).toEqual(['Ирина Соколова']);
    expect(names(await offer(admin, 'ИРИНА'))).toEqual(['Ирина Соколова']);
    expect(names(await offer(admin, 'Петр'))).toEqual(['Пётр Семёнов']);
    expect(names(await offer(admin, 'семен'))).toEqual(['Пётр Семёнов']);
    expect(names(await offer(admin, 'СЁМ'))).toEqual(['Пётр Семёнов']);
    expect(names(await offer(admin, 'Ольга Соколова'))).toEqual([]);
    expect(names(await offer(admin, 'SEVERBANK'))).toEqual(['Ирина Соколова']);
    expect(names(await offer(admin, 'olga.iv'))).toEqual(['Ольга Иванова']);
  });

  it('offers everyone who can see the event: staff and the company’s users to staff, the company’s own to its users', async () => {
    const all = names(await offer(admin, ''));
    expect(all).toEqual(expect.arrayContaining(['Ольга Иванова', 'Ирина Соколова', 'Пётр Семёнов', 'ann']));
    expect(all).not.toContain('Ольга Уволенная');
    expect(all).not.toContain('out');
    // A company user is offered the company's users, never staff names.
    const mine = names(await ann.get(`/modules/${m.code}/assignees?q=${encodeURIComponent('о')}`));
    expect(mine).toEqual(['Ирина Соколова', 'Пётр Семёнов']);
  });

  it('notifies exactly the mentioned users who can see the event, with its title and the first line', async () => {
    const id = Number(await insertEvent(ctx, { companyId: A, module: m.code, title: 'Фишинговый домен severbank-login.ru' }));
    const olga = new Client(ctx);
    await olga.login('olga.ivanova@mention.test', ADMIN.password);
    const irina = new Client(ctx);
    await irina.login('soc@severbank.mention.test', ADMIN.password);
    const [o0, i0] = [await unread(olga), await unread(irina)];
    const text = `${mentionToken('Ольга Иванова', olgaId)}, проверьте, пожалуйста\nвторая строка ${mentionToken('X', goneId)}`;
    const c = await admin.post('/comments', { event_id: id, text });
    expect(c.statusCode, c.body).toBe(201);
    expect(await unread(olga)).toBe(o0 + 1);
    expect(await unread(irina)).toBe(i0);
    expect((await q(`SELECT 1 FROM notifications WHERE user_id = $1`, [goneId])).length).toBe(0);
    const n = (await olga.get('/notifications?unread=true')).json().items[0];
    expect(n).toMatchObject({ kind: 'mention', event_id: id, actor_name: 'Админ', count: 1 });
    expect(n.text).toContain('«Фишинговый домен severbank-login.ru»');
    expect(n.text).toContain('@Ольга Иванова, проверьте, пожалуйста');
    expect(n.text).not.toContain('вторая строка');
    expect(n.text).not.toContain('(user:');
  });

  it('a company user’s mention of someone who cannot see the event notifies nobody', async () => {
    const id = await ev();
    const before = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM notifications`))[0]?.n;
    const text = `${mentionToken('Чужой', outsiderId)} ${mentionToken('Ушедшая', goneId)}`;
    expect((await ann.post('/comments', { event_id: id, text })).statusCode).toBe(201);
    expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM notifications`))[0]?.n).toBe(before);
    // A mention of Пётр (who may see it) reaches him and only him.
    const p0 = (await q(`SELECT 1 FROM notifications WHERE user_id = $1`, [petrId])).length;
    expect((await ann.post('/comments', { event_id: id, text: `${mentionToken('Пётр', petrId)} глянь` })).statusCode).toBe(201);
    expect((await q(`SELECT 1 FROM notifications WHERE user_id = $1`, [petrId])).length).toBe(p0 + 1);
    expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM notifications`))[0]?.n).toBe((before ?? 0) + 1);
  });
});

describe('grouped for the bell', () => {
  it('folds alike unread ones (kind, company, module) into one item with their count, beyond the first page', async () => {
    const dana = await signedIn(ctx, 'dana@notify.test', 'ANALYST');
    const danaId = await idOf('dana@notify.test');
    const m2 = MODULE_LIST[1] as (typeof MODULE_LIST)[number];
    const id = await ev();
    await q(
      `INSERT INTO notifications (user_id, kind, event_id, company_id, module, text, created_at)
       SELECT $1, 'sla_breach', $2, $3, $4, 'Просрочен срок SLA №' || g, now() - (g || ' minutes')::interval
       FROM generate_series(1, 23) g`,
      [danaId, id, A, m.code],
    );
    await q(
      `INSERT INTO notifications (user_id, kind, event_id, company_id, module, text)
       VALUES ($1, 'sla_breach', NULL, $2, $3, 'другой модуль'), ($1, 'mention', $4, $2, $5, 'упоминание')`,
      [danaId, A, m2.code, id, m.code],
    );
    const r = await dana.get('/notifications?grouped=true&page_size=2');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.total).toBe(3);
    expect(body.unread).toBe(25);
    expect(body.items).toHaveLength(2);
    const all = (await dana.get('/notifications?grouped=true')).json().items as Record<string, unknown>[];
    const sla = all.find((x) => x.kind === 'sla_breach' && x.module === m.code);
    expect(sla).toMatchObject({ count: 23, company_id: A, event_id: null, text: 'Просрочен срок SLA №1' });
    expect(all.find((x) => x.module === m2.code)).toMatchObject({ count: 1 });
    expect(all.find((x) => x.kind === 'mention')).toMatchObject({ count: 1, event_id: id });
    // Ungrouped: every one of them.
    expect((await dana.get('/notifications')).json().total).toBe(25);
    // A group is read at once; read ones are not folded any more.
    const read = await dana.post('/notifications/read', { group: { kind: 'sla_breach', company_id: A, module: m.code } });
    expect(read.json()).toEqual({ updated: 23 });
    expect(await unread(dana)).toBe(2);
    const after = (await dana.get('/notifications?grouped=true&page_size=100')).json();
    expect(after.total).toBe(25);
    expect(after.items.every((x: { count: number }) => x.count === 1)).toBe(true);
  });
});
