/*
 * Discovery (#17) end to end against real peers on 127.0.0.1: protected assets (CRUD, validation, tenant
 * scope for users and company keys), the candidate preview, runs (pg-boss job → test DNS server → RDAP
 * server → domain events through the import's writer; a second run finds nothing new; the allowlist and
 * wildcard parents hold; RDAP servers come from a local RFC 9224 bootstrap file) and the CT monitor (test
 * RFC 6962 log with real certificates; resumes after a restart without duplicates; a failing log beside a
 * healthy one). Discovered events are like any other: whitelist mark, SLA due time, mailings by source, and
 * the snapshot probe (against a local web server) whatever `snapshot_on_create` says.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unicodeToPunycode } from '@forpost/contract/helpers';
import { SLA_DEFAULTS } from '@forpost/contract/sla';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { generatePermutations } from '../src/modules/discovery/permutations';
import { setConfig as setKit } from './discovery-kit';
import { Client, createCompany, setupApp, setupSecondApp, signedIn, type TestContext } from './helpers';
import { createTestCa, issueCertificate } from './peers/certs';
import { type CtLogPeer, startCtLog } from './peers/ct-log-server';
import { type DnsServer, startDnsServer, type Zone } from './peers/dns-server';
import { type RdapServer, rdapBootstrapFile, recordedComDomain, startRdapServer } from './peers/rdap-server';

let ctx: TestContext;
let boss: PgBoss;
let admin: Client;
let aUser: Client;
let aViewer: Client;
let bUser: Client;
let A: number;
let B: number;
let dns: DnsServer | undefined;
let rdap: RdapServer | undefined;
let iana: RdapServer | undefined;
let ct: CtLogPeer | undefined;
let badCt: CtLogPeer | undefined;
/** The server's warnings and errors (JSON lines). */
const logs: { msg: string; [k: string]: unknown }[] = [];

const PROTECTED = 'forpost-bank.ru';

/*
 * The lookalikes the test zone registers, picked from the engine's candidates (the preview's order) before
 * the app starts: the snapshot probe reaches them through SNAPSHOT_HOST_MAP.
 */
const CANDIDATES = generatePermutations(PROTECTED);
const taken = new Set<string>();
function pick(f: string, pred: (d: string) => boolean = () => true) {
  const x = CANDIDATES.find((i) => i.fuzzer === f && pred(i.domain) && !taken.has(i.domain));
  if (!x) throw new Error(`no ${f} candidate`);
  taken.add(x.domain);
  return { domain: x.domain, fuzzer: x.fuzzer };
}
const found = {
  omission: pick('omission', (d) => d.endsWith('.ru')),
  homoglyph: pick('homoglyph', (d) => d.endsWith('.ru')),
  tld: pick('tld-swap', (d) => d.endsWith('.com')),
};
const allowed = pick('replacement', (d) => d.endsWith('.ru')).domain;
const servfail = pick('transposition', (d) => d.endsWith('.ru')).domain;
const ctLookalike = pick('hyphenation').domain;
const CT_NAMES = ['forpost-login.xyz', 'forpost-bonus.site', 'forpost-pay.site', 'forpost-kabinet.site'];

/** The web server the discovered hosts resolve to for the snapshot probe: a page titled by its host. */
const web = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Вход ${req.headers.host?.split(':')[0]}</title></head><body></body></html>`);
});

const setConfig = (key: string, value: string | number) => setKit(admin, key, value);

/** Waits (by the run's own state, not a timer) until the run is finished. */
async function finished(c: Client, id: number) {
  for (;;) {
    const r = await c.get(`/discovery/runs/${id}`);
    expect(r.statusCode).toBe(200);
    const run = r.json();
    if (run.status !== 'queued' && run.status !== 'running') return run;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function domainEvents(companyId: number, source?: string) {
  const r = await admin.get(`/modules/domains/events?company_id=${companyId}&page_size=500${source ? `&source=${source}` : ''}`);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json().items as ({ id: number; source: string } & Record<string, unknown>)[]).map((e) => ({ ...e, data: e }));
}

beforeAll(async () => {
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  const { port } = web.address() as AddressInfo;
  const hosts = [...Object.values(found).map((f) => f.domain), ctLookalike, ...CT_NAMES];
  ctx = await setupApp(
    {
      OUTBOUND_ALLOW_PRIVATE: '1', // every peer (DNS, RDAP, CT, the sites) is on 127.0.0.1
      SNAPSHOT_HOST_MAP: hosts.map((h) => `${h}=127.0.0.1:${port}`).join(','),
      // Screenshots are the e2e's (discovery.spec.ts); here the probe's title and status are enough.
      CHROMIUM_PATH: '/nonexistent/chromium',
      LOG_LEVEL: 'warn',
    },
    {
      level: 'warn',
      stream: {
        write(line: string) {
          logs.push(JSON.parse(line));
        },
      },
    },
  );
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.discovery.attach(boss, { work: true, background: false });
  await ctx.app.services.snapshots.attach(boss, { work: true });
  admin = await signedIn(ctx, 'root@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  aUser = await signedIn(ctx, 'a.admin@alfa.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]);
  aViewer = await signedIn(ctx, 'a.viewer@alfa.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
  bUser = await signedIn(ctx, 'b.admin@beta.test', 'COMPANY_USER', [{ id: B, role: 'COMPANY_ADMIN' }]);
}, 60_000);

afterAll(async () => {
  await ctx.app.services.discovery.stop();
  await ctx.app.services.snapshots.stop();
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await dns?.close();
  await rdap?.close();
  await iana?.close();
  await ct?.close();
  await badCt?.close();
  await new Promise<void>((r) => {
    web.closeAllConnections();
    web.close(() => r());
  });
});

/** The event's snapshots, once the probe job has recorded one; none if no job recorded one within 30 s. */
async function snapshotsOf(eventId: number) {
  for (const until = Date.now() + 30_000; ; ) {
    const r = await admin.get(`/modules/domains/events/snapshots/${eventId}`);
    expect(r.statusCode, r.body).toBe(200);
    const items = r.json().items as { page_title: string | null; http_status: number | null; error: string | null }[];
    if (items.length || Date.now() > until) return items;
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('protected assets', () => {
  it('adds domains (IDN as ASCII and Unicode) and keywords, with Russian errors and duplicates refused', async () => {
    const d = await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: 'Пример-Банк.РФ' });
    expect(d.statusCode, d.body).toBe(201);
    const ascii = unicodeToPunycode('пример-банк.рф');
    expect(ascii).toMatch(/^xn--.*\.xn--p1ai$/);
    expect(d.json()).toMatchObject({ kind: 'domain', value: ascii, unicode: 'пример-банк.рф', enabled: true });
    const puny = await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: ascii.toUpperCase() });
    expect(puny.statusCode).toBe(409);
    expect(puny.json().message).toBe('Такой актив уже есть у компании');
    const kw = await aUser.post(`/companies/${A}/assets`, { kind: 'keyword', value: 'Форпост' });
    expect(kw.json()).toMatchObject({ kind: 'keyword', value: 'форпост', unicode: 'форпост' });
    expect((await aUser.post(`/companies/${A}/assets`, { kind: 'keyword', value: 'forpost' })).statusCode).toBe(201);

    const bad = await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: 'not a domain' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.value).toBe('Укажите домен, например example.ru или пример.рф');
    const badKw = await aUser.post(`/companies/${A}/assets`, { kind: 'keyword', value: 'a b' });
    expect(badKw.statusCode).toBe(400);
    expect(badKw.json().data.fields.value).toMatch(/^Ключевое слово/);
    expect((await aUser.post(`/companies/${A}/assets`, { kind: 'ip', value: '1.2.3.4' })).statusCode).toBe(400);

    const list = await aUser.get(`/companies/${A}/assets`);
    expect(list.json().total).toBe(3);
    const off = await aUser.patch(`/companies/${A}/assets/${kw.json().id}`, { enabled: false });
    expect(off.json().enabled).toBe(false);
    expect((await aUser.del(`/companies/${A}/assets/${d.json().id}`)).statusCode).toBe(204);
    expect((await aUser.get(`/companies/${A}/assets`)).json().total).toBe(2);

    const audit = await ctx.database.db.execute(
      sql`SELECT action FROM audit_log WHERE entity = 'discovery_asset' AND company_id = ${A} ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'discovery_asset.create',
      'discovery_asset.create',
      'discovery_asset.create',
      'discovery_asset.update',
      'discovery_asset.delete',
    ]);
  });

  it('keeps each company to its own assets: users, viewers and company API keys', async () => {
    const b = (await bUser.post(`/companies/${B}/assets`, { kind: 'domain', value: 'beta-bank.ru' })).json();
    // A's admin: B's list and B's asset are 404, also under A's path.
    expect((await aUser.get(`/companies/${B}/assets`)).statusCode).toBe(404);
    expect((await aUser.post(`/companies/${B}/assets`, { kind: 'domain', value: 'x-bank.ru' })).statusCode).toBe(404);
    expect((await aUser.get(`/companies/${A}/assets/${b.id}`)).statusCode).toBe(404);
    expect((await aUser.patch(`/companies/${A}/assets/${b.id}`, { enabled: false })).statusCode).toBe(404);
    expect((await aUser.del(`/companies/${A}/assets/${b.id}`)).statusCode).toBe(404);
    // A viewer reads, never changes.
    expect((await aViewer.get(`/companies/${A}/assets`)).statusCode).toBe(200);
    expect((await aViewer.post(`/companies/${A}/assets`, { kind: 'domain', value: 'v-bank.ru' })).statusCode).toBe(403);
    // Company keys: a read key lists its company only; a write key adds.
    const key = async (access: 'read' | 'write') =>
      (await aUser.post('/apikeys', { name: `k-${access}`, company_id: A, roles: [{ module: '*', access }] })).json()
        .secret as string;
    const read = { authorization: `Bearer ${await key('read')}` };
    const write = { authorization: `Bearer ${await key('write')}` };
    const anon = new Client(ctx);
    expect((await anon.get(`/companies/${A}/assets`, read)).statusCode).toBe(200);
    expect((await anon.get(`/companies/${B}/assets`, read)).statusCode).toBe(404);
    expect((await anon.get(`/companies/${A}/assets/${b.id}`, read)).statusCode).toBe(404);
    expect((await anon.req('POST', `/companies/${A}/assets`, { kind: 'domain', value: 'k-bank.ru' }, read)).statusCode).toBe(403);
    expect((await anon.req('POST', `/companies/${A}/assets`, { kind: 'domain', value: 'k-bank.ru' }, write)).statusCode).toBe(
      201,
    );
    expect((await anon.req('POST', `/companies/${B}/assets`, { kind: 'domain', value: 'k-bank.ru' }, write)).statusCode).toBe(
      404,
    );
    expect((await anon.req('POST', '/discovery/runs', { company_id: B }, write)).statusCode).toBe(404);
    expect((await anon.get(`/discovery/runs?company_id=${B}`, read)).statusCode).toBe(404);
    await aUser.del(`/companies/${A}/assets/${(await aUser.get(`/companies/${A}/assets?kind=domain`)).json().items[0].id}`);
  });
});

describe('preview', () => {
  it('lists every candidate with its fuzzer; Russian 400 for what is not a domain', async () => {
    const r = await aUser.post('/discovery/preview', { domain: PROTECTED });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as { total: number; items: { domain: string; unicode: string; fuzzer: string }[] };
    expect(body.total).toBe(body.items.length);
    expect(body.total).toBeGreaterThan(500);
    expect(new Set(body.items.map((x) => x.domain)).size).toBe(body.total);
    expect(body.items.some((x) => x.domain === PROTECTED)).toBe(false);
    for (const f of ['omission', 'homoglyph', 'tld-swap', 'dictionary'])
      expect(body.items.some((x) => x.fuzzer === f)).toBe(true);
    const idn = (await aUser.post('/discovery/preview', { domain: 'пример.рф' })).json();
    expect(idn.items.every((x: { domain: string }) => /^[\x21-\x7e]+$/.test(x.domain))).toBe(true);
    const bad = await aUser.post('/discovery/preview', { domain: 'нет такого' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/[а-я]/);
  });
});

describe('runs', () => {
  let discoveryMailing = 0;
  let ctMailing = 0;

  beforeAll(async () => {
    const preview = (await admin.post('/discovery/preview', { domain: PROTECTED })).json().items as { domain: string }[];
    expect(preview.map((i) => i.domain)).toEqual(CANDIDATES.map((c) => c.domain));
    const zone: Zone = {
      [found.omission.domain]: { A: ['203.0.113.10'], MX: ['10 mx.evil.test'], NS: ['ns1.evil.test', 'ns2.evil.test'] },
      [found.homoglyph.domain]: { A: ['203.0.113.11'], NS: ['ns1.evil.test'] },
      [found.tld.domain]: { A: ['203.0.113.12'], MX: ['mail.evil.test'], NS: ['ns.evil.test'] },
      [allowed]: { A: ['203.0.113.13'] },
      [servfail]: { rcode: 'SERVFAIL' },
      // Every .online name answers: a wildcard parent, its candidates are no findings.
      '*.online': { A: ['198.51.100.7'] },
    };
    dns = await startDnsServer(zone);
    rdap = await startRdapServer({ [found.tld.domain]: { body: recordedComDomain(found.tld.domain) } });
    // RFC 9224: the «IANA» file names the local RDAP server for .ru and .com; no server is set by hand.
    iana = await startRdapServer({}, { '/rdap/dns.json': { body: rdapBootstrapFile([[['ru', 'com'], [`${rdap.url}/`]]]) } });
    await setConfig('discovery_dns_servers', dns.server);
    await setConfig('discovery_dns_timeout_ms', 300);
    await setConfig('discovery_dns_retries', 1);
    await setConfig('discovery_dns_rate', 20000);
    await setConfig('discovery_dns_concurrency', 100);
    await setConfig('discovery_rdap_servers', '');
    await setConfig('discovery_rdap_bootstrap', `${iana.url}/rdap/dns.json`);
    // Discovered events get their snapshot without the «snapshot on create» sweep.
    await setConfig('snapshot_on_create', 0);
    // A whitelist entry of the company covering one lookalike: the event is raised and marked.
    const wl = await aUser.post(`/companies/${A}/whitelist`, {
      type: 'domain',
      value: found.tld.domain,
      kind: 'whitelistClient',
    });
    expect(wl.statusCode, wl.body).toBe(201);
    // Mailings filtered on the source: created before the run, they collect its events (or none).
    const mailing = async (source: string) => {
      const r = await aUser.post('/notifications/mailings', {
        name: `Находки ${source}`,
        company_id: A,
        recipients: ['soc@alfa.test'],
        filters: { sources: [source] },
        params: { frequency: 'instant', format: 'html' },
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as number;
    };
    discoveryMailing = await mailing('Discovery');
    ctMailing = await mailing('CT');
    await setConfig('discovery_rdap_timeout_ms', 2000);
    expect((await aUser.post(`/companies/${A}/assets`, { kind: 'domain', value: PROTECTED })).statusCode).toBe(201);
    const allow = await admin.post('/modules/domains/allowlist', { company_id: A, domain: allowed });
    expect(allow.statusCode, allow.body).toBe(201);
  }, 60_000);

  it('a run raises exactly the registered lookalikes with fuzzer, IP, MX, NS and registration data', async () => {
    const start = await aUser.post('/discovery/runs', { company_id: A });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json()).toMatchObject({ company_id: A, company_name: 'Альфа', trigger: 'manual' });
    const run = await finished(aUser, start.json().id);
    expect(run.status, run.error).toBe('done');
    const assets = (await aUser.get(`/companies/${A}/assets?kind=domain`)).json().items;
    expect(assets.map((x: { value: string }) => x.value)).toEqual([PROTECTED]);
    const preview = (await admin.post('/discovery/preview', { domain: PROTECTED })).json();
    expect(run.candidates).toBe(preview.total);
    expect(run.registered).toBe(4); // three lookalikes and the allowlisted one; the .online wildcard echoes are not
    expect(run.new_events).toBe(3);
    expect(run.errors).toBeGreaterThanOrEqual(1); // SERVFAIL
    expect(run.resolved + run.errors).toBe(run.candidates);
    console.info(`discovery run: ${JSON.stringify({ ...run, company_name: undefined })}`);

    const events = await domainEvents(A, 'Discovery');
    expect(events.map((e) => e.data.domain_punycode).sort()).toEqual(
      [found.omission.domain, found.homoglyph.domain, found.tld.domain].sort(),
    );
    const byDomain = new Map(events.map((e) => [e.data.domain_punycode, e]));
    expect(byDomain.get(found.omission.domain)?.data).toMatchObject({
      fuzzer: 'omission',
      ip: '203.0.113.10',
      mx: true,
      ns: 'ns1.evil.test, ns2.evil.test',
      asset: PROTECTED,
      discovery_run: run.id,
    });
    expect(byDomain.get(found.homoglyph.domain)?.data).toMatchObject({ fuzzer: 'homoglyph', ip: '203.0.113.11', mx: false });
    expect(byDomain.get(found.tld.domain)?.data).toMatchObject({
      fuzzer: 'tld-swap',
      ip: '203.0.113.12',
      mx: true,
      registrar: 'Registrar of Domain Names REG.RU LLC',
      registered_at: '2026-10-02',
      registration_status: 'передача запрещена регистратором, делегирование приостановлено реестром',
    });
    // Without an RDAP answer (404 at the test server) the registration fields stay empty.
    expect(byDomain.get(found.omission.domain)?.data.registration_status ?? null).toBeNull();
    expect(events.every((e) => e.source === 'Discovery')).toBe(true);
    // The run's link: its new events by the run id filter.
    const linked = await aUser.get(`/modules/domains/events?company_id=${A}&discovery_run=${run.id}`);
    expect(linked.json().total).toBe(3);
    // Only DNS to the configured server, RDAP only for registered names.
    expect(rdap?.requests.every((p) => p.startsWith('/domain/'))).toBe(true);
    expect(rdap?.requests.length).toBe(4);
    // The servers came from the bootstrap file, fetched once.
    expect(iana?.requests).toEqual(['/rdap/dns.json']);
    // The three lookups without an answer (404) are counted and logged, without server addresses.
    const rdapLog = logs.find((l) => l.msg === 'discovery run: RDAP lookups without registration data' && l.runId === run.id);
    expect(rdapLog?.rdap).toMatchObject({
      asked: 4,
      failed: 3,
      reasons: { 'not-found': 3 },
      examples: expect.arrayContaining([`${found.omission.domain}: not-found 404`]),
    });
    const logged = JSON.stringify(rdapLog);
    for (const peer of [rdap, iana]) expect(logged).not.toContain(new URL(peer?.url ?? '').host);
  }, 120_000);

  it('discovered events are like any other: whitelist mark, SLA due time, mailings by source, snapshot', async () => {
    const events = await domainEvents(A, 'Discovery');
    expect(events).toHaveLength(3);
    for (const e of events) {
      const card = (await admin.get(`/modules/domains/events/${e.id}`)).json();
      // The company's whitelist covers the .com lookalike only.
      expect(card.whitelist_kind).toBe(e.data.domain_punycode === found.tld.domain ? 'whitelistClient' : null);
      // SLA: no priority → «medium»; the triage deadline from creation.
      expect(card.sla).toMatchObject({ stage: 'triage', overdue: false, triaged_at: null });
      const [row] = (
        await ctx.database.db.execute(
          sql`SELECT extract(epoch FROM sla_due_at - created_at) / 60 AS minutes FROM events WHERE id = ${e.id}`,
        )
      ).rows;
      expect(Number(row?.minutes)).toBe(SLA_DEFAULTS.medium.triage_minutes);
      // The SSRF-guarded probe ran on it although snapshot_on_create is 0: status and title of the local page.
      const [snap] = await snapshotsOf(e.id);
      expect(snap).toMatchObject({ http_status: 200, page_title: `Вход ${e.data.domain_punycode}` });
    }
    // The mailing on source «Discovery» collects and sends the three; the one on «CT» has nothing.
    await ctx.app.services.mailings.tick();
    const deliveries = async (id: number) =>
      (await aUser.get(`/notifications/mailings/${id}/deliveries`)).json().items as { event_count: number }[];
    expect((await deliveries(discoveryMailing)).map((d) => d.event_count)).toEqual([3]);
    expect(await deliveries(ctMailing)).toEqual([]);
  }, 120_000);

  it('a second run creates no new events; runs are listed and read within the company only', async () => {
    const run = await finished(aUser, (await aUser.post('/discovery/runs', { company_id: A })).json().id);
    expect(run.status).toBe('done');
    expect(run.registered).toBe(4);
    expect(run.new_events).toBe(0);
    expect((await domainEvents(A, 'Discovery')).length).toBe(3);

    const list = await aUser.get(`/discovery/runs?company_id=${A}`);
    expect(list.json().total).toBe(2);
    expect(list.json().items[0].id).toBe(run.id);
    expect((await bUser.get('/discovery/runs')).json().total).toBe(0);
    expect((await bUser.get(`/discovery/runs/${run.id}`)).statusCode).toBe(404);
    expect((await bUser.get(`/discovery/runs?company_id=${A}`)).statusCode).toBe(404);
    expect((await bUser.post('/discovery/runs', { company_id: A })).statusCode).toBe(404);
    expect((await aViewer.post('/discovery/runs', { company_id: A })).statusCode).toBe(403);
    expect((await aViewer.get(`/discovery/runs/${run.id}`)).statusCode).toBe(200);
    // One unfinished run per company: B's (running elsewhere) refuses a second one.
    await ctx.database.db.execute(
      sql`INSERT INTO discovery_runs (company_id, trigger, status) VALUES (${B}, 'manual', 'running')`,
    );
    const busy = await bUser.post('/discovery/runs', { company_id: B });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toMatch(/^Поиск для этой компании уже выполняется: .*не больше одного запуска/);
    await ctx.database.db.execute(sql`DELETE FROM discovery_runs WHERE company_id = ${B}`);
    // A company without enabled domains gets a Russian 400.
    const none = await admin.post('/discovery/runs', { company_id: (await createCompany(ctx, 'Гамма')).id });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/нет включённых доменов/);
  }, 120_000);

  it('the schedule tick starts a run for a due company once', async () => {
    await setConfig('discovery_enabled', 1);
    await ctx.database.db.execute(
      sql`UPDATE discovery_runs SET created_at = created_at - interval '2 days' WHERE company_id = ${A}`,
    );
    await ctx.app.services.discovery.tick();
    await ctx.app.services.discovery.tick();
    const runs = (await aUser.get(`/discovery/runs?company_id=${A}`)).json().items as { id: number; trigger: string }[];
    expect(runs.filter((r) => r.trigger === 'schedule').length).toBe(1);
    const run = await finished(aUser, runs[0]?.id as number);
    expect(run).toMatchObject({ status: 'done', trigger: 'schedule', new_events: 0 });
    await setConfig('discovery_enabled', 0);
  }, 120_000);
});

describe('CT monitor', () => {
  it('raises events from matching certificates and resumes after a restart without duplicates', async () => {
    const ca = createTestCa({ cn: 'Forpost Test CA', o: 'Forpost' });
    const lookalike = (await admin.post('/discovery/preview', { domain: PROTECTED }))
      .json()
      .items.find((i: { fuzzer: string; domain: string }) => i.fuzzer === 'hyphenation').domain as string;
    ct = await startCtLog({
      entries: [
        issueCertificate(ca, { sans: [lookalike, `www.${lookalike}`], cn: lookalike }),
        issueCertificate(ca, { sans: ['unrelated-site.org'] }),
        issueCertificate(ca, { sans: ['forpost-login.xyz'], precert: true }), // keyword «forpost»
        issueCertificate(ca, { sans: [PROTECTED, `www.${PROTECTED}`] }), // the company's own domain
      ],
      maxEntries: 2,
    });
    await setConfig('discovery_ct_logs', ct.url);
    await setConfig('discovery_enabled', 1);
    // The keyword asset of company A (switched off in the assets test) is on again.
    const kws = (await aUser.get(`/companies/${A}/assets?kind=keyword`)).json().items as { id: number; value: string }[];
    for (const k of kws) await aUser.patch(`/companies/${A}/assets/${k.id}`, { enabled: true });

    const first = await ctx.app.services.discovery.ct.pass();
    expect(first).toMatchObject({ processed: 4 });
    const ctEvents = await domainEvents(A, 'CT');
    expect(ctEvents.map((e) => e.data.domain_punycode).sort()).toEqual(['forpost-login.xyz', lookalike].sort());
    const ev = ctEvents.find((e) => e.data.domain_punycode === lookalike);
    expect(ev?.data).toMatchObject({ asset: PROTECTED });
    expect(String(ev?.data.ct_issuer)).toContain('Forpost Test CA');
    expect(String(ev?.data.ct_names)).toContain(`www.${lookalike}`);
    expect(ev?.data.ct_not_after).toBeTruthy();
    // CT findings get the snapshot probe too.
    expect((await snapshotsOf(Number(ev?.id)))[0]).toMatchObject({ http_status: 200, page_title: `Вход ${lookalike}` });

    // The log grows; another instance (a restart) resumes from the saved index.
    ct.append([issueCertificate(ca, { sans: ['forpost-bonus.site'] }), issueCertificate(ca, { sans: ['nothing.example'] })]);
    const second = await setupSecondApp(ctx);
    const again = await second.app.services.discovery.ct.pass();
    expect(again).toMatchObject({ processed: 2, created: 1 });
    expect((await domainEvents(A, 'CT')).length).toBe(3);
    const state = await ctx.database.db.execute(sql`SELECT next_index FROM ct_log_state WHERE log_url = ${ct.url}`);
    expect(Number(state.rows[0]?.next_index)).toBe(6);
    // Nothing new: nothing read, nothing raised.
    expect(await ctx.app.services.discovery.ct.pass()).toMatchObject({ processed: 0, created: 0 });
    await setConfig('discovery_enabled', 0);
  }, 120_000);

  it('a failing log beside a healthy one: the healthy log is processed, the failing one keeps its index', async () => {
    if (!ct) throw new Error('the CT log of the previous test');
    const ca = createTestCa({ cn: 'Forpost Test CA 2', o: 'Forpost' });
    badCt = await startCtLog({ entries: [issueCertificate(ca, { sans: ['unrelated-one.org'] })] });
    // The failing log comes first: its failure must not stop the pass before the healthy one.
    await setConfig('discovery_ct_logs', `${badCt.url}, ${ct.url}`);
    await setConfig('discovery_enabled', 1);
    const nextIndex = async (url: string) => {
      const r = await ctx.database.db.execute(sql`SELECT next_index FROM ct_log_state WHERE log_url = ${url}`);
      return Number(r.rows[0]?.next_index);
    };
    expect(await ctx.app.services.discovery.ct.pass()).toMatchObject({ processed: 1, created: 0 });
    expect(await nextIndex(badCt.url)).toBe(1);
    expect(await nextIndex(ct.url)).toBe(6);

    badCt.append([issueCertificate(ca, { sans: ['forpost-pay.site'] })]);
    badCt.setFailing(true);
    ct.append([issueCertificate(ca, { sans: ['forpost-kabinet.site'] })]);
    expect(await ctx.app.services.discovery.ct.pass()).toMatchObject({ processed: 1, created: 1 });
    expect(await nextIndex(badCt.url)).toBe(1);
    expect(await nextIndex(ct.url)).toBe(7);
    expect(logs.some((l) => l.msg === 'CT log follow failed' && l.url === badCt?.url)).toBe(true);
    expect((await domainEvents(A, 'CT')).map((e) => e.data.domain_punycode)).toContain('forpost-kabinet.site');

    // Back up: the failing log goes on from its kept index, nothing skipped.
    badCt.setFailing(false);
    expect(await ctx.app.services.discovery.ct.pass()).toMatchObject({ processed: 1, created: 1 });
    expect(await nextIndex(badCt.url)).toBe(2);
    expect((await domainEvents(A, 'CT')).map((e) => e.data.domain_punycode)).toContain('forpost-pay.site');
    await setConfig('discovery_enabled', 0);
  }, 120_000);
});
