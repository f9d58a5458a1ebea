/*
 * Why a discovery run's result is incomplete (#30, item 14), against the test DNS server on 127.0.0.1:
 * DNS errors are stored on the run by reason (timeout, SERVFAIL, REFUSED) with up to five example names;
 * a run whose every name was refused reads «broken», one made without RDAP «partial»; GET
 * /discovery/sources tells which sources are missing or do not answer before a run; a company's own combo
 * words are assets of kind «word» (validated in Russian, audited, scoped to the company) and a run
 * generates brand + word candidates from them.
 */

import { createSocket, type Socket } from 'node:dgram';
import { type DiscoveryRun, emptyRunIssues, runIncomplete, runOutcome } from '@forpost/contract/discovery';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { generatePermutations } from '../src/modules/discovery/permutations';
import { runEnded, setConfig as setKit } from './discovery-kit';
import { type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { type DnsServer, startDnsServer } from './peers/dns-server';

let ctx: TestContext;
let boss: PgBoss;
let admin: Client;
let aUser: Client;
let bUser: Client;
let A: number;
let B: number;
let dns: DnsServer;
/** A UDP socket that never answers: a resolver that does not respond. */
let silent: Socket;

const BRAND = 'vtb.ru';
const names = generatePermutations(BRAND);
const pick = (fuzzer: string, n: number, skip = 0) =>
  names
    .filter((c) => c.fuzzer === fuzzer)
    .slice(skip, skip + n)
    .map((c) => c.domain);
const SERVFAIL = pick('omission', 2);
const REFUSED = pick('addition', 7);
const TIMEOUT = pick('replacement', 3);

const setConfig = (key: string, value: string | number) => setKit(admin, key, value);

const ended = runEnded;

beforeAll(async () => {
  ctx = await setupApp({ LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' }); // the DNS peer is on 127.0.0.1
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.discovery.attach(boss, { work: true, background: false });
  admin = await signedIn(ctx, 'root@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'ВТБ-тест')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'a.admin@vtb.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]);
  bUser = await signedIn(ctx, 'b.admin@beta.test', 'COMPANY_USER', [{ id: B, role: 'COMPANY_ADMIN' }]);
  dns = await startDnsServer({
    ...Object.fromEntries(SERVFAIL.map((d) => [d, { rcode: 'SERVFAIL' as const }])),
    ...Object.fromEntries(REFUSED.map((d) => [d, { rcode: 'REFUSED' as const }])),
    ...Object.fromEntries(TIMEOUT.map((d) => [d, { dropFirst: 1_000_000 }])),
    'vtb-premier.ru': { A: ['203.0.113.7'] },
  });
  silent = createSocket('udp4');
  await new Promise<void>((res) => silent.bind(0, '127.0.0.1', () => res()));
  await setConfig('discovery_dns_servers', dns.server);
  // Long enough that only the dropped names time out, even on a loaded machine.
  await setConfig('discovery_dns_timeout_ms', 2_000);
  await setConfig('discovery_dns_retries', 0);
  await setConfig('discovery_dns_concurrency', 50);
  await setConfig('discovery_dns_rate', 100_000);
  await setConfig('discovery_rdap_servers', '');
  await setConfig('discovery_rdap_bootstrap', '');
  await setConfig('discovery_ct_logs', '');
}, 60_000);

afterAll(async () => {
  await ctx.app.services.discovery.stop();
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await dns?.close();
  silent?.close();
});

describe('company combo words (assets of kind «word»)', () => {
  it('are validated in Russian, audited, scoped to the company', async () => {
    const bad = await aUser.post(`/companies/${A}/assets`, { kind: 'word', value: 'bad word!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Слово для комбинаций');
    const ok = await aUser.post(`/companies/${A}/assets`, { kind: 'word', value: 'Premier' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ kind: 'word', value: 'premier', unicode: 'premier', enabled: true });
    const dup = await aUser.post(`/companies/${A}/assets`, { kind: 'word', value: 'premier' });
    expect(dup.statusCode).toBe(409);
    // Another company's admin neither sees nor adds A's words.
    expect((await bUser.post(`/companies/${A}/assets`, { kind: 'word', value: 'bonus' })).statusCode).toBe(404);
    expect((await bUser.get(`/companies/${A}/assets?kind=word`)).statusCode).toBe(404);
    const listed = await aUser.get(`/companies/${A}/assets?kind=word`);
    expect(listed.json().items.map((a: { value: string }) => a.value)).toEqual(['premier']);
    const audit = await ctx.database.db.execute(
      sql`SELECT action, after FROM audit_log WHERE entity = 'discovery_asset' AND company_id = ${A} ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['discovery_asset.create']);
    expect(audit.rows[0]?.after).toMatchObject({ kind: 'word', value: 'premier' });
  });
});

describe('sources before a run', () => {
  it('a company user without domains is told why the page is empty; missing RDAP and CT are named', async () => {
    const r = await aUser.get(`/discovery/sources?company_id=${A}`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.company).toEqual({ id: A, domains: 0, words: 1 });
    const by = Object.fromEntries(body.sources.map((s: { source: string }) => [s.source, s]));
    expect(by.dns.state).toBe('ok');
    expect(by.rdap).toMatchObject({ state: 'missing', message: expect.stringContaining('RDAP не настроен') });
    expect(by.ct).toMatchObject({ state: 'missing', message: expect.stringContaining('не заданы') });
    expect((await bUser.get(`/discovery/sources?company_id=${A}`)).statusCode).toBe(404);
  });

  it('probe=1: a resolver that answers is ok, a silent one and an unreachable RDAP bootstrap are «unreachable»', async () => {
    const ok = (await aUser.get('/discovery/sources?probe=1')).json();
    expect(ok.sources.find((s: { source: string }) => s.source === 'dns')).toMatchObject({ state: 'ok' });
    expect(dns.count('ru', 'A')).toBeGreaterThan(0);

    await setConfig('discovery_dns_servers', `127.0.0.1:${silent.address().port}`);
    await setConfig('discovery_rdap_bootstrap', `http://127.0.0.1:${silent.address().port}/dns.json`);
    try {
      const t0 = Date.now();
      const down = (await aUser.get('/discovery/sources?probe=1')).json();
      expect(Date.now() - t0).toBeLessThan(5_000);
      const by = Object.fromEntries(down.sources.map((s: { source: string }) => [s.source, s]));
      expect(by.dns).toMatchObject({ state: 'unreachable', message: expect.stringContaining('не отвечают') });
      expect(by.rdap).toMatchObject({ state: 'unreachable', message: expect.stringContaining('bootstrap RDAP недоступен') });
      // Without probe nothing is asked: configured is «ok».
      const quick = (await aUser.get('/discovery/sources')).json();
      expect(quick.sources.find((s: { source: string }) => s.source === 'dns').state).toBe('ok');
    } finally {
      await setConfig('discovery_dns_servers', dns.server);
      await setConfig('discovery_rdap_bootstrap', '');
    }
  });
});

describe('how a run reads', () => {
  const run = (o: Partial<DiscoveryRun>) =>
    ({ status: 'done', candidates: 1000, resolved: 1000, errors: 0, issues: emptyRunIssues(), ...o }) as DiscoveryRun;
  it('errors above a tenth of the checked names or every RDAP lookup failed: «partial»; no DNS answer: «broken»', () => {
    expect(runOutcome(run({}))).toBe('ok');
    expect(runOutcome(run({ resolved: 900, errors: 100 }))).toBe('ok');
    expect(runOutcome(run({ resolved: 899, errors: 101 }))).toBe('partial');
    expect(runOutcome(run({ resolved: 0, errors: 1000 }))).toBe('broken');
    expect(runOutcome(run({ status: 'cancelled', resolved: 0, errors: 1000 }))).toBe('ok');
    const rdap = { ...emptyRunIssues(), rdap_asked: 3, rdap: [{ reason: 'rdap_timeout' as const, count: 3, examples: [] }] };
    expect(runOutcome(run({ issues: rdap }))).toBe('partial');
    expect(runOutcome(run({ issues: { ...rdap, rdap_asked: 4 } }))).toBe('ok');
    expect(runIncomplete(run({}))).toBe(false);
    expect(runIncomplete(run({ issues: { ...emptyRunIssues(), missing: ['rdap'] } }))).toBe(true);
  });
});

describe('errors by reason on the run', () => {
  it('DNS errors are stored by reason with up to five examples; a run without RDAP is «incomplete»', async () => {
    expect((await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: BRAND })).statusCode).toBe(201);
    const start = await aUser.post('/discovery/runs', { company_id: A });
    expect(start.statusCode, start.body).toBe(202);
    const run = await ended(aUser, start.json().id);
    expect(run.status).toBe('done');
    const words = new Set(generatePermutations(BRAND, { extraWords: ['premier'] }).map((c) => c.domain));
    expect(run.candidates).toBe(words.size);
    expect(run.errors).toBe(SERVFAIL.length + REFUSED.length + TIMEOUT.length);
    const by = Object.fromEntries(run.issues.dns.map((i: { reason: string }) => [i.reason, i]));
    expect(by.dns_servfail).toEqual({ reason: 'dns_servfail', count: 2, examples: expect.arrayContaining(SERVFAIL) });
    expect(by.dns_refused.count).toBe(7);
    expect(by.dns_refused.examples).toHaveLength(5);
    for (const e of by.dns_refused.examples) expect(REFUSED).toContain(e);
    expect(by.dns_timeout).toMatchObject({ count: 3, examples: expect.arrayContaining(TIMEOUT) });
    // Most common first.
    expect(run.issues.dns[0].reason).toBe('dns_refused');
    expect(run.issues.missing).toEqual(['rdap']);
    // 12 errors of thousands: below the share, the tag stays «done»; without RDAP «0 found» would be incomplete.
    expect(runOutcome(run)).toBe('ok');
    expect(runIncomplete(run)).toBe(true);
    // The company's own word made a candidate that was found.
    expect(run.registered).toBe(1);
    const ev = await ctx.database.db.execute(
      sql`SELECT data->>'fuzzer' AS fuzzer FROM events WHERE data->>'discovery_run' = ${String(run.id)}`,
    );
    expect(ev.rows).toEqual([{ fuzzer: 'dictionary' }]);
  });

  it('a run whose every query was refused reads «broken» (nothing resolved), with its reason', async () => {
    // Only the root wildcard is left: every name, whatever its parent, is refused.
    for (const d of [...SERVFAIL, ...REFUSED, ...TIMEOUT, 'vtb-premier.ru']) dns.setRecord(d, null);
    dns.setRecord('*', { rcode: 'REFUSED' });
    try {
      const start = await aUser.post('/discovery/runs', { company_id: A });
      expect(start.statusCode, start.body).toBe(202);
      const run = await ended(aUser, start.json().id);
      expect(run.status).toBe('done');
      expect(run.resolved).toBe(0);
      expect(run.errors).toBe(run.candidates);
      expect(run.issues.dns).toEqual([{ reason: 'dns_refused', count: run.candidates, examples: expect.any(Array) }]);
      expect(run.issues.dns[0].examples).toHaveLength(5);
      expect(runOutcome(run)).toBe('broken');
    } finally {
      dns.setRecord('*', null);
    }
  });
});
