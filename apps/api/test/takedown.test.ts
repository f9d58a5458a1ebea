/*
 * Takedown requests (#32) end to end against real peers on 127.0.0.1: the DNS server peer (zones edited
 * during the test), an HTTP/HTTPS server whose page changes, an RDAP server of the .ru registry (with
 * the registrar's abuse entity nested under the registrar, as ICANN's profile shapes it) that also
 * serves the RFC 9224 bootstrap files dns.json and ipv4.json, an RDAP server of the RIR holding
 * 127.0.0.0/8 (the network's abuse entity), and an SMTP server as the abuse desks.
 *
 *   discovery finds the lookalike → the watch sees MX + a login form → priority raised and a subscribed
 *   mailing sent → a takedown drafted with recipients found by
 *   RDAP → sent (every message holds a PDF, an XARF v4 report valid against the unmodified schemas
 *   and the screenshot) → the domain goes NXDOMAIN → «ресурс недоступен» after two observations →
 *   it comes back → «возобновлён» and a new draft; plus the hourly limit per address, escalation
 *   after the SLA, permissions and the figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { XARF_TYPES } from '@forpost/contract/takedown';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { createLocalDocStore } from '../src/lib/docstore';
import type { Evidence } from '../src/modules/takedown/evidence';
import { xarfReport } from '../src/modules/takedown/evidence';
import { createWatch, type Watch } from '../src/modules/watch/index';
import { runEnded, setConfig } from './discovery-kit';
import { type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { type DnsServer, startDnsServer } from './peers/dns-server';
import { type RdapServer, rdapBootstrapFile, recordedComDomain, startRdapServer } from './peers/rdap-server';
import { startWebServer, type WebServer } from './peers/web-server';
import { pdfText } from './reports.pdftext';
import { mailHeader, mailText, startSmtp } from './smtp';
import { standardsDir } from './standards';

const XARF_DIR = path.join(standardsDir(), 'xarf-v4/schemas/v4');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const LIVE = '127.0.0.1';
const NS = ['ns1.hoster.ru', 'ns2.hoster.ru'];
const loginPage = {
  status: 200,
  body: '<html><head><title>Сбербанк Онлайн</title></head><body><form><input name="login"><input type="password" name="p"></form></body></html>',
};
const parkedPage = { status: 200, body: '<html><head><title>Домен продаётся</title></head><body>Купить</body></html>' };

let ctx: TestContext;
let admin: Client;
let dns: DnsServer;
let web: WebServer;
let registry: RdapServer;
let rir: RdapServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let watch: Watch;
let boss: PgBoss;
let A: number;
const validate = loadXarf();
const xarfSeen: unknown[] = [];

function loadXarf() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  const files = [path.join(XARF_DIR, 'xarf-core.json'), path.join(XARF_DIR, 'xarf-v4-master.json')];
  for (const f of readdirSync(path.join(XARF_DIR, 'types'))) if (f.endsWith('.json')) files.push(path.join(XARF_DIR, 'types', f));
  for (const f of files) ajv.addSchema(JSON.parse(readFileSync(f, 'utf8')));
  return (type: string, report: unknown) => {
    xarfSeen.push(report);
    const master = ajv.getSchema('https://xarf.org/schemas/v4/xarf-v4-master.json');
    const typed = ajv.getSchema(`https://xarf.org/schemas/v4/types/content-${type}.json`);
    if (!master || !typed) throw new Error('XARF schemas not loaded');
    const ok = master(report) && typed(report);
    return { ok, errors: JSON.stringify([...(master.errors ?? []), ...(typed.errors ?? [])]) };
  };
}

/** The MIME parts of a raw message: content type, filename and decoded bytes. */
function parts(raw: string): { type: string; name: string | null; body: Buffer }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((sec) => {
      const m = /^\r?\n([\s\S]*?)\r?\n\r?\n([\s\S]*)$/.exec(sec);
      const head = (m?.[1] ?? '').replace(/\r?\n[ \t]+/g, ' ');
      const body = (m?.[2] ?? '').trim();
      const enc = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
      return {
        type: /content-type:\s*([^;\s]+)/i.exec(head)?.[1]?.toLowerCase() ?? '',
        name: /filename="?([^";]+)"?/i.exec(head)?.[1] ?? null,
        body:
          enc === 'base64'
            ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
            : enc === 'quoted-printable'
              ? Buffer.from(
                  body
                    .replace(/=\r?\n/g, '')
                    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
                  'latin1',
                )
              : Buffer.from(body),
      };
    });
}

/** A .ru answer: the recorded shape with the registrar's abuse nested under the registrar entity. */
function ruDomain(name: string) {
  const d = recordedComDomain(name) as Record<string, unknown>;
  return { ...d, status: ['client transfer prohibited'], links: [] };
}
const network = {
  objectClassName: 'ip network',
  handle: '127.0.0.0 - 127.255.255.255',
  startAddress: '127.0.0.0',
  endAddress: '127.255.255.255',
  ipVersion: 'v4',
  name: 'HOSTER-NET',
  type: 'ASSIGNED PA',
  country: 'RU',
  entities: [
    {
      objectClassName: 'entity',
      handle: 'ORG-HST1-RIPE',
      roles: ['registrant'],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'Hoster LLC'],
          ['kind', {}, 'text', 'org'],
        ],
      ],
    },
    {
      objectClassName: 'entity',
      handle: 'HST-RIPE',
      roles: ['technical', 'administrative'],
      entities: [
        {
          objectClassName: 'entity',
          handle: 'AR-HST-RIPE',
          roles: ['abuse'],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['fn', {}, 'text', 'Abuse contact'],
              ['kind', {}, 'text', 'group'],
              ['email', { type: 'abuse' }, 'text', 'abuse@hoster-net.test'],
            ],
          ],
        },
      ],
    },
  ],
  rdapConformance: ['rdap_level_0', 'nro_rdap_profile_0'],
};

/** The first is found by a discovery run of the protected sberbank.ru (a letter left out); the others are created. */
const PROTECTED = 'sberbank.ru';
const NAMES = ['sberbnk.ru', 'sber-pay-td.ru', 'sber-card-td.ru'];
const SOC = 'soc-watch@brand.test';
const ids: number[] = [];

const pending: Promise<unknown>[] = [];
async function round() {
  await watch.repo.makeDue();
  await watch.round();
  await Promise.all(pending.splice(0));
  return ctx.app.services.takedown.follow();
}
async function request(id: number) {
  const r = await admin.get(`/takedown/requests/${id}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

beforeAll(async () => {
  web = await startWebServer();
  dns = await startDnsServer({});
  smtp = await startSmtp();
  rir = await startRdapServer({}, { '/ip/127.0.0.1': { body: network } });
  await freeRegistry();
  ctx = await setupApp({
    OUTBOUND_ALLOW_PRIVATE: '1',
    CHROMIUM_PATH: '/nonexistent/chromium',
    TAKEDOWN_MAIL_FROM: 'Форпост abuse <abuse-desk@forpost.test>',
    TAKEDOWN_RECIPIENT_HOURLY_LIMIT: '2',
  });
  admin = await signedIn(ctx, 'takedown-admin@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Сбербанк-тест')).id;
  await setConfig(admin, 'discovery_dns_servers', dns.server);
  await setConfig(admin, 'discovery_dns_rate', 100000);
  await setConfig(admin, 'snapshot_timeout_seconds', 20);
  await setConfig(admin, 'discovery_rdap_bootstrap', `${registry.url}/rdap/dns.json`);
  await setConfig(admin, 'smtp_url', smtp.url);
  watch = createWatch({
    db: ctx.database.db,
    audit: ctx.app.services.audit,
    configs: ctx.app.services.configs,
    log: { warn() {}, info() {} },
    outbound: { allowPrivate: true },
    options: { httpPort: web.port, concurrency: 8, perDestination: { concurrency: 8, ratePerSecond: 100000 } },
    // As the app's own watch does (takedown/index.ts): a transition runs the follower for its event.
    onTransition: (t) => void pending.push(ctx.app.services.takedown.follow([t.eventId])),
  });
  for (const name of NAMES) {
    dns.setRecord(name, { NS, A: [LIVE] });
    web.setPage(name, parkedPage);
  }
  // Discovery finds the first: the company protects sberbank.ru, a run resolves every candidate against the
  // DNS peer (only sberbnk.ru is registered among them) and raises the event.
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.discovery.attach(boss, { work: true, background: false });
  expect((await admin.post(`/companies/${A}/assets`, { kind: 'domain', value: PROTECTED })).statusCode).toBe(201);
  const start = await admin.post('/discovery/runs', { company_id: A });
  expect(start.statusCode, start.body).toBe(202);
  const run = await runEnded(admin, start.json().id, 90_000);
  expect(run.status, run.error).toBe('done');
  expect(run.new_events).toBe(1);
  const found = await ctx.database.db.execute(
    sql`SELECT id::int AS id, source FROM events WHERE company_id = ${A} AND module = 'domains' AND data->>'domain_punycode' = ${NAMES[0]}`,
  );
  expect(found.rows).toHaveLength(1);
  ids.push((found.rows[0] as { id: number }).id);
  for (const name of NAMES.slice(1)) {
    const r = await admin.post('/modules/domains/events', { company_id: A, domain: name, asset: PROTECTED, similarity: 91 });
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  for (const id of ids)
    expect((await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true })).statusCode).toBe(200);
  // A screenshot of the first domain (what the snapshot producer stores).
  const stored = await createLocalDocStore(path.join(ctx.config.dataDir, 'files')).put(Readable.from(PNG));
  const d = await ctx.database.db.execute(sql`
    INSERT INTO docs (kind, company_id, event_id, name, mimetype, size, sha256, storage_key)
    VALUES ('screenshot', ${A}, ${ids[0]}, 'shot.png', 'image/png', ${stored.size}, 'x', ${stored.key}) RETURNING id`);
  await ctx.database.db.execute(sql`
    INSERT INTO domain_snapshots (event_id, screenshot_doc_id, page_title, ip) VALUES (${ids[0]}, ${(d.rows[0] as { id: number }).id}, 'Сбербанк Онлайн', ${LIVE})`);
}, 120_000);

/** The registry answers the names and serves both bootstrap files (its URL known once it listens). */
async function freeRegistry() {
  const records = Object.fromEntries(NAMES.map((n) => [n, { body: ruDomain(n) }]));
  const files: Record<string, { body: unknown }> = {};
  registry = await startRdapServer(records, files);
  files['/rdap/dns.json'] = { body: rdapBootstrapFile([[['ru'], [`${registry.url}/`]]]) };
  files['/rdap/ipv4.json'] = { body: rdapBootstrapFile([[['127.0.0.0/8'], [`${rir.url}/`]]]) };
  return registry.url;
}

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await Promise.all([web?.close(), dns?.close(), smtp?.close(), registry?.close(), rir?.close()]);
});

describe('takedown end to end', () => {
  let first: { id: number; reference: string };

  it('the watch sees MX and a login form on the discovered domain: the priority is raised and the subscribed mailing sent', async () => {
    const m = await admin.post('/notifications/mailings', {
      name: 'Почта и формы входа на двойниках',
      company_id: A,
      recipients: [SOC],
      filters: { modules: ['domains'], transitions: ['mx_appeared', 'login_form'] },
      params: { frequency: 'instant', format: 'text' },
    });
    expect(m.statusCode, m.body).toBe(201);
    await round(); // baseline
    for (const name of NAMES) {
      dns.setRecord(name, { NS, A: [LIVE], MX: ['mx.mail.ru'] });
      web.setPage(name, loginPage);
    }
    await round();
    const e = (await admin.get(`/modules/domains/events/${ids[0]}`)).json();
    const w = (await admin.get(`/modules/domains/events/${ids[0]}/watch`)).json();
    expect(w.transitions.map((t: { kind: string }) => t.kind).sort()).toEqual(['login_form', 'mx_appeared']);
    const priorities = (await admin.get('/modules/domains/events/priorities')).json().items as { id: number; code: string }[];
    expect(e.priority_id).toBe(priorities.find((p) => p.code === 'high')?.id);
    expect(e.source).toBe('Discovery');
    // The mailing's next pass sends one letter naming the discovered domain and both transitions.
    const before = smtp.mails.length;
    expect(await ctx.app.services.mailings.tick(new Date(Date.now() + 120_000))).toMatchObject({ sent: 1 });
    const letter = (await smtp.waitFor(before + 1)).slice(before);
    expect(letter.map((x) => x.to)).toEqual([[SOC]]);
    const text = mailText(letter[0]?.raw ?? '');
    expect(text).toContain(NAMES[0]);
    expect(text).toContain('появилась почта (MX)');
    expect(text).toContain('появилась форма входа');
  });

  it('a draft: evidence and recipients found by RDAP (registrar abuse nested under the registrar; the network held for escalation) and the zone address', async () => {
    const s = await admin.req('PUT', `/companies/${A}/takedown`, {
      registrar_sla_hours: 48,
      hosting_sla_hours: 24,
      extra_recipients: [
        { email: 'cert@cert-ru.test', name: 'CERT зоны .ru', zone: 'ru' },
        { email: 'other@zone-com.test', zone: 'com' },
      ],
    });
    expect(s.statusCode, s.body).toBe(200);
    const r = await admin.post('/takedown/requests', { event_id: ids[0], comment: 'Клон страницы входа' });
    expect(r.statusCode, r.body).toBe(201);
    const t = r.json();
    first = t;
    expect(t).toMatchObject({ state: 'draft', state_label: 'Черновик', xarf_type: 'phishing', domain: NAMES[0] });
    expect(t.registrar).toBe('Registrar of Domain Names REG.RU LLC');
    expect(t.hosting).toBe('Hoster LLC');
    expect(t.recipients.map((x: { kind: string; email: string; status: string }) => [x.kind, x.email, x.status])).toEqual([
      ['registrar', 'abuse@reg.ru', 'proposed'],
      ['hosting', 'abuse@hoster-net.test', 'held'],
      ['zone', 'cert@cert-ru.test', 'proposed'],
    ]);
    expect(t.recipients[0].source).toBe(`${registry.url}/domain/${NAMES[0]}`);
    expect(t.recipients[1].source).toBe(`${rir.url}/ip/127.0.0.1`);
    // A second open request for the same event is refused.
    expect((await admin.post('/takedown/requests', { event_id: ids[0] })).statusCode).toBe(409);
  });

  it('the analyst edits the recipients; sending mails each one PDF + valid XARF + screenshot, with Message-ID and the reference', async () => {
    const cur = await request(first.id);
    const edited = await admin.req('PUT', `/takedown/requests/${first.id}/recipients`, {
      recipients: [
        ...cur.recipients.map((x: { kind: string; email: string; status: string }) => ({
          kind: x.kind,
          email: x.email,
          send: x.status !== 'held',
        })),
        { kind: 'manual', email: 'soc@brand.test', name: 'SOC' },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const before = smtp.mails.length;
    const s = await admin.post(`/takedown/requests/${first.id}/send`, {});
    expect(s.statusCode, s.body).toBe(200);
    const t = s.json();
    expect(t.state).toBe('sent');
    const sent = t.recipients.filter((x: { status: string }) => x.status === 'sent');
    expect(sent.map((x: { email: string }) => x.email)).toEqual(['abuse@reg.ru', 'cert@cert-ru.test', 'soc@brand.test']);
    const mails = (await smtp.waitFor(before + 3)).slice(before);
    expect(mails.map((m) => m.to)).toEqual([['abuse@reg.ru'], ['cert@cert-ru.test'], ['soc@brand.test']]);
    for (const [i, m] of mails.entries()) {
      expect(m.from).toBe('abuse-desk@forpost.test');
      expect(mailHeader(m.raw, 'Subject')).toContain(`[${first.reference}]`);
      expect(mailHeader(m.raw, 'Message-ID')).toBe(sent[i].message_id);
      const p = parts(m.raw);
      const text = p.find((x) => x.type === 'text/plain')?.body.toString('utf8') ?? '';
      expect(text).toContain('Здравствуйте');
      expect(text).toContain('Hello');
      const pdf = p.find((x) => x.type === 'application/pdf');
      expect(pdf?.body.subarray(0, 5).toString()).toBe('%PDF-');
      const png = p.find((x) => x.type === 'image/png');
      expect(png?.body.equals(PNG)).toBe(true);
      const json = p.find((x) => x.type === 'application/json');
      const xarf = JSON.parse(json?.body.toString('utf8') ?? 'null');
      expect(xarf).toMatchObject({
        category: 'content',
        type: 'phishing',
        domain: NAMES[0],
        source_identifier: LIVE,
        registrar: 'Registrar of Domain Names REG.RU LLC',
      });
      expect(xarf.url).toContain(NAMES[0]);
      expect(xarf.evidence[0]).toMatchObject({ content_type: 'image/png', payload: PNG.toString('base64') });
      const v = validate('phishing', xarf);
      expect(v.ok, v.errors).toBe(true);
    }
    const h = (await admin.get(`/modules/domains/events/${ids[0]}/history`)).json().items as {
      field: string;
      after: { comment?: string };
    }[];
    expect(h.some((x) => x.field === 'takedown' && x.after?.comment?.includes('Отправлен'))).toBe(true);
    const audit = await ctx.database.db.execute(
      sql`SELECT action FROM audit_log WHERE entity = 'takedown_request' AND entity_id = ${String(first.id)} ORDER BY id`,
    );
    expect(audit.rows.map((r) => (r as { action: string }).action)).toEqual([
      'takedown.create',
      'takedown.recipients',
      'takedown.send',
    ]);
  });

  it('every XARF type made from the evidence validates against the unmodified schemas', async () => {
    const row = await ctx.app.services.takedown.repo.get(first.id);
    const ev = row?.evidence as unknown as Evidence;
    for (const type of XARF_TYPES) {
      for (const shot of [PNG, null]) {
        const x = xarfReport(ev, type, {
          sender: 'Форпост <abuse-desk@forpost.test>',
          reference: first.reference,
          screenshot: shot,
        });
        const v = validate(type, x);
        expect(v.ok, `${type}: ${v.errors}`).toBe(true);
      }
      // A Cyrillic domain (its punycode does not fit XARF's `domain` pattern: left out) and an evidence without watch or RDAP.
      const bare: Evidence = {
        ...ev,
        domain: 'сбер-вход.рф',
        ascii: 'xn----9sbbnj1aed.xn--p1ai',
        watch: null,
        rdap: null,
        network: null,
        screenshot: null,
        url: null,
      };
      const v = validate(
        type,
        xarfReport(bare, type, { sender: 'abuse@forpost.test', reference: 'FP-TD-000001', screenshot: null }),
      );
      expect(v.ok, `${type} bare: ${v.errors}`).toBe(true);
    }
    const api = await admin.get(`/takedown/requests/${first.id}/xarf`);
    expect(api.statusCode).toBe(200);
    expect(validate('phishing', api.json()).ok).toBe(true);
    const pdf = await admin.get(`/takedown/requests/${first.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('NXDOMAIN: «ресурс недоступен» only after the second offline observation; back: «возобновлён» and a new draft', async () => {
    dns.setRecord(NAMES[0] as string, null);
    await round();
    expect((await request(first.id)).state).toBe('sent');
    await round();
    const down = await request(first.id);
    expect(down.state).toBe('down');
    expect(down.state_label).toBe('Ресурс недоступен');
    expect(down.down_at).not.toBeNull();
    dns.setRecord(NAMES[0] as string, { NS, A: [LIVE], MX: ['mx.mail.ru'] });
    await round();
    const back = await request(first.id);
    expect(back.state).toBe('reopened');
    expect(back.log.map((l: { to_state: string | null }) => l.to_state)).toEqual(['draft', 'draft', 'sent', 'down', 'reopened']);
    const list = (await admin.get(`/takedown/requests?event_id=${ids[0]}`)).json();
    const next = list.items.find((x: { previous_id: number | null }) => x.previous_id === first.id);
    expect(next).toMatchObject({ state: 'draft', event_id: ids[0] });
    const h = (await admin.get(`/modules/domains/events/${ids[0]}/history`)).json().items as {
      field: string;
      after: { comment?: string };
    }[];
    const lines = h.filter((x) => x.field === 'takedown').map((x) => x.after.comment ?? '');
    expect(lines.some((l) => l.includes('Ресурс недоступен'))).toBe(true);
    expect(lines.some((l) => l.includes('Возобновлён'))).toBe(true);
  });

  it('bulk drafts one request per event; the hourly limit per address stops the third message to one abuse desk', async () => {
    const b = await admin.post('/takedown/requests/bulk', { event_ids: [ids[1], ids[2], ids[0]] });
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json().created).toHaveLength(2);
    expect(b.json().skipped).toEqual([{ event_id: ids[0], reason: 'По этому событию уже есть запрос в работе' }]);
    const [second, third] = b.json().created as number[];
    const s2 = (await admin.post(`/takedown/requests/${second}/send`, {})).json();
    expect(s2.state).toBe('sent');
    // abuse@reg.ru and cert@ have had two messages this hour (limit 2): the third request is held back.
    const s3 = (await admin.post(`/takedown/requests/${third}/send`, {})).json();
    expect(s3.state).toBe('draft');
    expect(
      s3.recipients.filter((x: { status: string }) => x.status === 'limited').map((x: { email: string }) => x.email),
    ).toEqual(['abuse@reg.ru', 'cert@cert-ru.test']);
    expect(s3.recipients[0].error).toBe('Превышен предел писем на этот адрес в час');
  });

  it('no effect within the registrar SLA: «эскалация», the hosting network proposed; acknowledge and close are the analyst’s steps', async () => {
    const list = (await admin.get(`/takedown/requests?state=sent&company_id=${A}`)).json();
    const r = list.items[0];
    expect(r).toBeTruthy();
    await ctx.app.services.takedown.follow();
    expect((await request(r.id)).state).toBe('sent');
    await ctx.database.db.execute(sql`UPDATE takedown_requests SET sent_at = now() - interval '49 hours' WHERE id = ${r.id}`);
    await ctx.app.services.takedown.follow();
    const e = await request(r.id);
    expect(e.state).toBe('escalated');
    expect(e.recipients.find((x: { kind: string }) => x.kind === 'hosting')).toMatchObject({
      email: 'abuse@hoster-net.test',
      status: 'proposed',
    });
    expect(e.log.at(-1).comment).toContain('нет результата за 48 ч');
    expect((await admin.post(`/takedown/requests/${r.id}/step`, { action: 'acknowledge' })).json().state).toBe('acknowledged');
    const bad = await admin.post(`/takedown/requests/${r.id}/step`, { action: 'acknowledge' });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toBe('Этот шаг недоступен в текущем состоянии запроса');
    expect(
      (await admin.post(`/takedown/requests/${r.id}/step`, { action: 'close', comment: 'ручная проверка' })).json().state,
    ).toBe('closed');
  });

  it('a company viewer reads but may not send; a company analyst may', async () => {
    const viewer = await signedIn(ctx, 'td-viewer@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
    expect((await viewer.get(`/takedown/requests/${first.id}`)).statusCode).toBe(200);
    expect((await viewer.post('/takedown/requests', { event_id: ids[0] })).statusCode).toBe(403);
    const analyst = await signedIn(ctx, 'td-analyst@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ANALYST' }]);
    const list = (await analyst.get('/takedown/requests?state=draft')).json();
    const d = list.items[0];
    expect((await analyst.post(`/takedown/requests/${d.id}/step`, { action: 'close' })).statusCode).toBe(200);
  });

  it('figures: time to send, time to down, share down within 24/48/72 h', async () => {
    const f = (await admin.get(`/takedown/figures?company_id=${A}`)).json();
    expect(f.sent).toBe(2);
    expect(f.down).toBe(1);
    expect(f.time_to_down.count).toBe(1);
    expect(f.share_down_within).toEqual({ h24: 0.5, h48: 0.5, h72: 0.5 });
    expect(f.by_registrar[0].name).toBe('Registrar of Domain Names REG.RU LLC');
    expect(f.by_hosting[0].name).toBe('Hoster LLC');
    expect(xarfSeen.length).toBeGreaterThanOrEqual(10);
  });

  it('the company report PDF has a «Блокировки» section with the same figures', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await admin.post('/tools/reports', { company_id: A, from: today, to: today, modules: ['domains'] });
    expect(created.statusCode, created.body).toBe(201);
    expect(await ctx.app.services.reports.render(created.json().id)).toBe('ready');
    const file = await admin.get(`/tools/reports/${created.json().id}/download`);
    const all = pdfText(file.rawPayload).replace(/\s+/g, ' ');
    const text = all.slice(all.lastIndexOf('Блокировки'));
    // The first, the draft proposed when it came back, and two drafted in bulk: 4 requests, 2 sent, 1 down.
    expect(text).toMatch(/^Блокировки Запросов Отправлено Недоступны .*? 4 2 1 /);
    expect(text).toContain('Недоступны в течение 24 ч — 50%, 48 ч — 50%, 72 ч — 50% отправленных запросов.');
    expect(text).toContain('Registrar of Domain Names REG.RU LLC 1');
    expect(text).toContain('Hoster LLC 1');
  });
});
