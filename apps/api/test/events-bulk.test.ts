/*
 * Bulk actions of every module, on the collection: batch PATCH/DELETE of /modules/{code}/events (all
 * or nothing, history and audit per event), the collection-level actions of the modules with actions,
 * and «все N по фильтру» (at once up to BULK_INLINE_MAX, otherwise a pg-boss job with progress that
 * resumes after its last chunk) — tenant-scoped for signed-in users and company API keys.
 */
import { API_MSG } from '@forpost/contract/errors';
import { BULK_CHUNK, BULK_INLINE_MAX, BULK_MSG, type BulkJob } from '@forpost/contract/events-bulk';
import { EVENT_MSG, MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { waitFor } from './imports-kit';

let ctx: TestContext;
let admin: Client;
/** Analyst of company A. */
let aUser: Client;
/** Analyst of A, viewer of B: may read both, change only A. */
let mixed: Client;
/** An API key of company A (write on every module), sent by a client without a session. */
let keyClient: Client;
let keyHeaders: Record<string, string>;
let A: number;
let B: number;
let tagId: number;
let otherTagId: number;
/** An id no event has. */
const GHOST = 2_000_000_000;
const bosses: PgBoss[] = [];

/** Ids in ascending order (bigint ids come back as text from SQL). */
const sorted = (ids: readonly unknown[]) => ids.map(Number).sort((a, b) => a - b);
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
const path = (m: ModuleDescriptor) => `/modules/${m.code}/events`;

/** Status ids of a module: the initial one and another. */
async function statusesOf(m: ModuleDescriptor): Promise<{ initial: number; other: number }> {
  const rows = await q<{ id: number; code: string }>(`SELECT id, code FROM event_statuses WHERE module = $1 ORDER BY id`, [
    m.code,
  ]);
  const initial = rows.find((r) => r.code === 'new')?.id as number;
  return { initial, other: rows.find((r) => r.id !== initial)?.id as number };
}
const events = (m: ModuleDescriptor, companyId: number, n: number, tags: number[] = []) =>
  Promise.all(Array.from({ length: n }, () => insertEvent(ctx, { companyId, module: m.code, tags })));
const statusOf = async (id: number) =>
  (await q<{ status_id: number }>(`SELECT status_id FROM events WHERE id = $1`, [id]))[0]?.status_id;
const historyOf = (id: number) =>
  q<{ action: string; field: string | null; after: unknown }>(
    `SELECT action, field, after FROM event_history WHERE event_id = $1`,
    [id],
  );
const auditSince = (mark: number) =>
  q<{ action: string; entity_id: string | null; company_id: number | null; meta: Record<string, unknown> | null }>(
    `SELECT action, entity_id, company_id, meta FROM audit_log WHERE id > $1 ORDER BY id`,
    [mark],
  );
const auditMark = async () => (await q<{ id: number | null }>(`SELECT max(id)::int AS id FROM audit_log`))[0]?.id ?? 0;

/** Bulk events straight in the database (the job test needs more than BULK_INLINE_MAX). */
async function manyEvents(m: ModuleDescriptor, companyId: number, n: number, tag: number): Promise<number[]> {
  const rows = await q<{ id: number }>(
    `INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, tags, data, search)
     SELECT $1, $2, 'Событие ' || g, (SELECT id FROM event_statuses WHERE module = $2 AND code = 'new'), 'Other', 'NotDetermined',
            md5(random()::text || g), ARRAY[$3]::int[], '{}'::jsonb, to_tsvector('simple', 'Событие ' || g)
       FROM generate_series(1, $4) g RETURNING id`,
    [companyId, m.code, tag, n],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

async function attachBulk(work: boolean): Promise<PgBoss> {
  const quiet = { warn() {}, info() {}, error() {} };
  const boss = await startJobs(ctx.url, quiet, work);
  await ctx.app.services.bulk.attach(boss, { work });
  bosses.push(boss);
  return boss;
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'a@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
  mixed = await signedIn(ctx, 'mixed@forpost.test', 'COMPANY_USER', [
    { id: A, role: 'COMPANY_ANALYST' },
    { id: B, role: 'COMPANY_VIEWER' },
  ]);
  const key = await admin.post('/apikeys', { name: 'Ключ Альфы', company_id: A, roles: [{ module: '*', access: 'write' }] });
  expect(key.statusCode, key.body).toBe(201);
  keyHeaders = { authorization: `Bearer ${key.json().secret}` };
  keyClient = new Client(ctx);
  tagId = (await admin.post('/tags', { name: 'Массовое', color: '#f5222d' })).json().id;
  otherTagId = (await admin.post('/tags', { name: 'Другое', color: '#8c8c8c' })).json().id;
});

afterAll(async () => {
  for (const b of bosses) await b.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
});

describe.each(MODULE_LIST.map((m) => [m.code, m] as const))('%s: batch PATCH and DELETE on the collection', (_code, m) => {
  it('one bad id or value changes nothing; a valid batch changes every event with history and audit', async () => {
    const st = await statusesOf(m);
    const mine = await events(m, A, 3);
    const foreign = (await events(m, B, 1))[0] as number;
    const mark = await auditMark();

    // An unknown id, or an event of a company the caller cannot see: 404 naming them, nothing changes.
    for (const [who, bad] of [
      [admin, GHOST],
      [aUser, foreign],
    ] as const) {
      const r = await who.patch(path(m), { ids: [...mine, bad], patch: { status_id: st.other } });
      expect(r.statusCode, r.body).toBe(404);
      expect(r.json()).toMatchObject({ message: EVENT_MSG.batchNotFound, data: { ids: [bad] } });
    }
    // A value the module does not know, and a malformed body: 400 in the error shape, nothing changes.
    const unknown = await admin.patch(path(m), { ids: mine, patch: { status_id: GHOST } });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json()).toMatchObject({
      message: EVENT_MSG.unknownStatus,
      data: { fields: { status_id: EVENT_MSG.unknownStatus } },
    });
    const malformed = await admin.patch(path(m), { ids: mine, patch: { status_id: 'новый' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().data.fields['patch.status_id']).toBe(EVENT_MSG.integer);
    for (const id of mine) {
      expect(await statusOf(id)).toBe(st.initial);
      expect(await historyOf(id)).toEqual([]);
    }
    expect(await auditSince(mark)).toEqual([]);

    const ok = await aUser.patch(path(m), { ids: mine, patch: { status_id: st.other, tags_add: [tagId] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ids: sorted(mine), count: 3, undo_token: expect.any(String) });
    for (const id of mine) {
      expect(await statusOf(id)).toBe(st.other);
      const h = await historyOf(id);
      expect(h.map((x) => x.field).sort()).toEqual(['status_id', 'tags']);
    }
    const [entry, ...rest] = await auditSince(mark);
    expect(rest).toEqual([]);
    expect(entry?.action).toBe('event.batch_update');
    expect(sorted(entry?.meta?.ids as number[])).toEqual(sorted(mine));

    // Delete: an unknown id refuses the whole batch; then every event goes, each with its audit entry.
    const refused = await admin.req('DELETE', path(m), { ids: [mine[0], GHOST] });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: EVENT_MSG.batchNotFound, data: { ids: [GHOST] } });
    const before = await auditMark();
    const del = await admin.req('DELETE', path(m), { ids: mine });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().count).toBe(3);
    expect((await q(`SELECT id FROM events WHERE id = ANY($1::bigint[])`, [mine])).length).toBe(0);
    const deleted = await auditSince(before);
    expect(deleted.map((e) => e.action)).toEqual(['event.delete', 'event.delete', 'event.delete']);
    expect(sorted(deleted.map((e) => e.entity_id))).toEqual(sorted(mine));
    expect(deleted.every((e) => e.company_id === A)).toBe(true);
    expect(await statusOf(foreign)).toBe(st.initial);
  });
});

describe('tenant isolation of the batch changes', () => {
  const m = MODULE_LIST[0] as ModuleDescriptor;

  it('a company API key reaches only its company’s events', async () => {
    const st = await statusesOf(m);
    const [a1, a2] = await events(m, A, 2);
    const [b1] = await events(m, B, 1);
    const mixedBatch = await keyClient.patch(path(m), { ids: [a1, b1], patch: { status_id: st.other } }, keyHeaders);
    expect(mixedBatch.statusCode).toBe(404);
    expect(mixedBatch.json()).toMatchObject({ message: EVENT_MSG.batchNotFound, data: { ids: [b1] } });
    expect(await statusOf(a1 as number)).toBe(st.initial);
    const ok = await keyClient.patch(path(m), { ids: [a1, a2], patch: { status_id: st.other } }, keyHeaders);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await statusOf(a2 as number)).toBe(st.other);
    expect(await statusOf(b1 as number)).toBe(st.initial);
  });

  it('an event the caller may read but not change refuses the batch with 403', async () => {
    const st = await statusesOf(m);
    const [a1] = await events(m, A, 1);
    const [b1] = await events(m, B, 1);
    const r = await mixed.patch(path(m), { ids: [a1, b1], patch: { status_id: st.other } });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ message: EVENT_MSG.batchForbidden, data: { ids: [b1] } });
    expect(await statusOf(a1 as number)).toBe(st.initial);
  });
});

const withActions = MODULE_LIST.filter((m) => m.actions?.length);

describe('collection-level actions', () => {
  it('are mounted exactly for the modules whose descriptor has actions', async () => {
    expect(withActions.length).toBeGreaterThan(0);
    const doc = (await admin.get('/openapi.json')).json();
    for (const m of MODULE_LIST) {
      const op = doc.paths[`/api/v1/modules/${m.code}/events/actions`]?.post;
      expect(Boolean(op), m.code).toBe(Boolean(m.actions?.length));
    }
  });

  it.each(withActions.map((m) => [m.code, m] as const))(
    '%s: one action for a list of events, each recorded on its event; all or nothing',
    async (_code, m) => {
      const action = m.actions?.find((a) => a.code === 'takedown') ?? m.actions?.[0];
      if (!action) throw new Error('no action');
      const ids = await events(m, A, 2);
      const [foreign] = await events(m, B, 1);
      const mark = await auditMark();
      const refused = await aUser.post(`${path(m)}/actions`, { ids: [...ids, foreign], action: action.code });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ message: EVENT_MSG.batchNotFound, data: { ids: [foreign] } });
      const unknown = await aUser.post(`${path(m)}/actions`, { ids, action: 'explode' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(EVENT_MSG.actionUnknown);
      for (const id of ids) expect(await historyOf(id)).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);

      const r = await aUser.post(`${path(m)}/actions`, { ids, action: action.code, comment: 'Срочно' });
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json();
      expect(body).toMatchObject({ ids: sorted(ids), count: 2, action: action.code, label: action.label });
      expect(body.items.map((i: { id: number }) => i.id)).toEqual(body.ids);
      for (const id of ids) {
        const h = await historyOf(id);
        expect(h).toEqual([{ action: 'action', field: action.code, after: expect.objectContaining({ comment: 'Срочно' }) }]);
      }
      const audit = await auditSince(mark);
      expect(audit.map((e) => e.action)).toEqual(['event.action', 'event.action']);
      expect(sorted(audit.map((e) => e.entity_id))).toEqual(sorted(ids));

      // The same through the company's API key; another company's event stays out of its reach.
      const byKey = await keyClient.post(`${path(m)}/actions`, { ids: [ids[0], foreign], action: action.code }, keyHeaders);
      expect(byKey.statusCode).toBe(404);
      expect(await historyOf(foreign as number)).toEqual([]);
    },
  );

  it('a module without actions has no such endpoint', async () => {
    const m = MODULE_LIST.find((x) => !x.actions?.length) as ModuleDescriptor;
    const [id] = await events(m, A, 1);
    const r = await admin.post(`${path(m)}/actions`, { ids: [id], action: 'takedown' });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(API_MSG.routeNotFound);
  });
});

describe('«все N по фильтру»', () => {
  const m = MODULE_LIST[MODULE_LIST.length - 1] as ModuleDescriptor;

  it(`up to ${BULK_INLINE_MAX} events: at once, with history and audit, only what the filter selects`, async () => {
    const st = await statusesOf(m);
    const hit = await events(m, A, 3, [otherTagId]);
    const miss = await events(m, A, 2);
    const mark = await auditMark();
    const r = await aUser.post(`${path(m)}/bulk?tags=${otherTagId}`, { op: 'patch', patch: { status_id: st.other } });
    expect(r.statusCode, r.body).toBe(200);
    const job = r.json() as BulkJob;
    expect(job).toMatchObject({ module: m.code, op: 'patch', status: 'done', total: 3, processed: 3, stalled: false });
    for (const id of hit) {
      expect(await statusOf(id)).toBe(st.other);
      expect((await historyOf(id)).map((h) => h.field)).toEqual(['status_id']);
    }
    for (const id of miss) expect(await statusOf(id)).toBe(st.initial);
    const audit = await auditSince(mark);
    expect(audit.map((e) => e.action)).toEqual(['event.bulk_start', 'event.batch_update', 'event.bulk_done']);
    expect(audit[0]).toMatchObject({ entity_id: String(job.id), company_id: A });
    expect((await aUser.get(`${path(m)}/bulk/${job.id}`)).json()).toEqual(job);
  });

  it('the list’s own filter: its 400 for a bad value; an empty patch is refused', async () => {
    const bad = await aUser.post(`${path(m)}/bulk?status=abc`, { op: 'patch', patch: { status_id: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.status).toBe(EVENT_MSG.csvInts);
    const paging = await aUser.post(`${path(m)}/bulk?page=2`, { op: 'patch', patch: { status_id: 1 } });
    expect(paging.statusCode).toBe(400);
    const empty = await aUser.post(`${path(m)}/bulk`, { op: 'patch', patch: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(BULK_MSG.emptyPatch);
  });

  it('events the caller may read but not change refuse the whole operation (403, nothing changes)', async () => {
    const st = await statusesOf(m);
    const tag = (await admin.post('/tags', { name: 'Смешанные', color: '#8c8c8c' })).json().id;
    const [a1] = await events(m, A, 1, [tag]);
    const [b1] = await events(m, B, 1, [tag]);
    const r = await mixed.post(`${path(m)}/bulk?tags=${tag}`, { op: 'patch', patch: { status_id: st.other } });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe(EVENT_MSG.batchForbidden);
    expect(await statusOf(a1 as number)).toBe(st.initial);
    // Narrowed to the company it may change, the same filter goes through.
    const ok = await mixed.post(`${path(m)}/bulk?tags=${tag}&company_id=${A}`, { op: 'patch', patch: { status_id: st.other } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await statusOf(a1 as number)).toBe(st.other);
    expect(await statusOf(b1 as number)).toBe(st.initial);
    // A viewer may not delete at all.
    expect((await mixed.req('DELETE', `${path(m)}/bulk?tags=${tag}&company_id=${B}`)).statusCode).toBe(403);
    expect(await statusOf(b1 as number)).toBe(st.initial);
  });

  it('an API key’s filter covers only its company; a job is seen only by who started it', async () => {
    const st = await statusesOf(m);
    const tag = (await admin.post('/tags', { name: 'Ключ', color: '#8c8c8c' })).json().id;
    const [a1] = await events(m, A, 1, [tag]);
    const [b1] = await events(m, B, 1, [tag]);
    const r = await keyClient.post(`${path(m)}/bulk?tags=${tag}`, { op: 'patch', patch: { status_id: st.other } }, keyHeaders);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ total: 1, processed: 1, status: 'done' });
    expect(await statusOf(a1 as number)).toBe(st.other);
    expect(await statusOf(b1 as number)).toBe(st.initial);
    const url = `${path(m)}/bulk/${r.json().id}`;
    expect((await keyClient.get(url, keyHeaders)).statusCode).toBe(200);
    // Not the key's owner signed in, nor another user.
    for (const other of [admin, aUser]) {
      const g = await other.get(url);
      expect(g.statusCode).toBe(404);
      expect(g.json().message).toBe(BULK_MSG.notFound);
    }
  });

  it(`more than ${BULK_INLINE_MAX}: a job in chunks with progress, resumed after a crash from its last chunk`, async () => {
    const boss = await attachBulk(false);
    const st = await statusesOf(m);
    const tag = (await admin.post('/tags', { name: 'Задача', color: '#8c8c8c' })).json().id;
    const n = BULK_INLINE_MAX + BULK_CHUNK + 10;
    const ids = await manyEvents(m, A, n, tag);
    const mark = await auditMark();
    const r = await aUser.post(`${path(m)}/bulk?tags=${tag}`, { op: 'patch', patch: { status_id: st.other } });
    expect(r.statusCode, r.body).toBe(202);
    const job = r.json() as BulkJob;
    expect(job).toMatchObject({ status: 'queued', total: n, processed: 0 });
    // Created after the start: not part of the job.
    const [late] = await events(m, A, 1, [tag]);

    // The first run dies after its first chunk (a throw stops it like a crash).
    const seen: number[] = [];
    await expect(
      ctx.app.services.bulk.run(job.id, {
        onChunk: async (done) => {
          seen.push(done);
          throw new Error('worker died');
        },
      }),
    ).rejects.toThrow('worker died');
    const half = (await aUser.get(`${path(m)}/bulk/${job.id}`)).json() as BulkJob;
    expect(half).toMatchObject({ status: 'running', processed: BULK_CHUNK, total: n });
    // The takeover sweep queues the stalled job once its heartbeat is old.
    await q(
      `UPDATE event_bulk_jobs SET heartbeat_at = now() - interval '1 minute', updated_at = now() - interval '1 minute' WHERE id = $1`,
      [job.id],
    );
    expect((await aUser.get(`${path(m)}/bulk/${job.id}`)).json().stalled).toBe(true);
    expect(await ctx.app.services.bulk.requeueStale(boss)).toBe(1);
    expect(await ctx.app.services.bulk.requeueStale(boss)).toBe(0);

    // The resumed run goes on after the last committed chunk; progress is read through the API.
    await ctx.app.services.bulk.run(job.id, {
      onChunk: async () => {
        seen.push(((await aUser.get(`${path(m)}/bulk/${job.id}`)).json() as BulkJob).processed);
      },
    });
    expect(seen).toEqual(Array.from({ length: Math.ceil(n / BULK_CHUNK) }, (_, i) => Math.min((i + 1) * BULK_CHUNK, n)));
    const done = (await aUser.get(`${path(m)}/bulk/${job.id}`)).json() as BulkJob;
    expect(done).toMatchObject({ status: 'done', processed: n, total: n, stalled: false });
    expect(done.finished_at).not.toBeNull();
    const changed = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE id = ANY($1::bigint[]) AND status_id = $2`,
      [ids, st.other],
    );
    expect(changed[0]?.n).toBe(n);
    // Each event changed once: one history entry, however many runs.
    const hist = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_history WHERE event_id = ANY($1::bigint[]) AND field = 'status_id'`,
      [ids],
    );
    expect(hist[0]?.n).toBe(n);
    expect(await statusOf(late as number)).toBe(st.initial);
    const audit = (await auditSince(mark)).map((e) => e.action);
    expect(audit[0]).toBe('event.bulk_start');
    expect(audit.at(-1)).toBe('event.bulk_done');
    expect(audit.filter((a) => a === 'event.batch_update')).toHaveLength(Math.ceil(n / BULK_CHUNK));

    // No «Отменить» while it ran (half.undo_token); once done, its author undoes every chunk's change at once.
    expect(half.undo_token).toBeNull();
    expect(done.undo_token).toMatch(/^[0-9a-f-]{36}$/);
    const undone = await aUser.post(`${path(m)}/undo/${done.undo_token}`, {});
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ restored: n, skipped: 0 });
    const back = await q<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE id = ANY($1::bigint[]) AND status_id = $2`, [
      ids,
      st.initial,
    ]);
    expect(back[0]?.n).toBe(n);
  });

  it('a deletion job run by the worker to the end, its progress polled as the console does', async () => {
    await attachBulk(true);
    const tag = (await admin.post('/tags', { name: 'Удалить', color: '#8c8c8c' })).json().id;
    const n = BULK_INLINE_MAX + 1;
    const ids = await manyEvents(m, A, n, tag);
    const keep = await events(m, A, 2);
    const mark = await auditMark();
    const r = await admin.req('DELETE', `${path(m)}/bulk?tags=${tag}`);
    expect(r.statusCode, r.body).toBe(202);
    const id = (r.json() as BulkJob).id;
    const progress: number[] = [];
    const done = await waitFor<BulkJob>(admin, `${path(m)}/bulk/${id}`, (b) => {
      progress.push(b.processed);
      return b.status === 'done' || b.status === 'failed';
    });
    expect(done).toMatchObject({ status: 'done', op: 'delete', processed: n, total: n });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect((await q(`SELECT id FROM events WHERE id = ANY($1::bigint[])`, [ids])).length).toBe(0);
    expect((await q(`SELECT id FROM events WHERE id = ANY($1::bigint[])`, [keep])).length).toBe(2);
    const audit = await auditSince(mark);
    expect(audit.filter((e) => e.action === 'event.delete')).toHaveLength(n);
    expect(audit.map((e) => e.action).filter((a) => a.startsWith('event.bulk'))).toEqual(['event.bulk_start', 'event.bulk_done']);
  });

  it.each(withActions.slice(0, 1).map((x) => [x.code, x] as const))(
    '%s: an action on every event the filter selects',
    async (_code, am) => {
      const action = am.actions?.find((a) => a.code === 'takedown') ?? am.actions?.[0];
      const tag = (await admin.post('/tags', { name: `Действие ${am.code}`, color: '#8c8c8c' })).json().id;
      const ids = await events(am, A, 2, [tag]);
      const r = await aUser.post(`${path(am)}/bulk?tags=${tag}`, { op: 'action', action: action?.code, comment: 'Все сразу' });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ op: 'action', action: action?.code, processed: 2 });
      for (const id of ids) expect((await historyOf(id)).map((h) => h.field)).toEqual([action?.code]);
      // A module without actions takes no action.
      const plain = MODULE_LIST.find((x) => !x.actions?.length) as ModuleDescriptor;
      const no = await aUser.post(`${path(plain)}/bulk`, { op: 'action', action: 'takedown' });
      expect(no.statusCode).toBe(400);
    },
  );
});
