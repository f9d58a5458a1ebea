/*
 * The request path's database round trips, counted (statement-log.ts). The counts are asserted: a
 * change that adds a round trip to the hot path fails here (issue #18, goal 1; docs/decisions.md
 * «Путь запроса: сколько запросов к базе»). The list pages' cache is off here (what a page costs when
 * it is read); list-cache.test.ts has it on.
 */
import { MODULES } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, setupSecondApp, type TestContext } from './helpers';
import { statements } from './statement-log';

let ctx: TestContext;
let admin: Client;
let eventId: number;
let companyId: number;
let bearer: Record<string, string>;

beforeAll(async () => {
  // The access cache as npm start runs it (helpers.ts turns it off elsewhere).
  ctx = await setupApp({ ACCESS_CACHE_MS: '5000' });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  const A = await createCompany(ctx, 'Альфа');
  companyId = A.id;
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  for (let i = 0; i < 25; i++) {
    const r = await admin.post('/modules/domains/events', { ...MODULES.domains.sample(i), company_id: A.id });
    expect(r.statusCode, r.body).toBe(201);
    eventId = r.json().id;
  }
  const key = (
    await admin.post('/apikeys', { name: 'Чтение', company_id: A.id, roles: [{ module: 'domains', access: 'read' }] })
  ).json();
  bearer = { authorization: `Bearer ${key.secret}` };
});

describe('round trips per request', () => {
  const LIST = '/modules/domains/events?page=1&page_size=20';
  const access = () => ctx.app.services.access;

  it('a session-cookie list, detail and an API-key list', async () => {
    await access().sync(); // LISTEN up: the cache keeps what it reads
    // Warm: the first request of each kind may prepare statements or fill caches.
    await admin.get(LIST);
    await admin.get(`/modules/domains/events/${eventId}`);
    const anon = new Client(ctx);
    await anon.get(LIST, bearer);

    // Who the caller is was read by the warm-up (auth/access-cache.ts): the page with its total (the
    // page is full) is the one statement, named (db/sql.ts preparedRowsOf): planned once per connection.
    const list = await statements(() => admin.get(LIST));
    const detail = await statements(() => admin.get(`/modules/domains/events/${eventId}`));
    const keyList = await statements(() => anon.get(LIST, bearer));
    expect(list, list.join('\n')).toHaveLength(1);
    expect(list[0]).toMatch(/^forpost_[0-9a-f]{20}$/);
    // The event with its comment count and files, a named statement.
    expect(detail, detail.join('\n')).toHaveLength(1);
    expect(detail[0]).toMatch(/^forpost_[0-9a-f]{20}$/);
    // The key's rate window (counted across instances, never cached); page and total.
    expect(keyList, keyList.join('\n')).toHaveLength(2);
    expect(keyList.some((q) => /^update "api_keys"/.test(q) || q === 'forpost_apikey_auth')).toBe(false);
    // A later page is not named (its OFFSET is in the text: deep pages would fill the bounded set).
    const later = await statements(() => admin.get(LIST.replace('page=1', 'page=2')));
    expect(later, later.join('\n')).toHaveLength(1);
    expect(later[0]).toMatch(/^\s*WITH page AS MATERIALIZED/);

    // Not cached (first request of a session, or after a change): one more statement — session,
    // memberships and touch-due in one; the key (owner, company, membership, use-due) in one.
    access().clear();
    const cold = await statements(() => admin.get(LIST));
    expect(cold, cold.join('\n')).toHaveLength(2);
    expect(cold[0]).toBe('forpost_auth_live_access');
    const coldKey = await statements(() => anon.get(LIST, bearer));
    expect(coldKey, coldKey.join('\n')).toHaveLength(3);
    expect(coldKey[0]).toBe('forpost_apikey_auth');
  });

  it('a key use is still recorded when due, read again', async () => {
    const anon = new Client(ctx);
    await ctx.database.pool.query(`UPDATE api_keys SET last_used_at = now() - interval '1 minute'`);
    // The use record announces no change of access: the cached key stays, no write.
    await access().sync();
    expect((await statements(() => anon.get(LIST, bearer))).filter((q) => /^update "api_keys"/.test(q))).toHaveLength(0);
    expect(access().size).toBeGreaterThan(0);
    // Read again (the entry's seconds are over, or any change): the due use is written.
    access().clear();
    const due = await statements(() => anon.get(LIST, bearer));
    expect(due.filter((q) => /^update "api_keys"/.test(q))).toHaveLength(1);
    const [k] = (await ctx.database.pool.query(`SELECT last_used_at > now() - interval '10 seconds' AS fresh FROM api_keys`))
      .rows;
    expect(k.fresh).toBe(true);
  });

  it('a change of access made anywhere reaches every instance; one made here, the next request', async () => {
    const two = await setupSecondApp(ctx);
    const here = new Client(ctx);
    await here.login(ADMIN.email, ADMIN.password);
    const cookie = here.cookies.get('fp_access') ?? '';
    const sid = cookie.split('.')[0];
    const there = new Client(two);
    there.cookies.set('fp_access', cookie);
    await two.app.services.access.sync();
    await access().sync();
    expect((await there.get(LIST)).statusCode).toBe(200);
    expect((await here.get(LIST)).statusCode).toBe(200);
    expect(two.app.services.access.size).toBeGreaterThan(0);

    // A session's touch (last seen, idle deadline later) announces nothing: the entry stays.
    await ctx.database.pool.query(
      `UPDATE sessions SET last_seen_at = now(), idle_expires_at = idle_expires_at + interval '1 minute' WHERE id = $1`,
      [sid],
    );
    await two.app.services.access.sync();
    expect(two.app.services.access.size).toBeGreaterThan(0);

    // Revoked with SQL of its own (another process): once announced, refused on both instances.
    await ctx.database.pool.query('UPDATE sessions SET revoked_at = now() WHERE id = $1', [sid]);
    await two.app.services.access.sync();
    await access().sync();
    expect(two.app.services.access.size).toBe(0);
    expect((await admin.get(LIST)).statusCode).toBe(200); // another session: unaffected
    expect((await there.get(LIST)).statusCode).toBe(401);
    expect((await here.get(LIST)).statusCode).toBe(401);

    // Through the API of this instance: the very next request here sees it, with no wait.
    const key = await admin.post('/apikeys', { name: 'Отзыв', company_id: companyId, roles: [{ module: '*', access: 'read' }] });
    expect(key.statusCode, key.body).toBe(201);
    const auth = { authorization: `Bearer ${key.json().secret}` };
    const anon = new Client(ctx);
    expect((await anon.get(LIST, auth)).statusCode).toBe(200);
    expect((await anon.get(LIST, auth)).statusCode).toBe(200);
    expect((await admin.del(`/apikeys/${key.json().id}`)).statusCode).toBe(204);
    expect((await anon.get(LIST, auth)).statusCode).toBe(401);
  });
});
