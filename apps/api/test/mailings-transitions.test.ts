/*
 * Mailings subscribed to watch transitions (#31, «Переходы наблюдения»): the app's own watch rounds
 * observe domains served by the DNS server peer (zones edited between rounds: a domain gets NS only,
 * then MX), and the mailing worker sends to the loopback SMTP server (smtp-server). A subscribed
 * transition reaches the mailing's letter once, named in Russian; an unsubscribed one does not; the
 * mailing's other filters (priority after the rule raised it) and its company hold.
 */
import type { Delivery, Mailing } from '@forpost/contract/mailings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setConfig } from './discovery-kit';
import { type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { type DnsServer, startDnsServer } from './peers/dns-server';
import { type CapturedMail, mailHeader, mailText, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let mails: CapturedMail[];
let dns: DnsServer;
let admin: Client;
let A: number;
let B: number;
const BASE = '/notifications/mailings';
const HOSTER = ['ns1.hoster.ru', 'ns2.hoster.ru'];
const nameA = 'alfa-mailing-watch.ru';
const nameB = 'beta-mailing-watch.ru';
let idA = 0;
let idB = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  mails = smtp.mails;
  dns = await startDnsServer({});
  ctx = await setupApp({ SMTP_URL: smtp.url, OUTBOUND_ALLOW_PRIVATE: '1', CHROMIUM_PATH: '/nonexistent/chromium' });
  admin = await signedIn(ctx, 'mw-admin@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Альфа-наблюдение')).id;
  B = (await createCompany(ctx, 'Бета-наблюдение')).id;
  await setConfig(admin, 'discovery_dns_servers', dns.server);
  await setConfig(admin, 'discovery_dns_rate', 100000);
}, 60_000);
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

const tick = (at: Date) => ctx.app.services.mailings.tick(at);
async function round() {
  await ctx.app.services.watch.repo.makeDue();
  return ctx.app.services.watch.round();
}
async function create(companyId: number, filters: Record<string, unknown>): Promise<Mailing> {
  const r = await admin.post(BASE, {
    name: `Переходы ${companyId}`,
    company_id: companyId,
    recipients: [`soc${companyId}@forpost.test`],
    filters,
    params: { frequency: 'instant', format: 'text' },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Mailing;
}
async function watched(companyId: number, domain: string): Promise<number> {
  const r = await admin.post('/modules/domains/events', { company_id: companyId, domain });
  expect(r.statusCode, r.body).toBe(201);
  const id = r.json().id as number;
  expect((await admin.req('PUT', `/modules/domains/events/${id}/watch`, { watched: true })).statusCode).toBe(200);
  return id;
}
const deliveries = async (id: number) => ((await admin.get(`${BASE}/${id}/deliveries`)).json() as { items: Delivery[] }).items;
const to = (m: CapturedMail, companyId: number) => m.to.includes(`soc${companyId}@forpost.test`);

describe('mailings subscribed to watch transitions', () => {
  it('refuses transitions for a mailing whose modules leave out «Домены»', async () => {
    const r = await admin.post(BASE, {
      name: 'Не те модули',
      company_id: A,
      recipients: ['x@forpost.test'],
      filters: { modules: ['media'], transitions: ['mx_appeared'] },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().data.fields['filters.transitions']).toBe(
      'Переходы наблюдения бывают только у событий модуля «Домены» — добавьте его в модули',
    );
    const bad = await admin.post(BASE, {
      name: 'Неизвестный переход',
      company_id: A,
      recipients: ['x@forpost.test'],
      filters: { transitions: ['exploded'] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a subscribed transition reaches the letter once, named in Russian; unsubscribed and other companies do not', async () => {
    // Events first (a transitions mailing is about what happens to events, not about new ones).
    idA = await watched(A, nameA);
    idB = await watched(B, nameB);
    const mx = await create(A, { modules: ['domains'], transitions: ['mx_appeared'] });
    const mxB = await create(B, { transitions: ['mx_appeared'] });
    // The rule raises MX to «Высокий» in the same transaction: a mailing of low-priority events never sees it.
    const low = await create(A, { transitions: ['mx_appeared'], priorities: ['low'] });
    const parked = await create(A, { transitions: ['parked'] });
    const opts = (await admin.get(`${BASE}/filters`)).json();
    expect(opts.transitions).toContainEqual({ value: 'login_form', label: 'Появилась форма входа' });

    let t = Date.now();
    const next = () => {
      t += 120_000;
      return new Date(t);
    };
    await round(); // baseline: nothing registered yet
    expect(await tick(next())).toMatchObject({ deliveries: 0 });

    dns.setRecord(nameA, { NS: HOSTER });
    dns.setRecord(nameB, { NS: HOSTER });
    expect((await round()).byKind).toMatchObject({ parked: 2 });
    let start = mails.length;
    expect(await tick(next())).toMatchObject({ deliveries: 1, sent: 1 });
    // Only the «parked» mailing of A: its own company's domain, its own transition.
    const parkedMail = mails.slice(start);
    expect(parkedMail).toHaveLength(1);
    expect(to(parkedMail[0] as CapturedMail, A)).toBe(true);
    expect(mailText(parkedMail[0]?.raw ?? '')).toContain('Наблюдение: припаркован');
    expect(mailText(parkedMail[0]?.raw ?? '')).not.toContain(nameB);

    dns.setRecord(nameA, { NS: HOSTER, MX: ['mx.evil.ru'] });
    dns.setRecord(nameB, { NS: HOSTER, MX: ['mx.evil.ru'] });
    expect((await round()).byKind).toMatchObject({ mx_appeared: 2 });
    start = mails.length;
    expect(await tick(next())).toMatchObject({ deliveries: 2, sent: 2 });
    const sent = mails.slice(start);
    const mailA = sent.find((m) => to(m, A));
    const mailB = sent.find((m) => to(m, B));
    expect(sent).toHaveLength(2);
    const textA = mailText(mailA?.raw ?? '');
    expect(mailHeader(mailA?.raw ?? '', 'subject')).toBe(`[Форпост] Переходы ${A}: Наблюдение: появилась почта (MX)`);
    expect(textA).toMatch(/Наблюдение: появилась почта \(MX\) · \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} МСК/);
    expect(textA).toContain(`/domains/${idA}`);
    expect(textA).toContain('Приоритет: Высокий');
    expect(textA).not.toContain(nameB);
    expect(textA).not.toContain('припаркован');
    const textB = mailText(mailB?.raw ?? '');
    expect(textB).toContain(`/domains/${idB}`);
    expect(textB).not.toContain(nameA);

    // Once: later passes and idle rounds send nothing more.
    await round();
    start = mails.length;
    expect(await tick(next())).toMatchObject({ deliveries: 0, sent: 0 });
    expect(mails.length).toBe(start);

    expect(await deliveries(low.id)).toHaveLength(0);
    const [d] = await deliveries(mx.id);
    expect(d).toMatchObject({
      status: 'sent',
      event_count: 1,
      subject: `[Форпост] Переходы ${A}: Наблюдение: появилась почта (MX)`,
    });
    expect(await deliveries(mx.id)).toHaveLength(1);
    expect(await deliveries(mxB.id)).toHaveLength(1);
    expect(await deliveries(parked.id)).toHaveLength(1);
    expect((await admin.get(`${BASE}/${mx.id}`)).json().stats).toMatchObject({ events_sent: 1, events_pending: 0 });
  }, 120_000);

  it('the preview counts the subscribed transitions of the last week, in the company only', async () => {
    const preview = async (companyId: number, transitions: string[]) => {
      const r = await admin.post(`${BASE}/preview`, { company_id: companyId, filters: { transitions } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { count: number; sample: { id: number }[] };
    };
    expect(await preview(A, ['mx_appeared'])).toMatchObject({ count: 1, sample: [{ id: idA }] });
    expect(await preview(A, ['mx_appeared', 'parked'])).toMatchObject({ count: 2 });
    expect(await preview(B, ['mx_appeared'])).toMatchObject({ count: 1, sample: [{ id: idB }] });
    expect((await preview(A, ['login_form'])).count).toBe(0);
  });

  it('transitions from before the mailing was created are not mailed', async () => {
    const late = await create(A, { transitions: ['mx_appeared', 'parked'] });
    const start = mails.length;
    await round();
    expect(await tick(new Date(Date.now() + 3_600_000))).toMatchObject({ deliveries: 0 });
    expect(mails.length).toBe(start);
    expect(await deliveries(late.id)).toHaveLength(0);
  }, 60_000);

  it('an event with two subscribed transitions in one letter is listed once, both transitions named on its line', async () => {
    const name = 'gamma-mailing-watch.ru';
    const id = await watched(A, name);
    const r = await admin.post(BASE, {
      name: 'Два перехода',
      company_id: A,
      recipients: ['two@forpost.test'],
      filters: { transitions: ['parked', 'mx_appeared'] },
      params: { frequency: 'instant', format: 'text' },
    });
    expect(r.statusCode, r.body).toBe(201);
    const mailing = r.json() as Mailing;
    await round(); // baseline: NXDOMAIN
    // NS and MX at once: two transitions of one event in one observation.
    dns.setRecord(name, { NS: HOSTER, MX: ['mx.evil.ru'] });
    const kinds = (await round()).byKind;
    expect(kinds).toMatchObject({ parked: 1, mx_appeared: 1 });
    const start = mails.length;
    await tick(new Date(Date.now() + 7_200_000));
    const mail = mails.slice(start).find((m) => m.to.includes('two@forpost.test'));
    const text = mailText(mail?.raw ?? '');
    expect(text.split(`/domains/${id}`).length - 1).toBe(1);
    expect(text).toMatch(/Наблюдение: припаркован, появилась почта \(MX\) · \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} МСК/);
    expect(text.match(/^\d+\. /gm)).toHaveLength(1);
    expect(mailHeader(mail?.raw ?? '', 'subject')).toBe('[Форпост] Два перехода: Наблюдение: припаркован, появилась почта (MX)');
    const [d] = await deliveries(mailing.id);
    expect(d).toMatchObject({ status: 'sent', event_count: 1 });
  }, 60_000);
});
