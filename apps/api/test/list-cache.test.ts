/*
 * The event list pages kept for a moment per instance (modules/events/list-cache.ts), with both caches
 * on as npm start runs them: a repeated page costs no statement; a page is never another scope's; any
 * change of events, company or user names — through the API of this instance, of another one, or
 * by SQL of its own — is in the next page; the clock alone turning an item overdue is too.
 */
import { MODULES } from '@forpost/contract/modules';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotifyCache } from '../src/db/notify-cache';
import { firstSlaTurn } from '../src/modules/events/list-cache';
import { ADMIN, Client, createCompany, createUser, setupApp, setupSecondApp, signedIn, type TestContext } from './helpers';
import { statements } from './statement-log';

let ctx: TestContext;
let two: TestContext;
let admin: Client;
let A: number;
let B: number;
const idsOf: Record<number, number[]> = {};
const LIST = '/modules/domains/events?page=1&page_size=20&sort=-created_at';
const caches = (c: TestContext) => [c.app.services.listCache, c.app.services.access];
/** Every change committed so far has reached both instances' caches. */
const synced = async () => {
  for (const c of [...caches(ctx), ...caches(two)]) await c.sync();
};
type Page = {
  items: { id: number; title: string; company_name: string; assignee_id: number | null; sla: { overdue: boolean } }[];
};
const page = async (c: Client, url = LIST, h?: Record<string, string>) => {
  const r = await c.get(url, h);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Page & { total: number };
};

beforeAll(async () => {
  ctx = await setupApp({ ACCESS_CACHE_MS: '5000', LIST_CACHE_MS: '60000' });
  two = await setupSecondApp(ctx);
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  for (const [company, n] of [
    [A, 3],
    [B, 2],
  ] as const) {
    idsOf[company] = [];
    for (let i = 0; i < n; i++) {
      const r = await admin.post('/modules/domains/events', { ...MODULES.domains.sample(company * 10 + i), company_id: company });
      expect(r.statusCode, r.body).toBe(201);
      idsOf[company]?.push(r.json().id);
    }
  }
  await synced();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('event list pages kept per instance', () => {
  it('a repeated page costs no statement; another query, page size or scope is read', async () => {
    const first = await admin.get(LIST);
    const again = await statements(() => admin.get(LIST));
    expect(again, again.join('\n')).toHaveLength(0);
    expect((await admin.get(LIST)).body).toBe(first.body);
    expect(await statements(() => admin.get(LIST.replace('page_size=20', 'page_size=50')))).not.toHaveLength(0);
    expect(await statements(() => admin.get(`${LIST}&company_id=${A}`))).not.toHaveLength(0);
  });

  it('right after a change, clients asking at once share one read', async () => {
    await page(admin);
    ctx.app.services.listCache.clear();
    const logs = await Promise.all(Array.from({ length: 10 }, () => statements(() => admin.get(LIST))));
    expect(logs.flat(), logs.flat().join('\n')).toHaveLength(1);
  });

  it('never answers a page of another scope', async () => {
    await page(admin); // all companies, kept
    const keyOf = async (company: number) => {
      const r = await admin.post('/apikeys', {
        name: `Ключ ${company}`,
        company_id: company,
        roles: [{ module: 'domains', access: 'read' }],
      });
      expect(r.statusCode, r.body).toBe(201);
      return { authorization: `Bearer ${r.json().secret}` };
    };
    const [ka, kb] = [await keyOf(A), await keyOf(B)];
    const anon = new Client(ctx);
    for (let round = 0; round < 2; round++) {
      expect((await page(anon, LIST, ka)).items.map((i) => i.id).sort()).toEqual([...(idsOf[A] ?? [])].sort());
      expect((await page(anon, LIST, kb)).items.map((i) => i.id).sort()).toEqual([...(idsOf[B] ?? [])].sort());
    }
    // A company outside the key's scope is refused on every request, whatever is kept.
    for (let round = 0; round < 2; round++) expect((await anon.get(`${LIST}&company_id=${B}`, ka)).statusCode).toBe(404);
    // A viewer of company A only: its own page, not the admin's.
    const viewer = await signedIn(ctx, 'viewer@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
    expect((await page(viewer)).items.every((i) => idsOf[A]?.includes(i.id))).toBe(true);
  });

  it('«assignee=me» is each caller’s own page', async () => {
    const me = await createUser(ctx, { email: 'analyst@forpost.test', role: 'SUPER_ADMIN' });
    const analyst = new Client(ctx);
    await analyst.login('analyst@forpost.test', ADMIN.password);
    const id = idsOf[A]?.[0] as number;
    const r = await admin.patch(`/modules/domains/events/${id}`, { assignee_id: me.id });
    expect(r.statusCode, r.body).toBe(200);
    const mine = `${LIST}&assignee=me`;
    expect((await page(analyst, mine)).items.map((i) => i.id)).toEqual([id]);
    expect((await page(admin, mine)).items).toEqual([]);
    expect((await page(analyst, mine)).items.map((i) => i.id)).toEqual([id]);
  });

  it('a change through this instance is in its very next page; through another one, once announced', async () => {
    const id = idsOf[A]?.[1] as number;
    const there = new Client(two);
    await there.login(ADMIN.email, ADMIN.password);
    await page(there);
    await page(admin);
    const r = await admin.patch(`/modules/domains/events/${id}`, { title: 'Переименовано здесь' });
    expect(r.statusCode, r.body).toBe(200);
    // this instance: no wait at all
    expect((await page(admin)).items.find((i) => i.id === id)?.title).toBe('Переименовано здесь');
    // the other: the NOTIFY of the change has arrived
    await synced();
    expect((await page(there)).items.find((i) => i.id === id)?.title).toBe('Переименовано здесь');

    // created on the other instance
    const created = await there.post('/modules/domains/events', { ...MODULES.domains.sample(99), company_id: B });
    expect(created.statusCode, created.body).toBe(201);
    await synced();
    const after = await page(admin);
    expect(after.items.map((i) => i.id)).toContain(created.json().id);
    idsOf[B]?.push(created.json().id);
  });

  it('a change made by SQL of its own (another process) — events, company and user names', async () => {
    await page(admin);
    const id = idsOf[B]?.[0] as number;
    await ctx.database.pool.query(`UPDATE events SET title = 'Из psql' WHERE id = $1`, [id]);
    await synced();
    expect((await page(admin)).items.find((i) => i.id === id)?.title).toBe('Из psql');

    await ctx.database.pool.query(`UPDATE companies SET name = 'Бета-2' WHERE id = $1`, [B]);
    await synced();
    expect((await page(admin)).items.find((i) => i.id === id)?.company_name).toBe('Бета-2');

    await ctx.database.pool.query('DELETE FROM events WHERE id = $1', [id]);
    await synced();
    expect((await page(admin)).items.map((i) => i.id)).not.toContain(id);
  });

  it('is not kept past the moment an item turns overdue by the clock alone', async () => {
    const id = idsOf[A]?.[2] as number;
    await ctx.database.pool.query(
      `UPDATE events SET sla_due_at = now() + interval '20 seconds', sla_stage = 'triage', triaged_at = NULL, resolved_at = NULL WHERE id = $1`,
      [id],
    );
    await synced();
    expect((await page(admin)).items.find((i) => i.id === id)?.sla.overdue).toBe(false);
    expect(await statements(() => admin.get(LIST))).toHaveLength(0);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    expect((await page(admin)).items.find((i) => i.id === id)?.sla.overdue).toBe(true);
  });

  it('first SLA turn of a page: the earliest due still ahead, +1 ms (overdue is after the due time)', () => {
    const now = Date.parse('2026-11-28T12:00:00.000Z');
    const item = (due: string | null) => ({ sla: { due_at: due } });
    expect(firstSlaTurn({ items: [] }, now)).toBeNull();
    expect(firstSlaTurn({ items: [item(null), item('2026-11-28T11:00:00.000Z')] }, now)).toBeNull();
    expect(firstSlaTurn({ items: [item('2026-11-28T15:00:00.000Z'), item('2026-11-28T13:00:00.000Z'), item(null)] }, now)).toBe(
      Date.parse('2026-11-28T13:00:00.000Z') + 1,
    );
    expect(firstSlaTurn({ items: [item('2026-11-28T12:00:00.000Z')] }, now)).toBe(now + 1);
  });

  it('holds at most its weight: the oldest pages go, a page heavier than all of it is not kept', async () => {
    const cache = createNotifyCache<{ n: number }>({
      pool: ctx.database.pool,
      log: { warn() {} },
      channels: ['forpost_events'],
      ttlMs: 60_000,
      maxEntries: 5,
      weigh: (v) => v.n,
      expiresAt: () => null,
    });
    try {
      await cache.sync(); // LISTEN up
      const reads: string[] = [];
      const get = (key: string, n: number) =>
        cache.through(key, async () => {
          reads.push(key);
          return { n };
        });
      await get('a', 3);
      await get('b', 2);
      await get('a', 3);
      expect(reads).toEqual(['a', 'b']);
      await get('c', 1); // 6 > 5: the oldest, a, goes
      await get('b', 2);
      await get('a', 3);
      expect(reads).toEqual(['a', 'b', 'c', 'a']);
      await get('huge', 9);
      await get('huge', 9);
      expect(reads.filter((k) => k === 'huge')).toHaveLength(2);
      expect(cache.size).toBeLessThanOrEqual(3);
    } finally {
      await cache.close();
    }
  });
});
