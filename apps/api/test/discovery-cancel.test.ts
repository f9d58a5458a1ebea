/*
 * Stopping a discovery run (#28, item 8) against the test DNS server on 127.0.0.1: a running run of
 * thousands of candidates at a limited rate is stopped through the API and ends as «cancelled» within
 * seconds, keeping the lookalikes it had found (written as events of the run) and the counters of what it
 * checked; its resolver sends nothing more. A queued run is cancelled before it starts; a finished one is
 * a Russian 409; another company's run is a 404 for users and company keys; the stop is audited. One
 * unfinished run per company holds under concurrent starts. A run asked to stop whose worker died ends as
 * «cancelled» at the schedule tick.
 */

import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { generatePermutations } from '../src/modules/discovery/permutations';
import { runEnded, setConfig as setKit } from './discovery-kit';
import { ADMIN, Client, createCompany, setupApp, setupSecondApp, signedIn, type TestContext } from './helpers';
import { type DnsServer, startDnsServer } from './peers/dns-server';

let ctx: TestContext;
let boss: PgBoss;
let admin: Client;
let aUser: Client;
let aViewer: Client;
let bUser: Client;
let A: number;
let B: number;
let dns: DnsServer;

const BIG = 'forpost-bank.ru';
const SMALL = 'beta-bank.ru';
const bigNames = new Set(generatePermutations(BIG).map((c) => c.domain));
const smallNames = new Set(generatePermutations(SMALL).map((c) => c.domain));
/** The first candidates the run asks about (the engine's order): registered, found before the stop. */
const EARLY = generatePermutations(BIG)
  .slice(0, 3)
  .map((c) => c.domain);

const setConfig = (key: string, value: string | number) => setKit(admin, key, value);

const ended = runEnded;

/** Resolves once `ok()` holds, checked at every query the DNS server receives (at most `ms`). */
async function atQueries(ok: () => boolean, ms = 30_000) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('the DNS server did not see the expected queries');
    await dns.waitForQueries(dns.queries.length + 1);
  }
}

beforeAll(async () => {
  ctx = await setupApp({ LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' }); // the DNS peer is on 127.0.0.1
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.discovery.attach(boss, { work: true, background: false });
  admin = await signedIn(ctx, 'root@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'a.admin@alfa.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]);
  aViewer = await signedIn(ctx, 'a.viewer@alfa.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
  bUser = await signedIn(ctx, 'b.admin@beta.test', 'COMPANY_USER', [{ id: B, role: 'COMPANY_ADMIN' }]);
  dns = await startDnsServer(Object.fromEntries(EARLY.map((d, i) => [d, { A: [`203.0.113.${i + 1}`] }])));
  await setConfig('discovery_dns_servers', dns.server);
  await setConfig('discovery_dns_timeout_ms', 500);
  await setConfig('discovery_dns_retries', 0);
  await setConfig('discovery_dns_concurrency', 20);
  // Slow enough that the run cannot end by itself while the test stops it: thousands of names at 300/s.
  await setConfig('discovery_dns_rate', 300);
  await setConfig('discovery_rdap_servers', '');
  await setConfig('discovery_rdap_bootstrap', '');
  expect((await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: BIG })).statusCode).toBe(201);
  expect((await bUser.post(`/companies/${B}/assets`, { kind: 'domain', value: SMALL })).statusCode).toBe(201);
}, 60_000);

afterAll(async () => {
  await ctx.app.services.discovery.stop();
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await dns?.close();
});

describe('stopping a run', () => {
  it('a running run stops within seconds: status «cancelled», its findings and counters kept, no more queries', async () => {
    const start = await aUser.post('/discovery/runs', { company_id: A });
    expect(start.statusCode, start.body).toBe(202);
    const id = start.json().id as number;
    expect(start.json().cancel_requested_at).toBeNull();
    // The early lookalikes have been answered (their NS asked last) and the run went on past them.
    await atQueries(() => EARLY.every((d) => dns.count(d, 'NS') > 0));
    const past = dns.queries.length + 200;
    await atQueries(() => dns.queries.length >= past);
    const running = (await aUser.get(`/discovery/runs/${id}`)).json();
    expect(running.status).toBe('running');
    expect(running.candidates).toBe(bigNames.size);

    // Another company's user and key, a viewer, a read key: the run is not theirs to stop.
    expect((await bUser.post(`/discovery/runs/${id}/cancel`)).statusCode).toBe(404);
    const key = async (c: Client, company: number, access: 'read' | 'write') =>
      `Bearer ${(await c.post('/apikeys', { name: `k-${company}-${access}`, company_id: company, roles: [{ module: '*', access }] })).json().secret}`;
    const anon = new Client(ctx);
    const bWrite = await key(bUser, B, 'write');
    const denied = await anon.post(`/discovery/runs/${id}/cancel`, undefined, { authorization: bWrite });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().message).toBe('Запуск поиска не найден');
    expect((await aViewer.post(`/discovery/runs/${id}/cancel`)).statusCode).toBe(403);
    expect(
      (await anon.post(`/discovery/runs/${id}/cancel`, undefined, { authorization: await key(aUser, A, 'read') })).statusCode,
    ).toBe(403);
    expect((await aUser.post('/discovery/runs/999999/cancel')).statusCode).toBe(404);

    // A's write key stops it.
    const asked = Date.now();
    const stop = await anon.post(`/discovery/runs/${id}/cancel`, undefined, { authorization: await key(aUser, A, 'write') });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({ id, status: 'running' });
    expect(stop.json().cancel_requested_at).not.toBeNull();
    // Still unfinished while its worker stops: the company's one run.
    const run = await ended(aUser, id, 10_000);
    const tookMs = Date.now() - asked;
    const sentAtEnd = dns.queries.length;
    expect(run.status).toBe('cancelled');
    expect(tookMs).toBeLessThan(5000);
    expect(run.finished_at).not.toBeNull();
    expect(run.error).toBeNull();
    // Partial: some names checked, far from all; the three found are written as the run's events.
    expect(run.candidates).toBe(bigNames.size);
    expect(run.resolved + run.errors).toBeGreaterThan(100);
    expect(run.resolved + run.errors).toBeLessThan(run.candidates / 2);
    expect(run.registered).toBe(3);
    expect(run.new_events).toBe(3);
    const events = await aUser.get(`/modules/domains/events?company_id=${A}&discovery_run=${id}`);
    expect(
      events
        .json()
        .items.map((e: { domain_punycode: string }) => e.domain_punycode)
        .sort(),
    ).toEqual([...EARLY].sort());
    console.info(`cancelled after ${tookMs} ms: ${JSON.stringify({ ...run, company_name: undefined })}`);

    // Stopped means stopped: the audit has it, a second stop is a 409, and while company B's run goes
    // through the same DNS server from start to end, not one more query names A's candidates.
    const audit = await ctx.database.db.execute(
      sql`SELECT action, company_id, before, after FROM audit_log WHERE entity = 'discovery_run' AND entity_id = ${String(id)} ORDER BY id`,
    );
    expect(audit.rows).toEqual([
      expect.objectContaining({ action: 'discovery_run.start', company_id: A }),
      {
        action: 'discovery_run.cancel',
        company_id: A,
        before: { status: 'running' },
        after: { status: 'running', cancel_requested: true },
      },
    ]);
    const again = await aUser.post(`/discovery/runs/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Запуск поиска уже завершён/);
    await setConfig('discovery_dns_rate', 20000);
    await setConfig('discovery_dns_concurrency', 100);
    const b = await bUser.post('/discovery/runs', { company_id: B });
    expect(b.statusCode, b.body).toBe(202);
    expect((await ended(bUser, b.json().id)).status).toBe('done');
    const later = dns.queries.slice(sentAtEnd);
    expect(later.filter((q) => smallNames.has(q.name)).length).toBeGreaterThan(0);
    expect(later.filter((q) => bigNames.has(q.name) && !smallNames.has(q.name))).toEqual([]);
    // The company may run again once its run has stopped.
    const next = await aUser.post('/discovery/runs', { company_id: A });
    expect(next.statusCode, next.body).toBe(202);
    expect((await aUser.post(`/discovery/runs/${next.json().id}/cancel`)).statusCode).toBe(200);
    expect((await ended(aUser, next.json().id)).status).toBe('cancelled');
    await setConfig('discovery_dns_rate', 300);
    await setConfig('discovery_dns_concurrency', 20);
  }, 120_000);

  it('a queued run is cancelled before it starts: its job asks the resolver nothing', async () => {
    // An API-only instance (no queue): the run stays queued until a worker would queue it.
    const api = await setupSecondApp(ctx);
    const c = new Client(api);
    await c.login('a.admin@alfa.test', ADMIN.password);
    const start = await c.post('/discovery/runs', { company_id: A });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json().status).toBe('queued');
    const id = start.json().id as number;
    const stop = await c.post(`/discovery/runs/${id}/cancel`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({ id, status: 'cancelled', started_at: null, resolved: 0 });
    expect(stop.json().finished_at).not.toBeNull();
    // The worker's job for it claims nothing; the tick queues no job for it.
    const before = dns.queries.length;
    await ctx.app.services.discovery.execute(id);
    await ctx.app.services.discovery.tick();
    expect((await aUser.get(`/discovery/runs/${id}`)).json()).toMatchObject({ status: 'cancelled', started_at: null });
    expect(dns.queries.length).toBe(before);
    const audit = await ctx.database.db.execute(
      sql`SELECT before, after FROM audit_log WHERE action = 'discovery_run.cancel' AND entity_id = ${String(id)}`,
    );
    expect(audit.rows).toEqual([{ before: { status: 'queued' }, after: { status: 'cancelled', cancel_requested: true } }]);
    // A finished run cannot be stopped.
    const done = (await ctx.database.db.execute(sql`SELECT id FROM discovery_runs WHERE company_id = ${B} AND status = 'done'`))
      .rows[0]?.id;
    const refused = await bUser.post(`/discovery/runs/${done}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Запуск поиска уже завершён — остановить можно только запуск в очереди или выполняющийся',
    );
  }, 60_000);

  it('one unfinished run per company, also when starts race; the refusal names the limit', async () => {
    const starts = await Promise.all(Array.from({ length: 6 }, () => aUser.post('/discovery/runs', { company_id: A })));
    const codes = starts.map((r) => r.statusCode).sort();
    expect(codes).toEqual([202, 409, 409, 409, 409, 409]);
    const refusal = starts.find((r) => r.statusCode === 409)?.json();
    expect(refusal.message).toBe(
      'Поиск для этой компании уже выполняется: одновременно допускается не больше одного запуска на компанию. Дождитесь его окончания или остановите его',
    );
    const id = starts.find((r) => r.statusCode === 202)?.json().id as number;
    const unfinished = await ctx.database.db.execute(
      sql`SELECT count(*)::int AS n FROM discovery_runs WHERE company_id = ${A} AND status IN ('queued', 'running')`,
    );
    expect(unfinished.rows[0]?.n).toBe(1);
    // Another company is not held back by A's run.
    const b = await bUser.post('/discovery/runs', { company_id: B });
    expect(b.statusCode, b.body).toBe(202);
    for (const [c, run] of [
      [aUser, id],
      [bUser, b.json().id as number],
    ] as const) {
      expect((await c.post(`/discovery/runs/${run}/cancel`)).statusCode).toBe(200);
      expect(['cancelled', 'done']).toContain((await ended(c, run)).status);
    }
  }, 60_000);

  it('a run asked to stop whose worker died ends as «cancelled» with its saved progress, not taken up again', async () => {
    const C = (await createCompany(ctx, 'Гамма')).id;
    expect((await admin.post(`/companies/${C}/assets`, { kind: 'domain', value: 'gamma-bank.ru' })).statusCode).toBe(201);
    const silent = async (companyId: number, minutes: number) => {
      const [row] = (
        await ctx.database.db.execute(sql`
          INSERT INTO discovery_runs (company_id, trigger, status, started_at, heartbeat_at, cancel_requested_at, candidates, resolved)
          VALUES (${companyId}, 'manual', 'running', now() - interval '10 minutes', now() - make_interval(mins => ${minutes}),
                  now() - make_interval(mins => ${minutes}), 5000, 1234)
          RETURNING id`)
      ).rows;
      return Number(row?.id);
    };
    // Silent for 6 minutes: its retried job would take a silent run up again, not one asked to stop.
    const long = await silent(B, 6);
    const before = dns.queries.length;
    await ctx.app.services.discovery.execute(long);
    expect(dns.queries.length).toBe(before);
    expect((await admin.get(`/discovery/runs/${long}`)).json()).toMatchObject({ status: 'running', resolved: 1234 });
    // Silent for 2 minutes (a live worker ends a stopped run within seconds), and one asked just now.
    const short = await silent(C, 2);
    const fresh = await silent(A, 0);
    await ctx.app.services.discovery.tick();
    for (const id of [long, short])
      expect((await admin.get(`/discovery/runs/${id}`)).json()).toMatchObject({
        status: 'cancelled',
        candidates: 5000,
        resolved: 1234,
        error: null,
      });
    expect((await admin.get(`/discovery/runs/${fresh}`)).json().status).toBe('running');
    await ctx.database.db.execute(sql`DELETE FROM discovery_runs WHERE id = ${fresh}`);
  }, 60_000);
});
