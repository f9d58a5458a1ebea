/*
 * The watch (#31) against real peers on 127.0.0.1: the DNS server peer (zones edited during the test:
 * a domain gains MX, changes A, goes NXDOMAIN, comes back) and one HTTP/HTTPS server whose pages and
 * certificates change (a parked page, a login form, 404). Rounds are driven directly (no poller, no
 * sleeps): after each scripted step one round observes every domain, and the transitions recorded
 * must be exactly the step's; idle rounds must record none. Also: history, the priority rule, an
 * allowlisted domain reopened, the lease (two workers never observe one domain twice), the API.
 */
import { TRANSITION_KINDS, type TransitionKind } from '@forpost/contract/watch';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/sql';
import { createWatch, type Watch } from '../src/modules/watch/index';
import { setConfig } from './discovery-kit';
import { type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { issueCertificate } from './peers/certs';
import { startCtLog } from './peers/ct-log-server';
import { type DnsServer, startDnsServer, type ZoneEntry } from './peers/dns-server';
import { startRdapServer } from './peers/rdap-server';
import { type Page, startWebServer, type WebServer } from './peers/web-server';

let ctx: TestContext;
let admin: Client;
let dns: DnsServer;
let web: WebServer;
let watch: Watch;
let A: number;
const seen: { eventId: number; kind: TransitionKind }[] = [];

const LIVE = '127.0.0.1';
/** Nothing listens on the web server's port there: a site whose address changed to a dead host. */
const DEAD = '127.0.0.2';
const HOSTER = ['ns1.hoster.ru', 'ns2.hoster.ru'];
const PARKING = ['ns1.sedoparking.com', 'ns2.sedoparking.com'];

interface World {
  dns: ZoneEntry | null;
  page?: Page | null;
  /** Issue a new certificate for the host in this step. */
  cert?: boolean;
}
interface Step extends World {
  expect: TransitionKind[];
}

const parkedPage: Page = {
  status: 200,
  body: '<html><head><title>Домен продаётся</title></head><body>Купить домен</body></html>',
};
const loginPage = (v: number): Page => ({
  status: 200,
  body: `<html><head><title>Сбербанк Онлайн</title></head><body><h1>Вход v${v}</h1><form><input name="login"><input type="password" name="p"><input type="hidden" name="csrf" value="${Math.random()}"></form></body></html>`,
});
const shopPage = (v: number): Page => ({
  status: 200,
  body: `<html><head><title>Магазин</title></head><body><p>Товары, версия ${v}</p><script>var t=${Date.now()}</script></body></html>`,
});
const gone: Page = { status: 404, body: '<html><head><title>Not Found</title></head><body>нет</body></html>' };

/** Script A: nothing → parked → mail → a parked page → login → certificate → new content → 404 → back → dead A → back → NXDOMAIN. */
const SCRIPT_A: Step[] = [
  { dns: null, page: null, expect: [] },
  { dns: { NS: HOSTER }, expect: ['parked'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'] }, expect: ['mx_appeared'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, page: parkedPage, expect: ['web_live'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, page: loginPage(1), expect: ['login_form'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, cert: true, expect: ['cert_issued'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, page: loginPage(2), expect: ['content_changed'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, page: gone, expect: ['offline'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, page: loginPage(2), expect: ['login_form', 'came_back'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [DEAD] }, expect: ['offline'] },
  { dns: { NS: HOSTER, MX: ['mx.mail.ru'], A: [LIVE] }, expect: ['login_form', 'came_back'] },
  { dns: null, expect: ['offline'] },
];

/** Script B: a live shop → new content → mail → parking NS → NXDOMAIN → back with a login → certificate → only NS. */
const SCRIPT_B: Step[] = [
  { dns: { NS: HOSTER, A: [LIVE] }, page: shopPage(1), expect: [] },
  { dns: { NS: HOSTER, A: [LIVE] }, page: shopPage(2), expect: ['content_changed'] },
  { dns: { NS: HOSTER, A: [LIVE], MX: ['mx.yandex.net'] }, expect: ['mx_appeared'] },
  { dns: { NS: PARKING, A: [LIVE], MX: ['mx.yandex.net'] }, page: parkedPage, expect: ['parked', 'content_changed'] },
  { dns: null, expect: ['offline'] },
  { dns: { NS: HOSTER, A: [LIVE] }, page: loginPage(1), expect: ['login_form', 'came_back'] },
  { dns: { NS: HOSTER, A: [LIVE] }, cert: true, expect: ['cert_issued'] },
  { dns: { NS: HOSTER, A: [LIVE] }, cert: true, expect: ['cert_issued'] },
  { dns: { NS: HOSTER }, expect: ['offline'] },
  { dns: { NS: HOSTER, A: [LIVE], MX: ['mx.yandex.net'] }, expect: ['mx_appeared', 'login_form', 'came_back'] },
];

const DOMAINS = 120;
const domains = Array.from({ length: DOMAINS }, (_, i) => ({
  name: `w${i}-forpost-watch.ru`,
  script: i % 2 ? SCRIPT_B : SCRIPT_A,
  id: 0,
}));

function apply(host: string, w: World) {
  dns.setRecord(host, w.dns);
  if (w.page !== undefined) web.setPage(host, w.page);
  if (w.cert) web.issueCert(host);
}

/** One round; the transitions it recorded, by event id. */
async function round(): Promise<Map<number, TransitionKind[]>> {
  seen.length = 0;
  await watch.repo.makeDue();
  const t0 = performance.now();
  const r = await watch.round();
  if (process.env.WATCH_TIMING) console.log(`round: ${r.observed} in ${Math.round(performance.now() - t0)} ms`);
  const by = new Map<number, TransitionKind[]>();
  for (const t of seen) by.set(t.eventId, [...(by.get(t.eventId) ?? []), t.kind]);
  for (const [k, v] of by)
    by.set(
      k,
      TRANSITION_KINDS.filter((x) => v.includes(x)),
    );
  return by;
}

beforeAll(async () => {
  web = await startWebServer();
  dns = await startDnsServer({});
  ctx = await setupApp({ OUTBOUND_ALLOW_PRIVATE: '1', CHROMIUM_PATH: '/nonexistent/chromium' });
  admin = await signedIn(ctx, 'watch-admin@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Наблюдаемая')).id;
  await setConfig(admin, 'discovery_dns_servers', dns.server);
  await setConfig(admin, 'discovery_dns_rate', 100000);
  // Generous: a page that times out is no evidence (see the test of it), and the machine may be busy.
  await setConfig(admin, 'snapshot_timeout_seconds', 20);
  watch = createWatch({
    db: ctx.database.db,
    audit: ctx.app.services.audit,
    configs: ctx.app.services.configs,
    log: { warn() {}, info() {} },
    outbound: { allowPrivate: true },
    options: { httpPort: web.port, concurrency: 32, perDestination: { concurrency: 16, ratePerSecond: 100000 } },
    onTransition: (t) => seen.push(t),
  });
  const decisions = (await admin.get('/modules/domains/events/decisions')).json().items as { id: number; code: string }[];
  const monitor = decisions.find((d) => d.code === 'monitor')?.id;
  for (const [i, d] of domains.entries()) {
    const r = await admin.post('/modules/domains/events', {
      company_id: A,
      domain: d.name,
      ...(i % 3 === 0 ? { decision_id: monitor } : {}),
    });
    expect(r.statusCode, r.body).toBe(201);
    d.id = r.json().id;
    // Two in three watched by their own flag, one in three by the «Наблюдать» decision.
    if (i % 3 !== 0)
      expect((await admin.req('PUT', `/modules/domains/events/${d.id}/watch`, { watched: true })).statusCode).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await web?.close();
  await dns?.close();
});

describe('the watch over scripted domains', () => {
  it(`${DOMAINS} domains, ≥ 6 transitions each: every one on the first observation after it, none on idle ones`, async () => {
    const steps = Math.max(SCRIPT_A.length, SCRIPT_B.length);
    let total = 0;
    const perDomain = new Map<number, number>();
    for (let s = 0; s < steps; s++) {
      for (const d of domains) {
        const step = d.script[s];
        if (step) apply(d.name, step);
      }
      const got = await round();
      for (const d of domains) {
        const want = d.script[s]?.expect ?? [];
        expect({ domain: d.name, step: s, kinds: got.get(d.id) ?? [] }).toEqual({ domain: d.name, step: s, kinds: want });
        total += want.length;
        perDomain.set(d.id, (perDomain.get(d.id) ?? 0) + want.length);
      }
      // An idle observation between steps: nothing changed, nothing reported.
      expect([...(await round()).entries()]).toEqual([]);
    }
    for (let i = 0; i < 3; i++) expect([...(await round()).entries()]).toEqual([]);
    expect(Math.min(...perDomain.values())).toBeGreaterThanOrEqual(6);
    expect(total).toBeGreaterThanOrEqual(DOMAINS * 6);
  }, 300_000);

  it('states are stored once per distinct state, with the time range it held', async () => {
    const d = domains[0] as (typeof domains)[number];
    const states = await rowsOf<{ observations: number; first_seen: string; last_seen: string }>(
      ctx.database.db,
      sql`SELECT observations, first_seen, last_seen FROM watch_states WHERE event_id = ${d.id} ORDER BY id`,
    );
    // One row per distinct state (the script's steps differ), each seen on its step and the idle rounds after it.
    expect(states.length).toBeLessThanOrEqual(SCRIPT_A.length);
    expect(states.every((s) => s.observations >= 2)).toBe(true);
    expect(states.every((s) => new Date(s.last_seen) >= new Date(s.first_seen))).toBe(true);
  });

  it('a transition is written to the event history; MX and login form raise the priority (the default rule)', async () => {
    const d = domains[0] as (typeof domains)[number];
    const h = (await admin.get(`/modules/domains/events/${d.id}/history`)).json().items as {
      action: string;
      field: string;
      field_label: string;
      after: { comment?: string };
    }[];
    const watchLines = h.filter((x) => x.field === 'watch').map((x) => x.after.comment ?? '');
    expect(watchLines.some((c) => c.startsWith('Появилась почта (MX): mx.mail.ru'))).toBe(true);
    expect(watchLines.some((c) => c.startsWith('Перестал работать (NXDOMAIN)'))).toBe(true);
    expect(h.find((x) => x.field === 'watch')?.field_label).toBe('Наблюдение');
    expect(h.some((x) => x.field === 'priority_id')).toBe(true);
    const ev = (await admin.get(`/modules/domains/events/${d.id}`)).json();
    const priorities = (await admin.get('/modules/domains/events/priorities')).json().items as { id: number; code: string }[];
    expect(priorities.find((p) => p.id === ev.priority_id)?.code).toBe('high');
  });

  it('the timeline: states newest first with their ranges, transitions with Russian names', async () => {
    const d = domains[1] as (typeof domains)[number];
    const r = await admin.get(`/modules/domains/events/${d.id}/watch`);
    expect(r.statusCode, r.body).toBe(200);
    const w = r.json();
    expect(w.watched).toBe(true);
    expect(w.flag).toBe(true);
    expect(w.states.length).toBeGreaterThan(3);
    expect(w.transitions.map((t: { label: string }) => t.label)).toContain('Выпущен сертификат');
    const cert = w.transitions.find((t: { kind: string }) => t.kind === 'cert_issued');
    expect(cert.after.tls_sans).toEqual([d.name]);
    expect(cert.after.tls_issuer).toBe('Forpost Watch');
  });
});

describe('rules, allowlist, lease', () => {
  it('an allowlisted, closed domain whose MX appears is reopened with the reason; the company rule sets the priority', async () => {
    const name = 'allowed-forpost-watch.ru';
    dns.setRecord(name, { NS: HOSTER });
    const r = await admin.post('/modules/domains/events', { company_id: A, domain: name });
    const id = r.json().id as number;
    const statuses = (await admin.get('/modules/domains/events/statuses')).json().items as { id: number; code: string }[];
    const resolved = statuses.find((s) => s.code === 'resolved')?.id;
    const [me] = await rowsOf<{ id: number }>(
      ctx.database.db,
      sql`SELECT id FROM users WHERE email = 'watch-admin@forpost.test'`,
    );
    const p = await admin.patch(`/modules/domains/events/${id}`, { status_id: resolved, assignee_id: me?.id });
    expect(p.statusCode, p.body).toBe(200);
    expect((await admin.post('/modules/domains/allowlist', { company_id: A, domain: name })).statusCode).toBe(201);
    expect((await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true })).statusCode).toBe(200);
    const put = await admin.req('PUT', `/companies/${A}/watch`, {
      enabled: true,
      interval_minutes: 60,
      rules: { mx_appeared: 'critical' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await round(); // baseline
    dns.setRecord(name, { NS: HOSTER, MX: ['mx.evil.ru'] });
    expect((await round()).get(id)).toEqual(['mx_appeared']);
    const ev = (await admin.get(`/modules/domains/events/${id}`)).json();
    expect(statuses.find((s) => s.id === ev.status_id)?.code).toBe('new');
    const priorities = (await admin.get('/modules/domains/events/priorities')).json().items as { id: number; code: string }[];
    expect(priorities.find((p) => p.id === ev.priority_id)?.code).toBe('critical');
    const h = (await admin.get(`/modules/domains/events/${id}/history`)).json().items as { after: { comment?: string } }[];
    expect(h.some((x) => x.after?.comment === 'Домен из списка разрешённых изменился: Появилась почта (MX)')).toBe(true);
    // The assignee's bell.
    const bell = (await admin.get('/notifications')).json().items as { kind: string; text: string }[];
    expect(bell.some((n) => n.kind === 'watch' && n.text === `${name}: Появилась почта (MX)`)).toBe(true);
  }, 120_000);

  it('a company with the watch off is not observed; an event switched off is not observed', async () => {
    const B = (await createCompany(ctx, 'Без наблюдения')).id;
    const name = 'off-forpost-watch.ru';
    dns.setRecord(name, { NS: HOSTER });
    const id = (await admin.post('/modules/domains/events', { company_id: B, domain: name })).json().id as number;
    await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true });
    expect(
      (await admin.req('PUT', `/companies/${B}/watch`, { enabled: false, interval_minutes: 360, rules: {} })).statusCode,
    ).toBe(200);
    await round();
    expect((await admin.get(`/modules/domains/events/${id}/watch`)).json().states).toEqual([]);
    const d = domains[2] as (typeof domains)[number];
    await admin.req('PUT', `/modules/domains/events/${d.id}/watch`, { watched: false });
    const seenOf = async () => (await admin.get(`/modules/domains/events/${d.id}/watch`)).json().states[0];
    const before = await seenOf();
    await round();
    expect(await seenOf()).toEqual(before);
  }, 120_000);

  it('the first observation of a domain asks RDAP for its status (the RDAP peer); later ones do not', async () => {
    const name = 'rdap-forpost-watch.ru';
    const rdap = await startRdapServer({
      [name]: { body: { objectClassName: 'domain', ldhName: name, status: ['active', 'client transfer prohibited'] } },
    });
    try {
      await setConfig(admin, 'discovery_rdap_servers', `ru=${rdap.url}`);
      dns.setRecord(name, { NS: HOSTER });
      const id = (await admin.post('/modules/domains/events', { company_id: A, domain: name })).json().id as number;
      await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true });
      await round();
      await round();
      const w = (await admin.get(`/modules/domains/events/${id}/watch`)).json();
      expect(w.states.map((s: { state: { rdap_status: string[] } }) => s.state.rdap_status)).toEqual([
        ['active', 'client transfer prohibited'],
      ]);
      expect(rdap.requests.filter((p) => p.includes(name))).toHaveLength(1);
      // The domains watched before (each already observed) were not asked at all.
      expect(rdap.requests.filter((p) => !p.includes(name))).toEqual([]);
    } finally {
      await setConfig(admin, 'discovery_rdap_servers', '');
      await rdap.close();
    }
  }, 120_000);

  it('a page that stops answering in time: nothing on the first observation, offline on the second in a row', async () => {
    const name = 'slow-forpost-watch.ru';
    dns.setRecord(name, { NS: HOSTER, A: [LIVE] });
    web.setPage(name, shopPage(1));
    const id = (await admin.post('/modules/domains/events', { company_id: A, domain: name })).json().id as number;
    await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true });
    await setConfig(admin, 'snapshot_timeout_seconds', 1);
    try {
      expect((await round()).get(id)).toBeUndefined(); // baseline: a live page
      web.setPage(name, { ...shopPage(1), hang: true });
      expect((await round()).get(id)).toBeUndefined(); // one timeout (asked twice): the last page is kept
      expect((await round()).get(id)).toEqual(['offline']); // again: gone
      web.setPage(name, shopPage(1));
      expect((await round()).get(id)).toEqual(['came_back']);
    } finally {
      await setConfig(admin, 'snapshot_timeout_seconds', 20);
    }
  }, 180_000);

  it('a certificate a CT log shows for a watched name serving no TLS: «certificate issued» on the next observation, once', async () => {
    const name = 'ct-forpost-watch.ru';
    dns.setRecord(name, { NS: HOSTER, A: [LIVE] });
    web.setPage(name, shopPage(1)); // HTTP only: no certificate for the name yet
    const id = (await admin.post('/modules/domains/events', { company_id: A, domain: name })).json().id as number;
    await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true });
    const log = await startCtLog({ entries: [] });
    try {
      await setConfig(admin, 'discovery_ct_logs', log.url);
      await setConfig(admin, 'discovery_enabled', 1);
      const pass = () => ctx.app.services.discovery.ct.pass();
      await pass(); // the log's start (empty): no company has assets, the watch alone wants the log read
      expect((await round()).get(id)).toBeUndefined(); // baseline
      const serial = '0c7a11';
      log.append([
        issueCertificate(web.ca, { sans: [name, `www.${name}`], cn: name, serial, precert: true }),
        issueCertificate(web.ca, { sans: ['unrelated-ct-name.org'] }),
      ]);
      expect(await pass()).toMatchObject({ processed: 2 });
      expect((await round()).get(id)).toEqual(['cert_issued']);
      expect((await round()).get(id)).toBeUndefined();
      // The same certificate again in the log (its final form, same serial): nothing new.
      log.append([issueCertificate(web.ca, { sans: [name, `www.${name}`], cn: name, serial })]);
      expect(await pass()).toMatchObject({ processed: 1 });
      expect((await round()).get(id)).toBeUndefined();
      // The site starts serving that certificate: the same one (by serial), no second «issued».
      web.issueCert(name, { serial });
      expect((await round()).get(id)).toBeUndefined();
      expect((await round()).get(id)).toBeUndefined();
      const wr = await admin.get(`/modules/domains/events/${id}/watch`);
      expect(wr.statusCode, wr.body).toBe(200);
      const w = wr.json();
      expect(w.states[0].state).toMatchObject({ tls_source: 'tls', tls_serial: serial, tls_issuer: 'Forpost Watch' });
      const issued = w.transitions.filter((t: { kind: string }) => t.kind === 'cert_issued');
      expect(issued).toHaveLength(1);
      expect(issued[0].after).toMatchObject({ tls_source: 'ct', tls_issuer: 'Forpost Watch', tls_sans: [name, `www.${name}`] });
      const h = (await admin.get(`/modules/domains/events/${id}/history`)).json().items as { after: { comment?: string } }[];
      expect(h.map((x) => x.after?.comment)).toContain(`Выпущен сертификат: Forpost Watch, ${name}, www.${name} (журнал CT)`);
    } finally {
      await setConfig(admin, 'discovery_enabled', 0);
      await setConfig(admin, 'discovery_ct_logs', '');
      await log.close();
    }
  }, 120_000);

  it('the card follows the observations: IP, NS, «Есть MX», HTTP status, title, certificate; one history line per change', async () => {
    const name = 'card-forpost-watch.ru';
    dns.setRecord(name, { NS: HOSTER, A: [LIVE] });
    web.setPage(name, shopPage(1));
    const id = (await admin.post('/modules/domains/events', { company_id: A, domain: name })).json().id as number;
    await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true });
    type Line = { action: string; field: string; before: unknown; after: unknown; actor_id: number | null };
    const card = async () => (await admin.get(`/modules/domains/events/${id}`)).json();
    let known = 0;
    /** The history lines written since the last call, oldest first. */
    const newLines = async () => {
      const items = ((await admin.get(`/modules/domains/events/${id}/history`)).json().items as (Line & { id: number })[])
        .filter((x) => x.id > known)
        .sort((a, b) => a.id - b.id);
      known = Math.max(known, ...items.map((x) => x.id));
      return items.map(({ action, field, before, after, actor_id }) => ({ action, field, before, after, actor_id }));
    };
    await newLines();

    expect((await round()).get(id)).toBeUndefined(); // the baseline: no transition, but the card learns it all
    expect(await card()).toMatchObject({
      ip: LIVE,
      ns: HOSTER.join(', '),
      mx: false,
      http_status: 200,
      page_title: 'Магазин',
      ct_issuer: null,
    });
    const sys = (field: string, before: unknown, after: unknown) => ({ action: 'update', field, before, after, actor_id: null });
    expect(await newLines()).toEqual([
      sys('ip', null, LIVE),
      sys('page_title', null, 'Магазин'),
      sys('http_status', null, 200),
      sys('mx', null, false),
      sys('ns', null, HOSTER.join(', ')),
    ]);
    expect((await round()).get(id)).toBeUndefined(); // idle: nothing written
    expect(await newLines()).toEqual([]);

    // MX appears: the transition's line tells it; no second «Есть MX» line.
    dns.setRecord(name, { NS: HOSTER, A: [LIVE], MX: ['mx.evil.ru'] });
    expect((await round()).get(id)).toEqual(['mx_appeared']);
    expect((await card()).mx).toBe(true);
    const mxLines = await newLines();
    expect(mxLines.filter((l) => l.field === 'mx')).toEqual([]);
    expect(mxLines.filter((l) => l.field === 'watch')).toHaveLength(1);

    // MX gone: no transition names it, so the field's own line by the system.
    dns.setRecord(name, { NS: HOSTER, A: [LIVE] });
    expect((await round()).get(id)).toBeUndefined();
    expect(await newLines()).toEqual([sys('mx', true, false)]);

    // A certificate: the card's certificate fields, told by «Выпущен сертификат».
    web.issueCert(name);
    expect((await round()).get(id)).toEqual(['cert_issued']);
    expect(await card()).toMatchObject({ ct_issuer: 'Forpost Watch', ct_names: name });
    expect((await newLines()).map((l) => l.field)).toEqual(['watch']);

    // The site's address goes dead: «Перестал работать» tells the IP, status and title; they follow.
    dns.setRecord(name, { NS: HOSTER, A: [DEAD] });
    expect((await round()).get(id)).toEqual(['offline']);
    expect(await card()).toMatchObject({ ip: DEAD, http_status: null, page_title: null, ct_issuer: 'Forpost Watch' });
    expect((await newLines()).map((l) => l.field)).toEqual(['watch']);
  }, 120_000);

  it('two workers at once never observe one domain twice (lease, SKIP LOCKED)', async () => {
    await watch.repo.makeDue();
    const [x, y] = await Promise.all([watch.repo.claim(1000, 600), watch.repo.claim(1000, 600)]);
    const ids = [...(x ?? []), ...(y ?? [])].map((t) => t.event_id);
    expect(ids.length).toBeGreaterThan(DOMAINS / 2);
    expect(new Set(ids).size).toBe(ids.length);
    // Leased: a third claim finds nothing until the lease is released.
    expect(await watch.repo.claim(1000, 600)).toEqual([]);
    await watch.repo.release(ids);
  });
});
