import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { type Delivery, MAILING_MSG, type Mailing } from '@forpost/contract/mailings';
import { MODULE_LIST } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, ORIGIN, setupApp, signedIn, type TestContext } from './helpers';
import { mailHeader, mailText, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let companyAdmin: Client;
let A: { id: number };
let B: { id: number };
const BASE = '/notifications/mailings';
/** Settings changed by the system (no user), as a seed or an operator script would. */
const system = { actor: { userId: null } };

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url, OUTBOUND_ALLOW_PRIVATE: '1' }); // SMTP peers on 127.0.0.1
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  companyAdmin = await signedIn(ctx, 'ca@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
});
afterAll(() => smtp.close());

const tick = (at: Date = new Date()) => ctx.app.services.mailings.tick(at);
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Критичные домены',
  recipients: ['soc@alfa.ru', 'Lead@Alfa.ru'],
  filters: { modules: ['domains'], priorities: ['critical', 'high'] },
  params: { frequency: 'instant', format: 'html' },
  ...over,
});
async function create(c: Client, over: Record<string, unknown> = {}): Promise<Mailing> {
  const r = await c.post(BASE, body(over));
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Mailing;
}
const deliveries = async (id: number) => ((await admin.get(`${BASE}/${id}/deliveries`)).json() as { items: Delivery[] }).items;

describe('mailings: managing', () => {
  it('validates recipients and refuses header injection in the name', async () => {
    const bad = await admin.post(BASE, body({ recipients: ['soc@alfa.ru', 'not-an-email'] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Неверный формат email'); // spec §5, exactly
    expect(bad.json().data.fields).toEqual({ 'recipients.1': 'Неверный формат email' }); // which one
    const crlfRecipient = await admin.post(BASE, body({ recipients: ['soc@alfa.ru\r\nBcc: evil@x.ru'] }));
    expect(crlfRecipient.statusCode).toBe(400);
    const none = await admin.post(BASE, body({ recipients: [] }));
    expect(none.json().message).toBe('Обязательное поле');
    for (const name of ['Отчёт\r\nBcc: evil@example.com', 'Отчёт\nX-Injected: 1']) {
      const r = await admin.post(BASE, body({ name }));
      expect(r.statusCode, name).toBe(400);
      expect(r.json().message).toBe(MAILING_MSG.nameNewline);
    }
    const m = await create(admin, { company_id: A.id });
    const p = await admin.patch(`${BASE}/${m.id}`, { name: 'x\r\nBcc: evil@example.com' });
    expect(p.statusCode).toBe(400);
    expect((await admin.get(`${BASE}/${m.id}`)).json().name).toBe('Критичные домены');
    expect(m.recipients).toEqual(['soc@alfa.ru', 'lead@alfa.ru']);
    const unknownModule = await admin.post(BASE, body({ filters: { modules: ['nope'] } }));
    expect(unknownModule.statusCode).toBe(400);
    const unknownTag = await admin.post(BASE, body({ filters: { tags: [999999] } }));
    expect(unknownTag.statusCode).toBe(400);
    expect((await admin.del(`${BASE}/${m.id}`)).statusCode).toBe(204);
  });

  it('company admins manage only their company mailings', async () => {
    const own = await create(companyAdmin); // no company given: their only one
    expect(own.company_id).toBe(A.id);
    expect(own.company_name).toBe('Альфа');
    expect((await companyAdmin.post(BASE, body({ company_id: B.id }))).statusCode).toBe(404);
    expect((await companyAdmin.post(BASE, body({ company_id: null }))).statusCode).toBe(403);
    const staffAll = await create(admin, { company_id: null, name: 'Все компании' });
    expect(staffAll.company_id).toBeNull();
    const ofB = await create(admin, { company_id: B.id, name: 'Бета' });
    expect((await companyAdmin.get(`${BASE}/${ofB.id}`)).statusCode).toBe(404);
    expect((await companyAdmin.get(`${BASE}/${staffAll.id}`)).statusCode).toBe(404);
    expect((await companyAdmin.patch(`${BASE}/${ofB.id}`, { name: 'чужая' })).statusCode).toBe(404);
    expect((await companyAdmin.del(`${BASE}/${ofB.id}`)).statusCode).toBe(404);
    const list = (await companyAdmin.get(BASE)).json() as { items: Mailing[] };
    expect(list.items.map((m) => m.id)).toEqual([own.id]);
    expect((await companyAdmin.get(`${BASE}?company_id=${B.id}`)).statusCode).toBe(404);
    // Moving one's mailing to another company is refused too.
    expect((await companyAdmin.patch(`${BASE}/${own.id}`, { company_id: B.id })).statusCode).toBe(404);

    const analyst = await signedIn(ctx, 'an@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
    expect((await analyst.get(`${BASE}/${own.id}`)).statusCode).toBe(200);
    expect((await analyst.patch(`${BASE}/${own.id}`, { name: 'моя' })).statusCode).toBe(403);
    const viewer = await signedIn(ctx, 'vw@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    expect((await viewer.get(BASE)).statusCode).toBe(403);

    const filters = (await companyAdmin.get(`${BASE}/filters`)).json();
    expect(filters.companies.map((c: { id: number }) => c.id)).toEqual([A.id]);
    expect(filters.all_companies_allowed).toBe(false);
    expect(filters.modules).toHaveLength(MODULE_LIST.length);
    const params = (await companyAdmin.get(`${BASE}/params`)).json();
    expect(params.frequencies.map((f: { value: string }) => f.value)).toEqual(['instant', 'hourly', 'daily', 'weekly']);
    expect(params.weekdays[0]).toEqual({ value: 1, label: 'Понедельник' });
    for (const m of [own, staffAll, ofB]) await admin.del(`${BASE}/${m.id}`);
  });

  it('previews how many events the filters matched in the last 7 days', async () => {
    const old = new Date(Date.now() - 9 * 86_400_000).toISOString();
    await insertEvent(ctx, { companyId: A.id, module: 'domains', priority: 'critical', title: 'preview-1', mlState: 'Done' });
    await insertEvent(ctx, { companyId: A.id, module: 'domains', priority: 'high', title: 'preview-2', mlState: 'Done' });
    await insertEvent(ctx, { companyId: A.id, module: 'domains', priority: 'low', title: 'preview-low', mlState: 'Done' });
    await insertEvent(ctx, { companyId: A.id, module: 'domains', priority: 'critical', createdAt: old, mlState: 'Done' });
    await insertEvent(ctx, { companyId: B.id, module: 'domains', priority: 'critical', mlState: 'Done' });
    const r = await companyAdmin.post(`${BASE}/preview`, {
      company_id: A.id,
      filters: { modules: ['domains'], priorities: ['critical', 'high'] },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ count: 2, capped: false, days: 7 });
    expect(
      r
        .json()
        .sample.map((s: { title: string }) => s.title)
        .sort(),
    ).toEqual(['preview-1', 'preview-2']);
    const mine = await companyAdmin.post(`${BASE}/preview`, { filters: { modules: ['domains'], priorities: ['critical'] } });
    expect(mine.json().count).toBe(1); // without a company: only the companies they see
    expect((await companyAdmin.post(`${BASE}/preview`, { company_id: B.id, filters: {} })).statusCode).toBe(404);
    const all = await admin.post(`${BASE}/preview`, { filters: { modules: ['domains'], priorities: ['critical'] } });
    expect(all.json().count).toBe(2);
    const text = await admin.post(`${BASE}/preview`, { company_id: A.id, filters: { text: 'preview-low' } });
    expect(text.json().count).toBe(1);
  });
});

describe('mailings: sending', () => {
  it('instant: one email with the new matching events, never the same event twice', async () => {
    const before = await insertEvent(ctx, {
      companyId: A.id,
      module: 'domains',
      priority: 'critical',
      title: 'до создания рассылки',
      mlState: 'Done',
    });
    await new Promise((r) => setTimeout(r, 20));
    const m = await create(admin, { company_id: A.id });
    const e1 = await insertEvent(ctx, {
      companyId: A.id,
      module: 'domains',
      priority: 'critical',
      title: 'сбер-бонус.рф',
      data: { domain: 'сбер-бонус.рф', ip: '185.1.2.3' },
      mlState: 'Done',
    });
    const e2 = await insertEvent(ctx, {
      companyId: A.id,
      module: 'domains',
      priority: 'high',
      title: 'sber-login.xyz',
      data: { domain: 'sber-login.xyz' },
      mlState: 'Done',
    });
    await insertEvent(ctx, { companyId: A.id, module: 'domains', priority: 'low', title: 'низкий приоритет', mlState: 'Done' });
    await insertEvent(ctx, { companyId: A.id, module: 'media', priority: 'critical', title: 'другой модуль', mlState: 'Done' });
    await insertEvent(ctx, {
      companyId: B.id,
      module: 'domains',
      priority: 'critical',
      title: 'другая компания',
      mlState: 'Done',
    });

    const start = smtp.mails.length;
    const t0 = new Date();
    const s = await tick(t0);
    expect(s).toMatchObject({ deliveries: 1, sent: 1 });
    await smtp.waitFor(start + 1);
    const mail = smtp.mails[start];
    expect(mail?.to.sort()).toEqual(['lead@alfa.ru', 'soc@alfa.ru']);
    const raw = mail?.raw ?? '';
    expect(mailHeader(raw, 'Subject')).toBe('[Форпост] Критичные домены: 2 новых события');
    const text = mailText(raw);
    expect(text).toContain('сбер-бонус.рф');
    expect(text).toContain('sber-login.xyz');
    expect(text).toContain(`${ORIGIN}/domains/${e1}`);
    expect(text).toContain(`${ORIGIN}/domains/${e2}`);
    expect(text).toContain('Приоритет: Критический');
    expect(text).toContain('Домен: сбер-бонус.рф');
    expect(text).toContain('<a href="http://localhost:8080/domains/'); // the HTML part
    for (const no of ['низкий приоритет', 'другой модуль', 'другая компания', 'до создания рассылки'])
      expect(text).not.toContain(no);
    expect(before).toBeGreaterThan(0);

    // Nothing new: nothing sent, however many passes.
    await tick(new Date(t0.getTime() + 120_000));
    await tick(new Date(t0.getTime() + 240_000));
    expect(smtp.mails.length).toBe(start + 1);

    // A new event: the next pass (rate limit: at most one message a minute) sends only it.
    const e3 = await insertEvent(ctx, {
      companyId: A.id,
      module: 'domains',
      priority: 'critical',
      title: 'третий',
      mlState: 'Done',
    });
    await tick(new Date(t0.getTime() + 300_000));
    await smtp.waitFor(start + 2);
    const second = mailText(smtp.mails[start + 1]?.raw ?? '');
    expect(second).toContain(`${ORIGIN}/domains/${e3}`);
    expect(second).not.toContain(`/domains/${e1}`);

    const ds = await deliveries(m.id);
    expect(ds.map((d) => [d.status, d.event_count, d.attempts])).toEqual([
      ['sent', 1, 1],
      ['sent', 2, 1],
    ]);
    const ledger = await ctx.database.db.execute(
      sql`SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d FROM mailing_events WHERE mailing_id = ${m.id}`,
    );
    expect(ledger.rows[0]).toEqual({ n: 3, d: 3 });
    const got = (await admin.get(`${BASE}/${m.id}`)).json() as Mailing;
    expect(got.stats).toMatchObject({ events_sent: 3, events_pending: 0, deliveries_sent: 2 });
    expect(got.last_sent_at).not.toBeNull();
    await admin.del(`${BASE}/${m.id}`);
  });

  it('text format, a cap per message with «и ещё N событий»', async () => {
    const m = await create(admin, {
      company_id: A.id,
      name: 'Лавина',
      filters: { modules: ['databases'] },
      params: { frequency: 'instant', format: 'text', max_events: 5 },
    });
    for (let i = 0; i < 12; i++)
      await insertEvent(ctx, { companyId: A.id, module: 'databases', title: `база ${i}`, mlState: 'Done' });
    const start = smtp.mails.length;
    await tick();
    await smtp.waitFor(start + 1);
    const raw = smtp.mails[start]?.raw ?? '';
    expect(raw).not.toMatch(/text\/html/);
    const text = mailText(raw);
    expect(text).toContain('и ещё 7 событий');
    expect((text.match(/\/databases\/\d+/g) ?? []).length).toBe(5);
    expect(mailHeader(raw, 'Subject')).toBe('[Форпост] Лавина: 12 новых событий');
    const [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'sent', event_count: 12, listed_count: 5 });
    await admin.del(`${BASE}/${m.id}`);
  });

  it('daily digest: one email at the digest time with everything since, none in quiet hours', async () => {
    const m = await create(admin, {
      company_id: A.id,
      name: 'Сводка',
      filters: { modules: ['services'] },
      params: { frequency: 'daily', hour: 9, format: 'html', quiet_hours: null },
    });
    const t0 = new Date();
    await tick(t0); // schedules the first digest
    const scheduled = (await admin.get(`${BASE}/${m.id}`)).json() as Mailing;
    const at = new Date(scheduled.next_digest_at ?? '');
    expect(at.getTime()).toBeGreaterThan(t0.getTime());
    expect(new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', hour: '2-digit', minute: '2-digit' }).format(at)).toBe(
      '09:00',
    );
    for (let i = 0; i < 3; i++)
      await insertEvent(ctx, { companyId: A.id, module: 'services', title: `сервис ${i}`, mlState: 'Done' });
    const start = smtp.mails.length;
    await tick(new Date(t0.getTime() + 1000));
    expect(smtp.mails.length).toBe(start); // not yet
    await tick(at);
    await smtp.waitFor(start + 1);
    expect(mailHeader(smtp.mails[start]?.raw ?? '', 'Subject')).toBe('[Форпост] Сводка: 3 новых события');
    const next = (await admin.get(`${BASE}/${m.id}`)).json() as Mailing;
    expect(new Date(next.next_digest_at ?? '').getTime() - at.getTime()).toBe(86_400_000);
    await admin.del(`${BASE}/${m.id}`);

    // Quiet hours covering the whole day: nothing goes out.
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Moscow', hour: 'numeric', hourCycle: 'h23' }).format(new Date()),
    );
    const q = await create(admin, {
      company_id: A.id,
      name: 'Тихая',
      filters: { modules: ['endpoints'] },
      params: { frequency: 'instant', quiet_hours: { from: hour, to: (hour + 2) % 24 } },
    });
    await insertEvent(ctx, { companyId: A.id, module: 'endpoints', mlState: 'Done' });
    const s2 = smtp.mails.length;
    await tick();
    expect(smtp.mails.length).toBe(s2);
    expect(((await admin.get(`${BASE}/${q.id}`)).json() as Mailing).stats.events_pending).toBe(1);
    await admin.del(`${BASE}/${q.id}`);
    const same = await admin.post(BASE, body({ params: { quiet_hours: { from: 3, to: 3 } } }));
    expect(same.json().message).toBe(MAILING_MSG.quietSame);
  });

  it('a refusing SMTP server: the delivery fails, is retried with backoff, then sent once', async () => {
    const m = await create(admin, { company_id: A.id, name: 'Повтор', filters: { modules: ['firms'] } });
    await insertEvent(ctx, { companyId: A.id, module: 'firms', title: 'юрлицо', mlState: 'Done' });
    smtp.state.failNext = 1;
    const start = smtp.mails.length;
    const t0 = new Date();
    expect(await tick(t0)).toMatchObject({ deliveries: 1, retry: 1, sent: 0 });
    let [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'retry', attempts: 1 });
    expect(d?.last_error).toMatch(/550/);
    expect(new Date(d?.next_attempt_at ?? '').getTime()).toBe(t0.getTime() + 60_000);
    expect(smtp.mails.length).toBe(start);
    await tick(new Date(t0.getTime() + 30_000)); // backoff not over
    expect((await deliveries(m.id))[0]?.attempts).toBe(1);
    await tick(new Date(t0.getTime() + 61_000));
    await smtp.waitFor(start + 1);
    [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    await tick(new Date(t0.getTime() + 200_000));
    expect(smtp.mails.length).toBe(start + 1);
    expect(await deliveries(m.id)).toHaveLength(1);
    await admin.del(`${BASE}/${m.id}`);
  });

  it('a hanging SMTP server does not block the worker and the failure is shown', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const hang: Server = createServer((s) => sockets.add(s)); // accepts, never greets
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
    const port = (hang.address() as AddressInfo).port;
    await ctx.app.services.configs.update(
      system,
      'smtp_url',
      `smtp://127.0.0.1:${port}?greetingTimeout=500&connectionTimeout=500&socketTimeout=1000`,
    );
    try {
      const m = await create(admin, { company_id: A.id, name: 'Зависший', filters: { modules: ['consulting'] } });
      await insertEvent(ctx, { companyId: A.id, module: 'consulting', mlState: 'Done' });
      const t = Date.now();
      const s = await tick();
      expect(Date.now() - t).toBeLessThan(5000);
      expect(s.retry).toBe(1);
      const [d] = await deliveries(m.id);
      expect(d?.status).toBe('retry');
      expect(d?.last_error).toMatch(/Ошибка отправки/);
      // The API answers meanwhile.
      expect((await admin.get(`${BASE}/${m.id}`)).statusCode).toBe(200);
      await admin.del(`${BASE}/${m.id}`);
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
      for (const s of sockets) s.destroy();
      hang.close();
    }
  });

  it('gives up after the last attempt', async () => {
    const m = await create(admin, { company_id: A.id, name: 'Без шансов', filters: { modules: ['merchant'] } });
    await insertEvent(ctx, { companyId: A.id, module: 'merchant', mlState: 'Done' });
    smtp.state.failNext = 5;
    let t = Date.now();
    for (let i = 0; i < 5; i++) {
      await tick(new Date(t));
      t += 3_600_000;
    }
    const [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null });
    expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).stats.deliveries_failed).toBe(1);
    smtp.state.failNext = 0;
    await admin.del(`${BASE}/${m.id}`);
  });

  it("a deactivated company's mailings are suspended", async () => {
    const m = await create(admin, { company_id: A.id, name: 'Пауза', filters: { modules: ['repositories'] } });
    await ctx.database.db.execute(sql`UPDATE companies SET is_active = false WHERE id = ${A.id}`);
    try {
      expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).is_suspended).toBe(true);
      await insertEvent(ctx, { companyId: A.id, module: 'repositories', mlState: 'Done' });
      const start = smtp.mails.length;
      await tick();
      expect(smtp.mails.length).toBe(start);
      expect(await deliveries(m.id)).toHaveLength(0);
    } finally {
      await ctx.database.db.execute(sql`UPDATE companies SET is_active = true WHERE id = ${A.id}`);
    }
    expect(((await admin.get(`${BASE}/${m.id}`)).json() as Mailing).is_suspended).toBe(false);
    const start = smtp.mails.length;
    await tick();
    await smtp.waitFor(start + 1);
    await admin.del(`${BASE}/${m.id}`);
  });
});
