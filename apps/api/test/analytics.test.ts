import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ANALYTICS_MSG, ANALYTICS_TZ, type MatrixResponse, type TimeSeriesResponse } from '@forpost/contract/analytics';
import { MODULE_CODES } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate';
import { insertEvent, refId } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let A: { id: number };
let B: { id: number };
const ids: Record<string, number> = {};
const Q = 'from=2026-03-01&to=2026-03-07';
const base = '/modules/analytics/dashboard';

const seriesOf = (r: TimeSeriesResponse, key: string) => r.series.find((s) => s.key === key);
const dayValue = (r: TimeSeriesResponse, key: string, day: string) => seriesOf(r, key)?.data[r.days.indexOf(day)] ?? 0;
/** A row as comparable text (numbers as numbers, whatever their SQL type). */
const line = (r: Record<string, unknown>) =>
  Object.keys(r)
    .sort()
    .map((k) => `${k}=${String(Number(r[k]) || r[k])}`)
    .join(' ');
/** Count deltas not yet folded. */
const pending = async () => Number((await ctx.database.db.execute(sql`SELECT count(*) AS n FROM event_count_deltas`)).rows[0]?.n);

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа-Банк');
  B = await createCompany(ctx, 'Бета');
  const ev = (name: string, e: Parameters<typeof insertEvent>[1]) =>
    insertEvent(ctx, { mlState: 'Done', ...e }).then((id) => (ids[name] = id));
  // Company A. Days are Moscow days: 2026-02-28T21:00Z is 2026-03-01 00:00 MSK.
  await ev('d1', { companyId: A.id, module: 'domains', createdAt: '2026-03-01T09:00:00Z', status: 'new', priority: 'critical' });
  await ev('d2', {
    companyId: A.id,
    module: 'domains',
    createdAt: '2026-03-01T22:00:00Z',
    status: 'in_progress',
    priority: 'high',
  });
  await ev('d3', { companyId: A.id, module: 'domains', createdAt: '2026-03-02T10:00:00Z', status: 'new' });
  await ev('d4', { companyId: A.id, module: 'domains', createdAt: '2026-02-28T20:59:00Z', status: 'new', priority: 'critical' });
  await ev('d5', {
    companyId: A.id,
    module: 'domains',
    createdAt: '2026-02-28T21:00:00Z',
    status: 'resolved',
    priority: 'critical',
  });
  await ev('a1', { companyId: A.id, module: 'accounts', createdAt: '2026-03-03T10:00:00Z', status: 'new', priority: 'low' });
  await ev('a2', {
    companyId: A.id,
    module: 'accounts',
    createdAt: '2026-03-03T11:00:00Z',
    status: 'resolved',
    priority: 'medium',
  });
  await ev('m1', { companyId: A.id, module: 'media', createdAt: '2026-03-04T10:00:00Z', data: { connotation: 'Negative' } });
  await ev('m2', { companyId: A.id, module: 'media', createdAt: '2026-03-04T11:00:00Z', data: { connotation: 'Positive' } });
  await ev('m3', { companyId: A.id, module: 'media', createdAt: '2026-03-05T11:00:00Z', data: {} });
  // Company B.
  await ev('b1', { companyId: B.id, module: 'domains', createdAt: '2026-03-01T10:00:00Z', status: 'new', priority: 'critical' });
  await ev('b2', { companyId: B.id, module: 'media', createdAt: '2026-03-04T10:00:00Z', data: { connotation: 'Negative' } });
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
});

async function get<T>(c: Client, path: string, q = Q): Promise<T> {
  const r = await c.get(`${base}/${path}?${q}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as T;
}

describe('dashboard figures match hand-computed counts', () => {
  it('new events per Moscow day and module', async () => {
    const r = await get<TimeSeriesResponse>(admin, 'common/newevents', `${Q}&company_id=${A.id}`);
    expect(r.days).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07']);
    expect(seriesOf(r, 'domains')?.data).toEqual([2, 2, 0, 0, 0, 0, 0]); // d1 + d5 (midnight MSK), d2 (01:00 MSK) + d3; d4 is 28.02
    expect(seriesOf(r, 'accounts')?.data).toEqual([0, 0, 2, 0, 0, 0, 0]);
    expect(seriesOf(r, 'media')?.data).toEqual([0, 0, 0, 2, 1, 0, 0]);
    expect(r.total).toBe(9);
    expect(r.series.map((s) => s.key)).toEqual(['domains', 'accounts', 'media']); // empty modules left out, registry order
    expect(seriesOf(r, 'domains')?.link).toEqual({ path: '/domains', query: {} });

    const all = await get<TimeSeriesResponse>(admin, 'common/newevents');
    expect(dayValue(all, 'domains', '2026-03-01')).toBe(3);
    expect(all.total).toBe(11);
    const onlyMedia = await get<TimeSeriesResponse>(admin, 'common/newevents', `${Q}&modules=media`);
    expect(onlyMedia.series.map((s) => s.key)).toEqual(['media']);
    expect(onlyMedia.total).toBe(4);
  });

  it('critical events, with the link to the filtered list', async () => {
    const r = await get<TimeSeriesResponse>(admin, 'common/criticalevents', `${Q}&company_id=${A.id}`);
    expect(r.series.map((s) => s.key)).toEqual(['domains']);
    expect(seriesOf(r, 'domains')?.data).toEqual([2, 0, 0, 0, 0, 0, 0]);
    expect(seriesOf(r, 'domains')?.link).toEqual({ path: '/domains', query: { priority: 'critical' } });
  });

  it('events by module and priority', async () => {
    const r = await get<MatrixResponse>(admin, 'common/priorityevents', `${Q}&company_id=${A.id}`);
    expect(r.categories.map((c) => c.key)).toEqual(['domains', 'accounts', 'media']);
    const row = (k: string) => r.series.find((s) => s.key === k)?.data;
    expect(row('critical')).toEqual([2, 0, 0]);
    expect(row('high')).toEqual([1, 0, 0]);
    expect(row('medium')).toEqual([0, 1, 0]);
    expect(row('low')).toEqual([0, 1, 0]);
    expect(row('none')).toEqual([1, 0, 3]);
    expect(r.series.map((s) => s.key)).toEqual(['critical', 'high', 'medium', 'low', 'none']);
    expect(r.total).toBe(9);
    const high = r.series.find((s) => s.key === 'high');
    expect(high?.links[0]).toEqual({ path: '/domains', query: { priority: 'high' } });
    expect(r.series.find((s) => s.key === 'none')?.links[2]).toBeNull();
  });

  it('media sentiment', async () => {
    const r = await get<TimeSeriesResponse>(admin, 'media/connotationevents', `${Q}&company_id=${A.id}`);
    expect(Object.fromEntries(r.series.map((s) => [s.key, s.total]))).toEqual({ Positive: 1, Negative: 1, Undefined: 1 });
    expect(dayValue(r, 'Negative', '2026-03-04')).toBe(1);
    expect(seriesOf(r, 'Negative')?.link).toEqual({ path: '/media', query: { connotation: 'Negative' } });
    const all = await get<TimeSeriesResponse>(admin, 'media/connotationevents');
    expect(seriesOf(all, 'Negative')?.total).toBe(2);
  });

  it('domains and accounts by status', async () => {
    const d = await get<TimeSeriesResponse>(admin, 'domains/events', `${Q}&company_id=${A.id}`);
    const sid = (code: string) => refId(ctx, 'status', 'domains', code);
    expect(seriesOf(d, String(await sid('new')))?.data.slice(0, 2)).toEqual([1, 1]);
    expect(seriesOf(d, String(await sid('in_progress')))?.total).toBe(1);
    expect(seriesOf(d, String(await sid('resolved')))?.total).toBe(1);
    expect(seriesOf(d, String(await sid('new')))?.link).toEqual({ path: '/domains', query: { status: 'new' } });
    const a = await get<TimeSeriesResponse>(admin, 'account/events', `${Q}&company_id=${A.id}`);
    expect(a.total).toBe(2);
    expect(a.series.map((s) => s.name).sort()).toEqual(['Новое', 'Решено']);
  });

  it('follows changes and deletions of events, and folding keeps the figures', async () => {
    const resolved = await refId(ctx, 'status', 'domains', 'resolved');
    await ctx.database.db.execute(sql`UPDATE events SET status_id = ${resolved} WHERE id = ${ids.d3}`);
    await ctx.database.db.execute(sql`UPDATE events SET title = 'только заголовок' WHERE id = ${ids.d2}`); // no count change
    await ctx.database.db.execute(sql`DELETE FROM events WHERE id = ${ids.d1}`);
    await ctx.database.db.execute(sql`UPDATE events SET data = data || '{"connotation":"Negative"}' WHERE id = ${ids.m3}`);

    const check = async () => {
      const d = await get<TimeSeriesResponse>(admin, 'domains/events', `${Q}&company_id=${A.id}`);
      expect(seriesOf(d, String(resolved))?.total).toBe(2);
      expect(seriesOf(d, String(await refId(ctx, 'status', 'domains', 'new')))?.total).toBeUndefined(); // d1 deleted, d3 resolved
      const c = await get<TimeSeriesResponse>(admin, 'common/criticalevents', `${Q}&company_id=${A.id}`);
      expect(c.total).toBe(1);
      const m = await get<TimeSeriesResponse>(admin, 'media/connotationevents', `${Q}&company_id=${A.id}`);
      expect(Object.fromEntries(m.series.map((s) => [s.key, s.total]))).toEqual({ Positive: 1, Negative: 2 });
      const n = await get<TimeSeriesResponse>(admin, 'common/newevents', `${Q}&company_id=${A.id}`);
      expect(n.total).toBe(8);
    };
    await check();
    expect(await pending()).toBeGreaterThan(0);
    const folded = await ctx.app.services.analytics.fold();
    expect(folded).toBeGreaterThan(0);
    expect(await pending()).toBe(0);
    await check();
    // The rollups equal a full GROUP BY over events.
    const f = { from: '2026-02-01', to: '2026-03-31', companies: 'all' as const, modules: [...MODULE_CODES] };
    const repo = ctx.app.services.analytics.repo;
    const fromRollup = (await repo.counts(f, ['day', 'module'] as const)).map(line).sort();
    const fromEvents = (await repo.countsFromEvents({ ...f, tz: ANALYTICS_TZ }, ['day', 'module'])).map(line).sort();
    expect(fromRollup).toEqual(fromEvents);
    expect(fromRollup.length).toBeGreaterThan(3);
    const st = (await repo.statusCounts(f, ['day', 'module', 'status_id'] as const)).map(line).sort();
    const stEvents = (await repo.statusCountsFromEvents({ ...f, tz: ANALYTICS_TZ })).map(line).sort();
    expect(st).toEqual(stEvents);
    // A full rebuild gives the same again.
    await ctx.app.services.analytics.repo.rebuild(ANALYTICS_TZ);
    await check();
    await ctx.app.services.analytics.fold();
    await check();
  });
});

describe('tenant scope and input', () => {
  it('a company user counts only their companies', async () => {
    const viewer = await signedIn(ctx, 'viewer-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    const mine = await get<TimeSeriesResponse>(viewer, 'common/newevents');
    const asAdmin = await get<TimeSeriesResponse>(admin, 'common/newevents', `${Q}&company_id=${A.id}`);
    expect(mine.total).toBe(asAdmin.total);
    expect(dayValue(mine, 'media', '2026-03-04')).toBe(2); // not B's Negative publication
    const other = await viewer.get(`${base}/common/newevents?${Q}&company_id=${B.id}`);
    expect(other.statusCode).toBe(404);
    const nobody = await signedIn(ctx, 'nobody@forpost.test', 'COMPANY_USER', []);
    expect((await nobody.get(`${base}/common/newevents?${Q}`)).statusCode).toBe(403);
  });

  it('refuses a bad period with a Russian message', async () => {
    const back = await admin.get(`${base}/common/newevents?from=2026-03-07&to=2026-03-01`);
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe(ANALYTICS_MSG.order);
    const long = await admin.get(`${base}/common/newevents?from=2024-01-01&to=2026-03-01`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(ANALYTICS_MSG.tooLong);
    const half = await admin.get(`${base}/common/newevents?from=2026-03-01`);
    expect(half.statusCode).toBe(400);
    const bad = await admin.get(`${base}/common/newevents?modules=domains,nope`);
    expect(bad.statusCode).toBe(400);
  });

  it('presets end today (Moscow)', async () => {
    const r = await get<TimeSeriesResponse>(admin, 'common/newevents', 'period=7d');
    expect(r.days).toHaveLength(7);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ANALYTICS_TZ }).format(new Date());
    expect(r.to).toBe(today);
    const def = await get<TimeSeriesResponse>(admin, 'common/newevents', '');
    expect(def.days).toHaveLength(30);
  });
});

describe('all-companies rollups (module × day)', () => {
  const P = 'from=2026-05-01&to=2026-05-03';
  const f = { from: '2026-05-01', to: '2026-05-03', companies: 'all' as const, modules: [...MODULE_CODES] };
  /** Everything the staff dashboard reads for the period equals a GROUP BY over `events`. */
  const exact = async () => {
    const repo = ctx.app.services.analytics.repo;
    expect((await repo.counts(f, ['day', 'module'] as const)).map(line).sort()).toEqual(
      (await repo.countsFromEvents({ ...f, tz: ANALYTICS_TZ }, ['day', 'module'])).map(line).sort(),
    );
    expect((await repo.statusCounts(f, ['day', 'module', 'status_id'] as const)).map(line).sort()).toEqual(
      (await repo.statusCountsFromEvents({ ...f, tz: ANALYTICS_TZ })).map(line).sort(),
    );
  };

  it('staff figures over every company, exact through a company deletion and the migration that fills them', async () => {
    const C = await createCompany(ctx, 'Гамма');
    const D = await createCompany(ctx, 'Дельта');
    for (const [companyId, n] of [
      [C.id, 3],
      [D.id, 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await insertEvent(ctx, {
          companyId,
          module: 'domains',
          createdAt: '2026-05-02T09:00:00Z',
          status: 'new',
          priority: 'critical',
        });
      }
      await insertEvent(ctx, {
        companyId,
        module: 'media',
        createdAt: '2026-05-03T09:00:00Z',
        data: { connotation: 'Negative' },
      });
    }
    await ctx.app.services.analytics.fold();
    const staff = async () => ({
      n: await get<TimeSeriesResponse>(admin, 'common/newevents', P),
      c: await get<TimeSeriesResponse>(admin, 'common/criticalevents', P),
      d: await get<TimeSeriesResponse>(admin, 'domains/events', P),
      m: await get<TimeSeriesResponse>(admin, 'media/connotationevents', P),
      p: await get<MatrixResponse>(admin, 'common/priorityevents', P),
    });
    const newId = String(await refId(ctx, 'status', 'domains', 'new'));
    let s = await staff();
    expect(dayValue(s.n, 'domains', '2026-05-02')).toBe(5);
    expect(s.n.total).toBe(7);
    expect(dayValue(s.c, 'domains', '2026-05-02')).toBe(5);
    expect(dayValue(s.d, newId, '2026-05-02')).toBe(5);
    expect(dayValue(s.m, 'Negative', '2026-05-03')).toBe(2);
    expect(s.p.categories.map((x) => x.key)).toEqual(['domains', 'media']);
    expect(s.p.series.find((x) => x.key === 'critical')?.data).toEqual([5, 0]);
    await exact();

    // The company goes (its events by cascade): its rows leave the per-company rollups at once, the
    // all-companies totals lose them through the pending deltas, then through the fold.
    await ctx.database.db.execute(sql`DELETE FROM companies WHERE id = ${C.id}`);
    expect(await pending()).toBeGreaterThan(0);
    const afterDeletion = async () => {
      s = await staff();
      expect(dayValue(s.n, 'domains', '2026-05-02')).toBe(2);
      expect(s.n.total).toBe(3);
      expect(dayValue(s.d, newId, '2026-05-02')).toBe(2);
      expect(dayValue(s.m, 'Negative', '2026-05-03')).toBe(1);
      expect(s.p.total).toBe(3);
      await exact();
    };
    await afterDeletion();

    // The upgrade's migration fills the all-companies rollups from the per-company ones while such
    // deltas are pending: replay it on emptied tables.
    const file = path.join(MIGRATIONS_DIR, '0018_analytics_module_day_fill.sql');
    const statements = readFileSync(file, 'utf8').split('--> statement-breakpoint');
    await ctx.database.db.execute(sql`DELETE FROM event_module_day_counts`);
    await ctx.database.db.execute(sql`DELETE FROM event_module_day_status_counts`);
    const client = await ctx.database.pool.connect();
    try {
      await client.query('BEGIN');
      for (const st of statements) await client.query(st);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await pending()).toBeGreaterThan(0);
    await afterDeletion();
    await ctx.app.services.analytics.fold();
    expect(await pending()).toBe(0);
    await afterDeletion();
    // The figures of the earlier tests' period, too (rebuilt rollups, all companies).
    const all = { ...f, from: '2026-02-01', to: '2026-03-31' };
    const repo = ctx.app.services.analytics.repo;
    expect((await repo.counts(all, ['module'] as const)).map(line).sort()).toEqual(
      (await repo.countsFromEvents({ ...all, tz: ANALYTICS_TZ }, ['module'])).map(line).sort(),
    );
  });

  it('a company user never reads the all-companies rollups', async () => {
    const viewer = await signedIn(ctx, 'viewer-d@forpost.test', 'COMPANY_USER', [{ id: B.id, role: 'COMPANY_VIEWER' }]);
    const mine = await get<TimeSeriesResponse>(viewer, 'common/newevents', P);
    expect(mine.total).toBe(0); // Дельта's events are in the all-companies rows of these days, not B's
    const asAdmin = await get<TimeSeriesResponse>(admin, 'common/newevents', P);
    expect(asAdmin.total).toBe(3);
  });
});

describe('answer cache (exact: checked against the rollups on every request)', () => {
  const P = 'from=2026-07-01&to=2026-07-03';
  const svc = () => ctx.app.services.analytics;
  const foldAll = async () => {
    while ((await svc().fold()) > 0) {}
  };
  let C: { id: number };
  beforeAll(async () => {
    C = await createCompany(ctx, 'Кэш');
    await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-01T09:00:00Z', status: 'new' });
    await foldAll();
  });

  it('serves a repeated request from the cache and follows every change at once, folded or not', async () => {
    const q = `${P}&company_id=${C.id}`;
    const first = await get<TimeSeriesResponse>(admin, 'account/events', q);
    expect(first.total).toBe(1);
    const before = svc().cacheStats();
    const again = await get<TimeSeriesResponse>(admin, 'account/events', q);
    expect(again).toEqual(first);
    expect(svc().cacheStats().hits).toBe(before.hits + 1);

    // A write outside the app (the triggers' delta is pending): the cached rollup rows plus the pending
    // deltas read with the generation — exact at once, and still a cache hit (no rollup read).
    await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-02T09:00:00Z', status: 'new' });
    const pending = svc().cacheStats();
    const withDelta = await get<TimeSeriesResponse>(admin, 'account/events', q);
    expect(withDelta.total).toBe(2);
    expect(dayValue(withDelta, withDelta.series[0]?.key ?? '', '2026-07-02')).toBe(1);
    expect((await get<TimeSeriesResponse>(admin, 'account/events', q)).total).toBe(2);
    expect(svc().cacheStats()).toMatchObject({ hits: pending.hits + 2, misses: pending.misses });
    // A deletion is a negative delta: counted at once too.
    await ctx.database.db.execute(sql`DELETE FROM events WHERE company_id = ${C.id} AND created_at = '2026-07-02T09:00:00Z'`);
    expect((await get<TimeSeriesResponse>(admin, 'account/events', q)).total).toBe(1);
    await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-02T09:00:00Z', status: 'new' });

    // Folded: no delta pending any more, but the generation moved — the old answer is never served.
    await get<TimeSeriesResponse>(admin, 'account/events', q);
    await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-03T09:00:00Z', status: 'resolved' });
    await foldAll();
    const folded = await get<TimeSeriesResponse>(admin, 'account/events', q);
    expect(folded.total).toBe(3);
    expect(folded.series.map((s) => s.total).sort()).toEqual([1, 2]);
    const hits = svc().cacheStats().hits;
    expect((await get<TimeSeriesResponse>(admin, 'account/events', q)).total).toBe(3);
    expect(svc().cacheStats().hits).toBe(hits + 1);

    // A rebuild (repair) raises the generation too.
    await ctx.database.db.execute(sql`DELETE FROM events WHERE company_id = ${C.id} AND created_at = '2026-07-01T09:00:00Z'`);
    await svc().repo.rebuild(ANALYTICS_TZ);
    await foldAll();
    expect((await get<TimeSeriesResponse>(admin, 'account/events', q)).total).toBe(2);
  });

  it('a fold between the session check and the cache read is never missed', async () => {
    const q = `${P}&company_id=${C.id}`;
    const repo = svc().repo;
    const cached = await get<TimeSeriesResponse>(admin, 'account/events', q); // an entry at the current generation
    // A delta pending elsewhere: the session check says «pending», so the cache reads the filter's deltas.
    await insertEvent(ctx, { companyId: A.id, module: 'media', createdAt: '2026-01-10T10:00:00Z', data: {} });
    const original = repo.withGeneration;
    let raced = false;
    // Right before that read, an event of this filter is written and folded: no delta of it is left,
    // only the generation shows the rollups moved.
    repo.withGeneration = async (...args) => {
      if (!raced) {
        raced = true;
        await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-03T10:00:00Z', status: 'new' });
        await foldAll();
      }
      return original(...(args as Parameters<typeof original>));
    };
    try {
      const after = await get<TimeSeriesResponse>(admin, 'account/events', q);
      expect(raced).toBe(true);
      expect(after.total).toBe(cached.total + 1);
    } finally {
      repo.withGeneration = original;
    }
  });

  it('an API key (no session check state) gets the same exact answers through its own generation read', async () => {
    const key = (
      await admin.post('/apikeys', { name: 'Дашборд', company_id: C.id, roles: [{ module: 'accounts', access: 'read' }] })
    ).json();
    const anon = new Client(ctx);
    const byKey = async () => {
      const r = await anon.get(`${base}/account/events?${P}&company_id=${C.id}`, { authorization: `Bearer ${key.secret}` });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as TimeSeriesResponse;
    };
    const first = await byKey();
    expect(first).toEqual(await get<TimeSeriesResponse>(admin, 'account/events', `${P}&company_id=${C.id}`));
    const hits = svc().cacheStats().hits;
    expect(await byKey()).toEqual(first);
    expect(svc().cacheStats().hits).toBe(hits + 1);
    // Deltas of another company do not touch this filter: still served from the cache.
    await insertEvent(ctx, { companyId: A.id, module: 'accounts', createdAt: '2026-07-02T12:00:00Z', status: 'new' });
    expect(await byKey()).toEqual(first);
    expect(svc().cacheStats().hits).toBe(hits + 2);
    // Deltas of this company: counted at once.
    await insertEvent(ctx, { companyId: C.id, module: 'accounts', createdAt: '2026-07-02T12:00:00Z', status: 'new' });
    expect((await byKey()).total).toBe(first.total + 1);
    await foldAll();
    expect((await byKey()).total).toBe(first.total + 1);
  });

  it('keys answers by the resolved scope: a company user never gets a staff answer', async () => {
    const viewer = await signedIn(ctx, 'viewer-cache@forpost.test', 'COMPANY_USER', [{ id: C.id, role: 'COMPANY_VIEWER' }]);
    await insertEvent(ctx, { companyId: A.id, module: 'media', createdAt: '2026-07-01T10:00:00Z', data: {} });
    await foldAll();
    const all = await get<TimeSeriesResponse>(admin, 'common/newevents', P);
    expect((await get<TimeSeriesResponse>(admin, 'common/newevents', P)).total).toBe(all.total);
    const mine = await get<TimeSeriesResponse>(viewer, 'common/newevents', P);
    const asAdmin = await get<TimeSeriesResponse>(admin, 'common/newevents', `${P}&company_id=${C.id}`);
    expect(mine).toEqual(asAdmin);
    expect(all.total).toBeGreaterThan(mine.total); // the all-companies answer includes other companies' events
    // Modules limit the answer (and the key).
    const media = await get<TimeSeriesResponse>(admin, 'common/newevents', `${P}&modules=media`);
    expect(media.series.every((s) => s.key === 'media')).toBe(true);
  });
});
