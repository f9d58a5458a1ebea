/*
 * SLA: the due times every writer stores (API, batch, import — one database trigger), the boundary
 * rules (exactly at due is not overdue), priority and policy changes, triage → resolve → reopen, the
 * list's `sla` filter and `sla_due_at` sort, the policies API (default, company override, tenant scope
 * for users and company API keys, audit), the home page's medians against plain SQL, the breach job.
 */
import { SLA_DEFAULTS, SLA_MSG, type SlaPolicyItem, slaOverdue } from '@forpost/contract/sla';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { slaCondition } from '../src/modules/events/list/events.query';
import { insertEvent, refId } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, upload } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let aUser: Client;
let keyHeaders: Record<string, string>;
let A: number;
let B: number;
const MOD = 'domains';
const base = `/modules/${MOD}/events`;
const MIN = 60_000;

const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
const put = (c: Client, url: string, body: unknown, h?: Record<string, string>) => c.req('PUT', url, body, h);

interface SlaRow {
  created_at: Date;
  sla_due_at: Date | null;
  sla_stage: string | null;
  triaged_at: Date | null;
  resolved_at: Date | null;
}
const slaRow = async (id: number) =>
  (
    await q<SlaRow>(`SELECT created_at, sla_due_at, sla_stage, triaged_at, resolved_at FROM events WHERE id = $1`, [id])
  )[0] as SlaRow;
/** Minutes from creation to the pending deadline (null: none). */
const dueMinutes = async (id: number) => {
  const r = await slaRow(id);
  return r.sla_due_at === null ? null : (r.sla_due_at.getTime() - r.created_at.getTime()) / MIN;
};
const status = (code: string) => refId(ctx, 'status', MOD, code);
const priority = (code: string) => refId(ctx, 'priority', MOD, code);
let seq = 0;
const domain = () => `sla-${Date.now().toString(36)}-${seq++}.ru`;

async function create(companyId: number, prio: string | null): Promise<number> {
  const r = await admin.post(base, {
    company_id: companyId,
    domain: domain(),
    ...(prio ? { priority_id: await priority(prio) } : {}),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as number;
}
const patch = async (id: number, body: Record<string, unknown>) => {
  const r = await admin.patch(`${base}/${id}`, body);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const defaults = (over: Partial<Record<SlaPolicyItem['priority'], [number, number]>> = {}): SlaPolicyItem[] =>
  (Object.keys(SLA_DEFAULTS) as SlaPolicyItem['priority'][]).map((p) => ({
    priority: p,
    triage_minutes: over[p]?.[0] ?? SLA_DEFAULTS[p].triage_minutes,
    resolve_minutes: over[p]?.[1] ?? SLA_DEFAULTS[p].resolve_minutes,
  }));

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'a@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]);
  const key = await admin.post('/apikeys', { name: 'Ключ Альфы', company_id: A, roles: [{ module: '*', access: 'write' }] });
  expect(key.statusCode, key.body).toBe(201);
  keyHeaders = { authorization: `Bearer ${key.json().secret}` };
  await attachJobs(ctx, false);
});

describe('due times', () => {
  it('a new event: the triage deadline from its creation by priority; no priority follows «medium»', async () => {
    const crit = await create(A, 'critical');
    expect(await dueMinutes(crit)).toBe(SLA_DEFAULTS.critical.triage_minutes);
    expect(await dueMinutes(await create(A, 'low'))).toBe(SLA_DEFAULTS.low.triage_minutes);
    expect(await dueMinutes(await create(A, null))).toBe(SLA_DEFAULTS.medium.triage_minutes);
    const card = (await admin.get(`${base}/${crit}`)).json();
    const row = await slaRow(crit);
    expect(card.sla).toEqual({
      due_at: row.sla_due_at?.toISOString(),
      stage: 'triage',
      overdue: false,
      triaged_at: null,
      resolved_at: null,
    });
  });

  it('overdue strictly after the due time: exactly at due it is not, one second later it is', async () => {
    const id = await create(A, 'high');
    const due = (await slaRow(id)).sla_due_at as Date;
    expect(slaOverdue(due, due)).toBe(false);
    expect(slaOverdue(due, new Date(due.getTime() + 1000))).toBe(true);
    expect(slaOverdue(due, new Date(due.getTime() - 1000))).toBe(false);
    // The list filter's SQL: the same rule in the database.
    const overdueAt = async (now: Date) =>
      (await ctx.database.db.execute(sql`SELECT e.id FROM events e WHERE e.id = ${id} AND ${slaCondition(['overdue'], now)}`))
        .rows.length;
    expect(await overdueAt(due)).toBe(0);
    expect(await overdueAt(new Date(due.getTime() + 1000))).toBe(1);
    const soonAt = async (now: Date) =>
      (await ctx.database.db.execute(sql`SELECT 1 FROM events e WHERE e.id = ${id} AND ${slaCondition(['due_soon'], now)}`)).rows
        .length;
    expect(await soonAt(due)).toBe(1);
    expect(await soonAt(new Date(due.getTime() - 121 * MIN))).toBe(0);
  });

  it('a priority change recomputes from creation; triage, resolution and reopening move the deadline', async () => {
    const id = await create(A, 'low');
    await patch(id, { priority_id: await priority('critical') });
    expect(await dueMinutes(id)).toBe(SLA_DEFAULTS.critical.triage_minutes);

    const triaged = await patch(id, { status_id: await status('in_progress') });
    expect(triaged.sla.stage).toBe('resolve');
    expect(triaged.sla.triaged_at).not.toBeNull();
    expect(await dueMinutes(id)).toBe(SLA_DEFAULTS.critical.resolve_minutes);
    const firstTriage = (await slaRow(id)).triaged_at;

    // Another status change keeps the first triage.
    await patch(id, { status_id: await status('awaiting') });
    expect((await slaRow(id)).triaged_at).toEqual(firstTriage);

    const resolved = await patch(id, { status_id: await status('resolved') });
    expect(resolved.sla).toMatchObject({ due_at: null, stage: null, overdue: false });
    expect(resolved.sla.resolved_at).not.toBeNull();

    // Reopened: no resolution, the resolution deadline again; the first triage stays.
    const reopened = await patch(id, { status_id: await status('in_progress') });
    expect(reopened.sla).toMatchObject({ stage: 'resolve', resolved_at: null });
    expect(await dueMinutes(id)).toBe(SLA_DEFAULTS.critical.resolve_minutes);
    expect((await slaRow(id)).triaged_at).toEqual(firstTriage);

    // An event created already closed is triaged and resolved at once.
    const closed = await admin.post(base, { company_id: A, domain: domain(), status_id: await status('false_positive') });
    expect(closed.json().sla).toMatchObject({ due_at: null, stage: null });
    expect(closed.json().sla.triaged_at).toBe(closed.json().sla.resolved_at);
  });

  it('a batch PATCH and an import store the same due times as one API write', async () => {
    const [x, y] = [await create(A, 'high'), await create(A, 'high')];
    const r = await admin.patch(base, { ids: [x, y], patch: { status_id: await status('in_progress') } });
    expect(r.statusCode, r.body).toBe(200);
    for (const id of [x, y]) {
      expect(await dueMinutes(id)).toBe(SLA_DEFAULTS.high.resolve_minutes);
      expect((await slaRow(id)).sla_stage).toBe('resolve');
    }

    const name = domain();
    const csv = `Домен;Приоритет\n${name};Высокий\n`;
    const up = await upload(ctx, admin, `${base}/imports`, { name: 'sla.csv', content: csv });
    expect(up.statusCode, up.body).toBe(201);
    const importId = up.json().id as number;
    const st = await admin.post(`${base}/imports/${importId}/start`, {
      mapping: ['domain', 'priority_id'],
      mode: 'update',
      company_id: A,
    });
    expect(st.statusCode, st.body).toBe(202);
    await ctx.app.services.transfer.imports.run(importId);
    const [imported] = await q<{ id: number }>(`SELECT id FROM events WHERE import_id = $1`, [importId]);
    expect(imported).toBeDefined();
    expect(await dueMinutes(Number(imported?.id))).toBe(SLA_DEFAULTS.high.triage_minutes);
    expect((await slaRow(Number(imported?.id))).sla_stage).toBe('triage');
  });
});

describe('the list: filter and sort', () => {
  it("sla=overdue|due_soon|on_track|none and sort=sla_due_at, in the caller's companies", async () => {
    const C = (await createCompany(ctx, 'Гамма')).id;
    const hour = 3600_000;
    const mk = (createdAgoMs: number, prio: string, st = 'new') =>
      insertEvent(ctx, {
        companyId: C,
        module: MOD,
        priority: prio,
        status: st,
        createdAt: new Date(Date.now() - createdAgoMs).toISOString(),
      });
    const overdue = await mk(2 * hour, 'critical'); // due 1 h ago
    const soon = await mk(0.5 * hour, 'critical'); // due in 30 min
    const track = await mk(0, 'low'); // due in 3 days
    const done = await mk(0, 'low', 'resolved');
    const list = async (query: string) => {
      const r = await admin.get(`${base}?company_id=${C}&${query}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json().items as { id: number; sla: { overdue: boolean } }[];
    };
    expect((await list('sla=overdue')).map((e) => e.id)).toEqual([overdue]);
    expect((await list('sla=overdue')).every((e) => e.sla.overdue)).toBe(true);
    expect((await list('sla=due_soon')).map((e) => e.id)).toEqual([soon]);
    expect((await list('sla=on_track')).map((e) => e.id)).toEqual([track]);
    expect((await list('sla=none')).map((e) => e.id)).toEqual([done]);
    expect((await list('sla=overdue,due_soon&sort=sla_due_at')).map((e) => e.id)).toEqual([overdue, soon]);
    expect((await list('sort=sla_due_at')).map((e) => e.id)).toEqual([overdue, soon, track, done]);
    expect((await list('sort=-sla_due_at')).map((e) => e.id)).toEqual([track, soon, overdue, done]);
    const bad = await admin.get(`${base}?sla=late`);
    expect(bad.statusCode).toBe(400);
    // Another company's user sees none of them.
    const foreign = await aUser.get(`${base}?sla=overdue&company_id=${C}`);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('policies', () => {
  it('defaults: read by settings.read, changed by settings.manage with validation, recomputing open events', async () => {
    const got = await admin.get('/settings/sla');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ items: defaults(), overridden: false });

    const bad = await put(admin, '/settings/sla', { items: defaults({ low: [600, 60] }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields['items.3.resolve_minutes']).toBe(SLA_MSG.order);
    const missing = await put(admin, '/settings/sla', { items: defaults().slice(1) });
    expect(missing.statusCode).toBe(400);
    expect(Object.values(missing.json().data.fields)).toContain(SLA_MSG.priorities);

    const id = await create(B, 'low');
    const changed = await put(admin, '/settings/sla', { items: defaults({ low: [100, 1000] }) });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().recomputed).toBeGreaterThanOrEqual(1);
    expect(await dueMinutes(id)).toBe(100);
    // Restored.
    expect((await put(admin, '/settings/sla', { items: defaults() })).statusCode).toBe(200);
    expect(await dueMinutes(id)).toBe(SLA_DEFAULTS.low.triage_minutes);

    // Not for a company user or a company key.
    expect((await put(aUser, '/settings/sla', { items: defaults() })).statusCode).toBe(403);
    expect((await new Client(ctx).req('PUT', '/settings/sla', { items: defaults() }, keyHeaders)).statusCode).toBe(403);
  });

  it('a company override recomputes only that company; removing it restores the default; audited', async () => {
    const inA = await create(A, 'critical');
    const inB = await create(B, 'critical');
    const mark = (await q<{ id: number | null }>(`SELECT max(id)::int AS id FROM audit_log`))[0]?.id ?? 0;
    const r = await put(admin, `/companies/${A}/sla`, { items: defaults({ critical: [15, 120] }) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ overridden: true });
    expect(await dueMinutes(inA)).toBe(15);
    expect(await dueMinutes(inB)).toBe(SLA_DEFAULTS.critical.triage_minutes);
    // A new event of A follows the override too.
    expect(await dueMinutes(await create(A, 'critical'))).toBe(15);

    // The company's users read it; the default stays the default.
    const seen = await aUser.get(`/companies/${A}/sla`);
    expect(seen.json().items[0]).toEqual({ priority: 'critical', triage_minutes: 15, resolve_minutes: 120 });
    expect((await admin.get(`/companies/${B}/sla`)).json()).toMatchObject({ overridden: false, items: defaults() });

    const audit = await q<{ action: string; entity: string; company_id: number }>(
      `SELECT action, entity, company_id FROM audit_log WHERE id > $1`,
      [mark],
    );
    expect(audit).toEqual([{ action: 'sla.update', entity: 'sla_policy', company_id: A }]);

    const removed = await put(admin, `/companies/${A}/sla`, { items: [] });
    expect(removed.json()).toMatchObject({ overridden: false, items: defaults() });
    expect(await dueMinutes(inA)).toBe(SLA_DEFAULTS.critical.triage_minutes);
  });

  it('tenant scope: another company is 404 for users and company keys; changing needs companies.update', async () => {
    expect((await aUser.get(`/companies/${B}/sla`)).statusCode).toBe(404);
    const key = new Client(ctx);
    expect((await key.get(`/companies/${B}/sla`, keyHeaders)).statusCode).toBe(404);
    expect((await key.get(`/companies/${A}/sla`, keyHeaders)).statusCode).toBe(200);
    expect((await put(aUser, `/companies/${A}/sla`, { items: [] })).statusCode).toBe(403);
    expect((await admin.get('/companies/999999/sla')).statusCode).toBe(404);
  });
});

describe('home page: SLA figures', () => {
  it('overdue counts and median times per module and company equal plain SQL', async () => {
    const D = (await createCompany(ctx, 'Дельта')).id;
    const E = (await createCompany(ctx, 'Эпсилон')).id;
    const hour = 3600_000;
    const t0 = Date.now() - 10 * hour;
    const ids: number[] = [];
    for (const [company, hoursToTriage] of [
      [D, 1],
      [D, 2],
      [D, 6],
      [E, 3],
    ] as const) {
      const id = await insertEvent(ctx, {
        companyId: company,
        module: MOD,
        priority: 'critical',
        createdAt: new Date(t0).toISOString(),
      });
      await q(`UPDATE events SET triaged_at = created_at + $2 * interval '1 hour' WHERE id = $1`, [id, hoursToTriage]);
      ids.push(id);
    }
    // One left untriaged and overdue (critical: 1 h), one of E resolved after 4 hours.
    await insertEvent(ctx, { companyId: D, module: MOD, priority: 'critical', createdAt: new Date(t0).toISOString() });
    await q(`UPDATE events SET resolved_at = created_at + interval '4 hour', sla_due_at = NULL WHERE id = $1`, [ids[3]]);

    const r = await admin.get(`/modules/analytics/dashboard/common/sla?period=7d&modules=${MOD}`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    const expected = await q<{ company_id: number; overdue: number; mt: number | null; mr: number | null }>(
      `SELECT c.id AS company_id,
              (SELECT count(*)::int FROM events e WHERE e.company_id = c.id AND e.module = $1 AND e.sla_due_at < now()) AS overdue,
              (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM triaged_at - created_at))
                 FROM events e WHERE e.company_id = c.id AND e.module = $1 AND triaged_at IS NOT NULL) AS mt,
              (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM resolved_at - created_at))
                 FROM events e WHERE e.company_id = c.id AND e.module = $1 AND resolved_at IS NOT NULL) AS mr
         FROM companies c WHERE c.id = ANY($2)`,
      [MOD, [D, E]],
    );
    for (const x of expected) {
      const row = body.companies.find((c: { key: string }) => c.key === String(x.company_id));
      expect(row).toMatchObject({
        overdue: x.overdue,
        median_triage_seconds: x.mt === null ? null : Math.round(Number(x.mt)),
        median_resolve_seconds: x.mr === null ? null : Math.round(Number(x.mr)),
      });
    }
    expect(body.companies.find((c: { key: string }) => c.key === String(D))).toMatchObject({
      median_triage_seconds: 2 * 3600,
    });
    const [all] = await q<{ overdue: number; mt: number }>(
      `SELECT count(*) FILTER (WHERE sla_due_at < now())::int AS overdue,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM triaged_at - created_at)) FILTER (WHERE triaged_at IS NOT NULL) AS mt
         FROM events WHERE module = $1 AND created_at >= now() - interval '7 days'`,
      [MOD],
    );
    const modRow = body.modules.find((m: { key: string }) => m.key === MOD);
    expect(modRow.median_triage_seconds).toBe(Math.round(Number(all?.mt)));
    expect(modRow.overdue).toBe(all?.overdue);

    // A company user sees only their company, and no per-company table.
    const mine = (await aUser.get(`/modules/analytics/dashboard/common/sla?modules=${MOD}`)).json();
    expect(mine.companies).toEqual([]);
    const [own] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE company_id = $1 AND module = $2 AND sla_due_at < now()`,
      [A, MOD],
    );
    expect(mine.modules.find((m: { key: string }) => m.key === MOD)?.overdue ?? 0).toBe(own?.n);
  });
});

describe('breach notifications', () => {
  it('the assignee is notified once per breached stage; unassigned breaches are marked without one', async () => {
    const user = await createUser(ctx, { email: 'assignee@forpost.test', role: 'ANALYST' });
    const hour = 3600_000;
    const created = new Date(Date.now() - 2 * hour).toISOString();
    const assigned = await insertEvent(ctx, { companyId: A, module: MOD, priority: 'critical', createdAt: created });
    const unassigned = await insertEvent(ctx, { companyId: A, module: MOD, priority: 'critical', createdAt: created });
    await q(`UPDATE events SET assignee_id = $2 WHERE id = $1`, [assigned, user.id]);
    const svc = ctx.app.services.sla;
    const notes = () =>
      q<{ user_id: number; event_id: number; kind: string }>(
        `SELECT user_id, event_id::int AS event_id, kind FROM notifications WHERE event_id = ANY($1)`,
        [[assigned, unassigned]],
      );

    expect(await svc.notifyBreaches()).toBeGreaterThanOrEqual(2);
    expect(await notes()).toEqual([{ user_id: user.id, event_id: assigned, kind: 'sla_breach' }]);
    // Idempotent: a second pass finds nothing new.
    expect(await svc.notifyBreaches()).toBe(0);
    expect(await notes()).toHaveLength(1);

    // Triaged late, then past the resolution deadline too: the resolve stage is a new breach.
    await q(`UPDATE events SET created_at = now() - interval '2 days' WHERE id = $1`, [assigned]);
    await patch(assigned, { status_id: await status('in_progress') });
    expect((await slaRow(assigned)).sla_stage).toBe('resolve');
    expect(await svc.notifyBreaches()).toBe(1);
    expect(await notes()).toHaveLength(2);
    expect(await svc.notifyBreaches()).toBe(0);
  });
});
