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
