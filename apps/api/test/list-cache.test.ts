/*
 * The event list pages kept for a moment per instance (modules/events/list-cache.ts), with both caches
 * on as npm start runs them: a repeated page costs no statement; a page is never another scope's; any
 * change of events, company or user names — through the API of this instance, of another one, or
 * by SQL of its own — is in the next page; the clock alone turning an item overdue is too.
 */
import { MODULES } from '@forpost/contract/modules';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotifyCache } from '../src/db/notify-cache';
import { firstSlaTurn } from '../src/modules/events/list/list-cache';
import {
  ADMIN,
  Client,
  createCompany,
  createUser,
  eventually,
  setupApp,
  setupSecondApp,
  signedIn,
  type TestContext,
} from './helpers';
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
    const viewer = await signedIn(ctx, 'viewer@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
    const anon = new Client(ctx);
    // all companies, kept (the writes above dropped what was kept before)
    const all = await page(admin);
    expect(await statements(() => admin.get(LIST))).toHaveLength(0);
    expect(all.items.map((i) => i.id)).toEqual(expect.arrayContaining([...(idsOf[A] ?? []), ...(idsOf[B] ?? [])]));
    for (let round = 0; round < 2; round++) {
      expect((await page(anon, LIST, ka)).items.map((i) => i.id).sort()).toEqual([...(idsOf[A] ?? [])].sort());
      expect((await page(anon, LIST, kb)).items.map((i) => i.id).sort()).toEqual([...(idsOf[B] ?? [])].sort());
      // a viewer of company A only: its own page, not the admin's
      expect((await page(viewer)).items.map((i) => i.id).sort()).toEqual([...(idsOf[A] ?? [])].sort());
    }
    // A company outside the key's scope is refused on every request, whatever is kept.
    for (let round = 0; round < 2; round++) expect((await anon.get(`${LIST}&company_id=${B}`, ka)).statusCode).toBe(404);
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
    // inside rules too, however the JSON spells it («\u006de» is «me»)
    for (const rule of ['[{"assignee":"me"}]', '[{"assignee":"\\u006de"}]']) {
      const url = `${LIST}&rules=${encodeURIComponent(rule)}`;
      expect((await page(analyst, url)).items.map((i) => i.id)).toEqual([id]);
      expect((await page(admin, url)).items).toEqual([]);
    }
  });

  it('a change through this instance is in its very next page; through another one, once announced', async () => {
    const id = idsOf[A]?.[1] as number;
    const there = new Client(two);
    await there.login(ADMIN.email, ADMIN.password);
    await page(there);
    await page(admin);
    // this instance: dropped by the write itself before its answer (plugins/access.ts onSend), not by
    // the NOTIFY (that one calls the cache's inner clear, not this method)
    const cleared = vi.spyOn(ctx.app.services.listCache, 'clear');
    const r = await admin.patch(`/modules/domains/events/${id}`, { title: 'Переименовано здесь' });
    expect(r.statusCode, r.body).toBe(200);
    expect(cleared).toHaveBeenCalled();
    cleared.mockRestore();
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

    // the assignee's name (the event of company A assigned to the analyst above)
    await ctx.database.pool.query(`UPDATE users SET name = 'Аналитик Переименованный' WHERE email = 'analyst@forpost.test'`);
    await synced();
    const assigned = (await page(admin)).items.find((i) => i.id === idsOf[A]?.[0]) as unknown as { assignee_name: string };
    expect(assigned.assignee_name).toBe('Аналитик Переименованный');

    await ctx.database.pool.query('DELETE FROM events WHERE id = $1', [id]);
    await synced();
    expect((await page(admin)).items.map((i) => i.id)).not.toContain(id);

    // a statement that changed no row announces nothing (the classifier's pollers send such every 2 s)
    await page(admin);
    await ctx.database.pool.query(`UPDATE events SET ml_state = 'SentToML' WHERE id = -1`);
    await ctx.database.pool.query('DELETE FROM events WHERE id = -1');
    await synced();
    expect(await statements(() => admin.get(LIST))).toHaveLength(0);
  });

  it('without its LISTEN connection an instance keeps no page; reconnected, it keeps them again', async () => {
    const id = idsOf[A]?.[1] as number;
    const listen = "application_name LIKE 'forpost-listen-forpost_events%'";
    await page(admin);
    await ctx.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND ${listen}`,
    );
    // A change while nobody hears it (its NOTIFY is lost) is still in the next pages.
    await ctx.database.pool.query(`UPDATE events SET title = 'Без LISTEN' WHERE id = $1`, [id]);
    const title = async () => (await page(admin)).items.find((i) => i.id === id)?.title;
    expect(await eventually(title, (t) => t === 'Без LISTEN')).toBe('Без LISTEN');
    // Back: both instances listen again, and pages are kept again.
    const listening = async () =>
      (
        await ctx.database.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND ${listen}`,
        )
      ).rows[0].n as number;
    expect(await eventually(listening, (n) => n >= 2, 10_000)).toBeGreaterThanOrEqual(2);
    await synced();
    await page(admin);
    expect(await statements(() => admin.get(LIST))).toHaveLength(0);
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

  it('first SLA turn of a page: the earliest due of an item shown not overdue, +1 ms (overdue is after the due time)', () => {
    const item = (due: string | null, overdue = false) => ({ sla: { due_at: due, overdue } });
    expect(firstSlaTurn({ items: [] })).toBeNull();
    expect(firstSlaTurn({ items: [item(null), item('2026-11-28T11:00:00.000Z', true)] })).toBeNull();
    expect(firstSlaTurn({ items: [item('2026-11-28T15:00:00.000Z'), item('2026-11-28T13:00:00.000Z'), item(null)] })).toBe(
      Date.parse('2026-11-28T13:00:00.000Z') + 1,
    );
    // due while the page was read (shown not overdue, the moment already past): the page's end is in
    // the past, so it is not kept at all
    expect(firstSlaTurn({ items: [item('2000-01-01T00:00:00.000Z')] })).toBe(Date.parse('2000-01-01T00:00:00.000Z') + 1);
  });

  it('holds at most its weight: the oldest pages go, a page heavier than all of it is not kept', async () => {
    const cache = createNotifyCache<{ n: number }>({
      pool: ctx.database.pool,
      log: { warn() {} },
      channels: ['forpost_events'],
      ttlMs: 60_000,
      maxWeight: 5,
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
