/* Tags (global reference data with a colour) and comments (author within 15 minutes, or an admin). */
import { COMMENT_MSG } from '@forpost/contract/comments';
import { MSG } from '@forpost/contract/messages';
import { EVENT_MSG, MODULES } from '@forpost/contract/modules';
import { TAG_MSG } from '@forpost/contract/tags';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let staff: Client; // ANALYST: settings.manage, not an admin
let a1: Client;
let a2: Client;
let A: { id: number };

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  const as = async (
    email: string,
    role: 'ANALYST' | 'COMPANY_USER',
    companies: { id: number; role: 'COMPANY_ANALYST' }[] = [],
  ) => {
    await createUser(ctx, { email, role, companies });
    const c = new Client(ctx);
    await c.login(email, ADMIN.password);
    return c;
  };
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  staff = await as('staff@forpost.test', 'ANALYST');
  a1 = await as('a1@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  a2 = await as('a2@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
});

describe('tags', () => {
  it('create, list with search, rename, recolour; names unique case-insensitively; colours validated', async () => {
    const t = await staff.post('/tags', { name: 'Фишинг' });
    expect(t.statusCode).toBe(201);
    expect(t.json()).toMatchObject({ name: 'Фишинг', color: '#1677ff' });
    expect((await staff.post('/tags', { name: '  фишинг ' })).json().message).toBe(TAG_MSG.duplicate);
    expect((await staff.post('/tags', { name: 'Плохой цвет', color: 'red' })).json().data.fields.color).toBe(EVENT_MSG.color);
    expect((await staff.post('/tags', { name: '' })).json().data.fields.name).toBe(MSG.required);
    await staff.post('/tags', { name: 'Мошенничество', color: '#fa8c16' });
    const list = (await a1.get('/tags?q=фиш')).json();
    expect(list.items.map((x: { name: string }) => x.name)).toEqual(['Фишинг']);
    expect((await a1.get('/tags')).json().total).toBe(2);
    const p = await staff.patch(`/tags/${t.json().id}`, { name: 'Фишинг-сайт', color: '#F5222D' });
    expect(p.json()).toMatchObject({ name: 'Фишинг-сайт', color: '#f5222d' });
    expect((await staff.patch(`/tags/${t.json().id}`, { name: 'мошенничество' })).statusCode).toBe(409);
    expect((await staff.get('/tags/999999')).json().message).toBe(TAG_MSG.notFound);
  });

  it('deleting a tag removes it from every event', async () => {
    const keep = (await staff.post('/tags', { name: 'Оставить' })).json();
    const gone = (await staff.post('/tags', { name: 'Удалить' })).json();
    const ev = (await a1.post('/modules/domains/events', { ...MODULES.domains.sample(1), tags: [keep.id, gone.id] })).json();
    expect(ev.tags).toEqual([keep.id, gone.id]);
    expect((await a1.get(`/modules/domains/events?tags=${gone.id}`)).json().total).toBe(1);
    expect((await staff.del(`/tags/${gone.id}`)).statusCode).toBe(204);
    expect((await a1.get(`/modules/domains/events/${ev.id}`)).json().tags).toEqual([keep.id]);
    expect((await a1.get(`/modules/domains/events?tags=${gone.id}`)).json().total).toBe(0);
    const audit = await ctx.database.pool.query("SELECT count(*)::int AS n FROM audit_log WHERE action = 'tag.delete'");
    expect(audit.rows[0].n).toBe(1);
  });
});

describe('tag usage and merge', () => {
  it("counts events per tag within the caller's companies; merging moves events to the target and deletes the source", async () => {
    const B = await createCompany(ctx, 'Бета-теги');
    const src = (await staff.post('/tags', { name: 'Слить' })).json();
    const dst = (await staff.post('/tags', { name: 'Цель' })).json();
    const e1 = (await a1.post('/modules/consulting/events', { ...MODULES.consulting.sample(101), tags: [src.id] })).json();
    const e2 = (
      await a1.post('/modules/consulting/events', { ...MODULES.consulting.sample(102), tags: [src.id, dst.id] })
    ).json();
    await staff.post('/modules/consulting/events', { ...MODULES.consulting.sample(103), company_id: B.id, tags: [src.id] });
    const usage = (c: Client) =>
      c
        .get('/tags/usage')
        .then((r) => Object.fromEntries(r.json().items.map((x: { id: number; events_count: number }) => [x.id, x.events_count])));
    // Staff see every company; a company user counts only their own company's events.
    expect(await usage(staff)).toMatchObject({ [src.id]: 3, [dst.id]: 1 });
    expect(await usage(a1)).toMatchObject({ [src.id]: 2, [dst.id]: 1 });

    expect((await staff.post(`/tags/${src.id}/merge`, { target_id: src.id })).json().message).toBe(TAG_MSG.mergeSame);
    expect((await staff.post(`/tags/${src.id}/merge`, { target_id: 999999 })).json().message).toBe(TAG_MSG.mergeTarget);
    expect((await a1.post(`/tags/${src.id}/merge`, { target_id: dst.id })).statusCode).toBe(403);
    const m = await staff.post(`/tags/${src.id}/merge`, { target_id: dst.id });
    expect(m.statusCode).toBe(200);
    expect(m.json()).toMatchObject({ target: { id: dst.id, name: 'Цель' }, events_updated: 3 });
    expect((await a1.get(`/modules/consulting/events/${e1.id}`)).json().tags).toEqual([dst.id]);
    expect((await a1.get(`/modules/consulting/events/${e2.id}`)).json().tags).toEqual([dst.id]);
    expect((await staff.get(`/tags/${src.id}`)).statusCode).toBe(404);
    expect(await usage(staff)).toMatchObject({ [dst.id]: 3 });
    const audit = await ctx.database.pool.query("SELECT count(*)::int AS n FROM audit_log WHERE action = 'tag.merge'");
    expect(audit.rows[0].n).toBe(1);
  });
});

describe('comments', () => {
  it('plain text up to 5000 characters, listed in order with authors', async () => {
    const ev = (await a1.post('/modules/consulting/events', MODULES.consulting.sample(1))).json();
    const c1 = await a1.post('/comments', { event_id: ev.id, text: '  Проверил, это фишинг <b>точно</b>  ' });
    expect(c1.statusCode).toBe(201);
    expect(c1.json()).toMatchObject({
      text: 'Проверил, это фишинг <b>точно</b>',
      author_name: 'a1',
      edited: false,
      can_edit: true,
    });
    await a2.post('/comments', { event_id: ev.id, text: 'Согласен' });
    expect((await a1.post('/comments', { event_id: ev.id, text: 'я'.repeat(5001) })).json().data.fields.text).toBe(
      MSG.tooLong(5000),
    );
    expect((await a1.post('/comments', { event_id: ev.id, text: '   ' })).json().data.fields.text).toBe(MSG.required);
    expect((await a1.post('/comments', { event_id: 999999, text: 'x' })).json().message).toBe(EVENT_MSG.eventNotFound);
    const list = (await a1.get(`/comments?event_id=${ev.id}`)).json();
    expect(list.items.map((c: { text: string; can_edit: boolean }) => [c.text, c.can_edit])).toEqual([
      ['Проверил, это фишинг <b>точно</b>', true],
      ['Согласен', false],
    ]);
    expect((await a1.get(`/modules/consulting/events/${ev.id}`)).json().comments_count).toBe(2);
    expect((await a1.get('/comments')).statusCode).toBe(400);
  });

  it('only the author edits or deletes, within 15 minutes; an admin always can', async () => {
    const ev = (await a1.post('/modules/consulting/events', MODULES.consulting.sample(2))).json();
    const c = (await a1.post('/comments', { event_id: ev.id, text: 'Первая версия' })).json();
    const other = await a2.patch(`/comments/${c.id}`, { text: 'Чужая правка' });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(COMMENT_MSG.notAuthor);
    expect((await staff.patch(`/comments/${c.id}`, { text: 'Правка аналитика' })).statusCode).toBe(403);
    const own = await a1.patch(`/comments/${c.id}`, { text: 'Вторая версия' });
    expect(own.statusCode).toBe(200);
    expect(own.json().text).toBe('Вторая версия');
    // 16 minutes later the author can no longer change it.
    await ctx.database.pool.query(
      "UPDATE event_comments SET created_at = now() - interval '16 minutes', updated_at = now() - interval '16 minutes' WHERE id = $1",
      [c.id],
    );
    const late = await a1.patch(`/comments/${c.id}`, { text: 'Поздно' });
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe(COMMENT_MSG.editWindow);
    expect((await a1.del(`/comments/${c.id}`)).statusCode).toBe(403);
    expect((await a1.get(`/comments/${c.id}`)).json()).toMatchObject({ text: 'Вторая версия', can_edit: false });
    const byAdmin = await admin.patch(`/comments/${c.id}`, { text: 'Исправлено администратором' });
    expect(byAdmin.json()).toMatchObject({ text: 'Исправлено администратором', edited: true });
    expect((await admin.del(`/comments/${c.id}`)).statusCode).toBe(204);
    expect((await a1.get(`/comments/${c.id}`)).statusCode).toBe(404);
  });

  it('comments go with their event', async () => {
    const ev = (await a1.post('/modules/consulting/events', MODULES.consulting.sample(3))).json();
    const c = (await a1.post('/comments', { event_id: ev.id, text: 'Удалится вместе с событием' })).json();
    expect((await admin.del(`/modules/consulting/events/${ev.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/comments/${c.id}`)).statusCode).toBe(404);
  });
});
