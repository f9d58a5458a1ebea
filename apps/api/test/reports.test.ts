import { ANALYTICS_MSG } from '@forpost/contract/analytics';
import { REPORT_MSG, type Report } from '@forpost/contract/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvent, refId } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { pdfText } from './reports.pdftext';
import { mailHeader, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let A: { id: number };
let B: { id: number };
const BASE = '/tools/reports';
const norm = (s: string) => s.replace(/\s+/g, ' ').replace(/- /g, '-');

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа-Банк');
  B = await createCompany(ctx, 'Бета');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  const ev = (e: Parameters<typeof insertEvent>[1]) => insertEvent(ctx, { mlState: 'Done', ...e });
  const d1 = await ev({
    companyId: A.id,
    module: 'domains',
    title: 'сбер-бонус.рф',
    createdAt: '2026-03-01T09:00:00Z',
    priority: 'critical',
  });
  await ev({
    companyId: A.id,
    module: 'domains',
    title: 'alfa-login.xyz',
    createdAt: '2026-03-02T09:00:00Z',
    priority: 'critical',
    status: 'in_progress',
  });
  await ev({ companyId: A.id, module: 'domains', title: 'alfa-promo.site', createdAt: '2026-03-03T09:00:00Z', priority: 'high' });
  await ev({
    companyId: A.id,
    module: 'media',
    title: 'Клиенты пожаловались на сбой',
    createdAt: '2026-03-04T09:00:00Z',
    data: { connotation: 'Negative' },
  });
  await ev({
    companyId: A.id,
    module: 'media',
    title: 'Банк получил премию',
    createdAt: '2026-03-05T09:00:00Z',
    data: { connotation: 'Positive' },
  });
  await ev({ companyId: A.id, module: 'domains', title: 'вне периода', createdAt: '2026-02-10T09:00:00Z', priority: 'critical' });
  await ev({
    companyId: B.id,
    module: 'domains',
    title: 'чужая компания',
    createdAt: '2026-03-01T09:00:00Z',
    priority: 'critical',
  });
  // d1 resolved 2 h 30 min after it was created.
  const resolved = await refId(ctx, 'status', 'domains', 'resolved');
  await ctx.database.db.execute(sql`UPDATE events SET status_id = ${resolved} WHERE id = ${d1}`);
  await ctx.database.db.execute(sql`
    INSERT INTO event_history (event_id, at, action, field, before, after)
    VALUES (${d1}, '2026-03-01T11:30:00Z', 'update', 'status_id', ${JSON.stringify(await refId(ctx, 'status', 'domains', 'new'))}::jsonb, ${JSON.stringify(resolved)}::jsonb)`);
});
afterAll(() => smtp.close());

async function createReport(c: Client, body: Record<string, unknown>): Promise<Report> {
  const r = await c.post(BASE, body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Report;
}
async function download(c: Client, id: number) {
  const r = await c.get(`${BASE}/${id}/download`);
  return r;
}

describe('reports', () => {
  let report: Report;

  it('creates a report, renders the PDF in the background and serves it', async () => {
    report = await createReport(admin, { company_id: A.id, from: '2026-03-01', to: '2026-03-07', modules: ['domains', 'media'] });
    expect(report).toMatchObject({
      status: 'queued',
      company_name: 'Альфа-Банк',
      from: '2026-03-01',
      to: '2026-03-07',
      download_url: null,
    });
    expect(report.name).toBe('Отчёт: Альфа-Банк, 01.03.2026 — 07.03.2026');
    expect((await download(admin, report.id)).statusCode).toBe(409);

    expect(await ctx.app.services.reports.render(report.id)).toBe('ready');
    const ready = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    expect(ready).toMatchObject({ status: 'ready', error: null, download_url: `/api/v1/tools/reports/${report.id}/download` });
    expect(ready.size).toBeGreaterThan(1000);

    const file = await download(admin, report.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment;/);
    const pdf = file.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = norm(pdfText(pdf));
    for (const s of [
      'Отчёт: Альфа-Банк, 01.03.2026 — 07.03.2026',
      'Период: 01.03.2026 — 07.03.2026',
      'Модули: Домены, СМИ',
      'Всего событий',
      'Критические события',
      'сбер-бонус.рф',
      'alfa-login.xyz',
      'Время до решения',
      '2 ч 30 мин',
      'Домены: 3',
      'СМИ: 2',
      'Тональность публикаций СМИ',
      'Негативная: 1',
      'Страница 1 из',
    ]) {
      expect(text, s).toContain(s);
    }
    // Summary figures: 5 events, 2 critical, 4 open, 1 resolved; the domains row 3 / 2 / 1 / 2 / 1.
    expect(text).toMatch(/5 Всего событий 2 Критических 4 Открытых 1 Решено/);
    expect(text).toMatch(/Домены 3 2 1 2 1/);
    expect(text).not.toContain('вне периода');
    expect(text).not.toContain('чужая компания');
    const docs = await ctx.database.db.execute(sql`SELECT kind, company_id, mimetype FROM docs WHERE id = ${ready.doc_id}`);
    expect(docs.rows[0]).toEqual({ kind: 'report', company_id: A.id, mimetype: 'application/pdf' });
  });

  it('a report over an empty period is valid and says so', async () => {
    const r = await createReport(admin, { company_id: A.id, from: '2025-01-01', to: '2025-01-07' });
    expect(await ctx.app.services.reports.render(r.id)).toBe('ready');
    const file = await download(admin, r.id);
    const text = norm(pdfText(file.rawPayload));
    expect(text).toContain('За выбранный период событий не найдено');
    expect(text).toContain('Модули: все');
    expect(text).toMatch(/0 Всего событий 0 Критических/);
  });

  it('regenerate replaces the file; send mails the PDF', async () => {
    const before = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    const regen = await admin.post(`${BASE}/${report.id}/actions`, { action: 'regenerate' });
    expect(regen.statusCode, regen.body).toBe(200);
    expect(regen.json().report.status).toBe('queued');
    expect(await ctx.app.services.reports.render(report.id)).toBe('ready');
    const after = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    expect(after.doc_id).not.toBe(before.doc_id);
    const old = await ctx.database.db.execute(sql`SELECT 1 FROM docs WHERE id = ${before.doc_id}`);
    expect(old.rows).toHaveLength(0);

    const bad = await admin.post(`${BASE}/${report.id}/actions`, { action: 'send', recipients: ['нет'] });
    expect(bad.statusCode).toBe(400);
    const unknown = await admin.post(`${BASE}/${report.id}/actions`, { action: 'explode' });
    expect(unknown.statusCode).toBe(400);
    const start = smtp.mails.length;
    const sent = await admin.post(`${BASE}/${report.id}/actions`, { action: 'send', recipients: ['ciso@alfa.ru'] });
    expect(sent.statusCode, sent.body).toBe(200);
    // Queued, not sent by the request (the background job mails it; see reports-send.test.ts).
    expect(sent.json().message).toBe(REPORT_MSG.sendQueued);
    expect(sent.json().report.last_send).toMatchObject({ status: 'queued', recipients: ['ciso@alfa.ru'] });
    expect(await ctx.app.services.reports.deliver(sent.json().send.id)).toBe('sent');
    await smtp.waitFor(start + 1);
    const mail = smtp.mails[start];
    expect(mail?.to).toEqual(['ciso@alfa.ru']);
    expect(mailHeader(mail?.raw ?? '', 'Subject')).toBe('[Форпост] Отчёт: Альфа-Банк, 01.03.2026 — 07.03.2026');
    expect(mail?.raw).toMatch(/Content-Type: application\/pdf/i);
    const got = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    expect(got.last_sent_at).not.toBeNull();
    expect(got.last_send).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('is company-scoped', async () => {
    const viewerA = await signedIn(ctx, 'va@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    expect((await viewerA.get(`${BASE}/${report.id}`)).statusCode).toBe(200);
    expect((await download(viewerA, report.id)).statusCode).toBe(200);
    expect((await viewerA.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-02' })).statusCode).toBe(403);
    expect((await viewerA.post(`${BASE}/${report.id}/actions`, { action: 'regenerate' })).statusCode).toBe(403);
    const mine = (await viewerA.get(BASE)).json() as { items: Report[] };
    expect(mine.items.every((r) => r.company_id === A.id)).toBe(true);

    const analystB = await signedIn(ctx, 'ab@forpost.test', 'COMPANY_USER', [{ id: B.id, role: 'COMPANY_ANALYST' }]);
    expect((await analystB.get(`${BASE}/${report.id}`)).statusCode).toBe(404);
    expect((await download(analystB, report.id)).statusCode).toBe(404);
    expect((await analystB.del(`${BASE}/${report.id}`)).statusCode).toBe(404);
    expect((await analystB.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-02' })).statusCode).toBe(404);
    expect(((await analystB.get(BASE)).json() as { items: Report[] }).items).toHaveLength(0);
    const own = await createReport(analystB, { company_id: B.id, from: '2026-03-01', to: '2026-03-02' });
    expect(own.company_id).toBe(B.id);
  });

  it('refuses bad input', async () => {
    const back = await admin.post(BASE, { company_id: A.id, from: '2026-03-07', to: '2026-03-01' });
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe(ANALYTICS_MSG.order);
    expect(
      (await admin.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-07', modules: ['nope'] })).statusCode,
    ).toBe(400);
    expect((await admin.post(BASE, { company_id: 999999, from: '2026-03-01', to: '2026-03-07' })).statusCode).toBe(404);
    expect((await admin.post(BASE, { company_id: A.id, from: '01.03.2026', to: '2026-03-07' })).statusCode).toBe(400);
  });

  it('delete removes the report and its file', async () => {
    const r = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    expect((await admin.del(`${BASE}/${report.id}`)).statusCode).toBe(204);
    expect((await admin.get(`${BASE}/${report.id}`)).statusCode).toBe(404);
    const d = await ctx.database.db.execute(sql`SELECT 1 FROM docs WHERE id = ${r.doc_id}`);
    expect(d.rows).toHaveLength(0);
  });
});
