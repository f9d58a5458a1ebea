/*
 * The request path's database round trips, counted: every statement a request sends (through any pool
 * client, inside or outside a transaction) is recorded while that request runs, by the async context of
 * the request (AsyncLocalStorage), so background work of the same app (rollup folding, jobs) is not
 * counted. The counts are asserted: a change that adds a round trip to the hot path fails here
 * (issue #18, goal 1; docs/decisions.md «Путь запроса: сколько запросов к базе»).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MODULES } from '@forpost/contract/modules';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

const store = new AsyncLocalStorage<string[]>();
const origQuery = pg.Client.prototype.query;
// biome-ignore lint/suspicious/noExplicitAny: the pg query signature is overloaded
(pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
  const log = store.getStore();
  if (log) {
    const q = args[0] as string | { text?: string; name?: string };
    log.push(typeof q === 'string' ? q : (q.name ?? q.text ?? '?'));
  }
  // biome-ignore lint/suspicious/noExplicitAny: forwarded as is
  return (origQuery as any).apply(this, args);
};
afterAll(() => {
  pg.Client.prototype.query = origQuery;
});

let ctx: TestContext;
let admin: Client;
let eventId: number;
let bearer: Record<string, string>;

/** The statements one request sent, with its status code. */
async function statements(fn: () => Promise<{ statusCode: number; body: string }>) {
  const log: string[] = [];
  const r = await store.run(log, fn);
  expect(r.statusCode, r.body).toBe(200);
  return log;
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  const A = await createCompany(ctx, 'Альфа');
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

  it('a session-cookie list, detail and an API-key list', async () => {
    // Warm: the first request of each kind may prepare statements or fill caches.
    await admin.get(LIST);
    await admin.get(`/modules/domains/events/${eventId}`);
    const anon = new Client(ctx);
    await anon.get(LIST, bearer);

    const list = await statements(() => admin.get(LIST));
    const detail = await statements(() => admin.get(`/modules/domains/events/${eventId}`));
    const keyList = await statements(() => anon.get(LIST, bearer));
    // Session (with memberships and touch-due) in one; the page with its total (the page is full), a
    // named statement (db/sql.ts preparedRowsOf): the first page of a list is planned once per connection.
    expect(list, list.join('\n')).toHaveLength(2);
    expect(list[0]).toBe('forpost_auth_live_access');
    expect(list[1]).toMatch(/^forpost_[0-9a-f]{20}$/);
    // A later page is not named (its OFFSET is in the text: deep pages would fill the bounded set).
    const later = await statements(() => admin.get(LIST.replace('page=1', 'page=2')));
    expect(later, later.join('\n')).toHaveLength(2);
    expect(later[1]).toMatch(/^\s*WITH page AS MATERIALIZED/);
    // Session; the event with its comment count and files, a named statement.
    expect(detail, detail.join('\n')).toHaveLength(2);
    expect(detail[1]).toMatch(/^forpost_[0-9a-f]{20}$/);
    // The key (owner, company, membership, use-due) in one prepared statement; the rate window; page and total.
    expect(keyList, keyList.join('\n')).toHaveLength(3);
    expect(keyList[0]).toBe('forpost_apikey_auth');
    expect(keyList.some((q) => /^update "api_keys"/.test(q))).toBe(false);
  });

  it('a key use is still recorded when due; a revoked key or session stops at once', async () => {
    const anon = new Client(ctx);
    await ctx.database.pool.query(`UPDATE api_keys SET last_used_at = now() - interval '1 minute'`);
    const due = await statements(() => anon.get(LIST, bearer));
    expect(due.filter((q) => /^update "api_keys"/.test(q))).toHaveLength(1);
    const [k] = (await ctx.database.pool.query(`SELECT last_used_at > now() - interval '10 seconds' AS fresh FROM api_keys`))
      .rows;
    expect(k.fresh).toBe(true);

    // Nothing of the principal is cached between requests: a revocation applies to the next one.
    await ctx.database.pool.query('UPDATE api_keys SET is_active = false');
    expect((await anon.get(LIST, bearer)).statusCode).toBe(401);
    const other = new Client(ctx);
    await other.login(ADMIN.email, ADMIN.password);
    expect((await other.get(LIST)).statusCode).toBe(200);
    await ctx.database.pool.query('UPDATE sessions SET revoked_at = now()');
    expect((await other.get(LIST)).statusCode).toBe(401);
  });
});
