/*
 * «Отправить по почте» of a report: the request only queues a send (answers at once whatever the SMTP
 * server does); the background attempt (`deliver`, the pg-boss job's handler, called directly here)
 * mails the PDF, retries, and records queued → sent | failed with a Russian reason. A sent row is never
 * mailed again.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { MSG } from '@forpost/contract/messages';
import {
  REPORT_MSG,
  REPORT_SEND_ERRORS,
  REPORT_SEND_MAX_ATTEMPTS,
  type Report,
  type ReportSend,
} from '@forpost/contract/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { mailHeader, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let A: { id: number };
let B: { id: number };
let report: Report;
const BASE = '/tools/reports';
const actor = { userId: null };
const svc = () => ctx.app.services.reports;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа-Банк');
  B = await createCompany(ctx, 'Бета');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  const r = await admin.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-07' });
  expect(r.statusCode, r.body).toBe(201);
  report = r.json() as Report;
  expect(await svc().render(report.id)).toBe('ready');
});
afterAll(() => smtp.close());

const send = (c: Client, id: number, recipients: unknown) => c.post(`${BASE}/${id}/actions`, { action: 'send', recipients });
const getReport = async (id: number) => (await admin.get(`${BASE}/${id}`)).json() as Report;
async function queued(recipients: string[], id = report.id): Promise<ReportSend> {
  const r = await send(admin, id, recipients);
  expect(r.statusCode, r.body).toBe(200);
  const body = r.json() as { report: Report; message: string; send: ReportSend };
  expect(body.message).toBe(REPORT_MSG.sendQueued);
  expect(body.send).toMatchObject({ status: 'queued', attempts: 0, error: null, sent_at: null });
  // The report as answered already shows the queued send.
  expect(body.report.last_send).toMatchObject({ id: body.send.id, status: 'queued' });
  return body.send;
}
async function sendRow(id: number) {
  const r = await ctx.database.db.execute(sql`SELECT status, attempts, error, sent_at FROM report_sends WHERE id = ${id}`);
  return r.rows[0] as { status: string; attempts: number; error: string | null; sent_at: Date | null } | undefined;
}

/** The decoded PDF attached to a captured message (its base64 MIME part), or null. */
function pdfAttachment(raw: string): Buffer | null {
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const m = /^([\s\S]*?)\r?\n\r?\n([\s\S]*)$/.exec(part);
    if (!m || !/content-type:\s*application\/pdf/i.test(m[1] ?? '') || !/base64/i.test(m[1] ?? '')) continue;
    const body = (m[2] ?? '').split(/\r?\n--/)[0] ?? '';
    return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  }
  return null;
}

/** A TCP server that accepts connections and never says a word (a hung SMTP server). */
async function startHangingServer() {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('report send by email', () => {
  it('validates recipients with the spec messages and refuses an unfinished report', async () => {
    const empty = await send(admin, report.id, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MSG.required);
    const missing = await admin.post(`${BASE}/${report.id}/actions`, { action: 'send' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(MSG.required);
    const bad = await send(admin, report.id, ['ciso@alfa.ru', 'нет']);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MSG.email);
    expect(bad.json().data.fields).toEqual({ 'recipients.1': MSG.email });

    const fresh = (await admin.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-02' })).json() as Report;
    const notReady = await send(admin, fresh.id, ['ciso@alfa.ru']);
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().message).toBe(REPORT_MSG.notReady);
    const rows = await ctx.database.db.execute(sql`SELECT 1 FROM report_sends WHERE report_id IN (${report.id}, ${fresh.id})`);
    expect(rows.rows).toHaveLength(0);
    await admin.del(`${BASE}/${fresh.id}`);
  });

  it('a working server: queued at once, then one email with the PDF, sent; running again sends nothing', async () => {
    const start = smtp.mails.length;
    const s = await queued(['CISO@alfa.ru', 'soc@alfa.ru', 'ciso@alfa.ru']);
    expect(s.recipients).toEqual(['ciso@alfa.ru', 'soc@alfa.ru']);
    // Nothing was mailed by the request itself.
    expect(smtp.mails.length).toBe(start);
    // The same send asked again while it is queued (a double click, a retry): the same row, not a second one.
    const again = await queued(['soc@alfa.ru', 'ciso@alfa.ru']);
    expect(again.id).toBe(s.id);

    const after0 = await getReport(report.id);
    expect(await svc().deliver(s.id)).toBe('sent');
    expect(smtp.mails.length).toBe(start + 1);
    const mail = smtp.mails[start];
    expect(mail?.to).toEqual(['ciso@alfa.ru', 'soc@alfa.ru']);
    expect(mailHeader(mail?.raw ?? '', 'Subject')).toBe('[Форпост] Отчёт: Альфа-Банк, 01.03.2026 — 07.03.2026');
    expect(mail?.raw).toMatch(/Content-Type: application\/pdf/i);
    const pdf = pdfAttachment(mail?.raw ?? '');
    expect(pdf?.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf?.length).toBe(after0.size);

    const after = await getReport(report.id);
    expect(after.last_send).toMatchObject({ id: s.id, status: 'sent', attempts: 1, error: null });
    expect(after.last_send?.sent_at).not.toBeNull();
    expect(after.last_sent_at).not.toBeNull();

    // The worker again, a duplicate job, the sweep: nothing more goes out.
    expect(await svc().deliver(s.id)).toBe('skipped');
    await svc().sweep();
    expect(smtp.mails.length).toBe(start + 1);

    // One audit entry for the one send.
    const audit = await ctx.database.db.execute(
      sql`SELECT meta FROM audit_log WHERE action = 'report.send' AND entity_id = ${String(report.id)}`,
    );
    expect(audit.rows).toHaveLength(1);
    expect((audit.rows[0] as { meta: { recipients: string[] } }).meta.recipients).toEqual(['ciso@alfa.ru', 'soc@alfa.ru']);
  });

  it('a hanging server: the request answers with the send queued; the attempts end as failed with the reason', async () => {
    const hang = await startHangingServer();
    await ctx.app.services.configs.update(
      actor,
      'smtp_url',
      `smtp://127.0.0.1:${hang.port}?greetingTimeout=300&connectionTimeout=300&socketTimeout=600`,
    );
    try {
      const s = await queued(['ciso@alfa.ru']);
      expect((await getReport(report.id)).last_send).toMatchObject({ id: s.id, status: 'queued' });
      // The API keeps answering while the send waits.
      expect((await admin.get(BASE)).statusCode).toBe(200);

      for (let i = 1; i < REPORT_SEND_MAX_ATTEMPTS; i++) {
        expect(await svc().deliver(s.id)).toBe('retry');
        expect(await sendRow(s.id)).toMatchObject({ status: 'queued', attempts: i, error: REPORT_SEND_ERRORS.timeout });
      }
      expect(await svc().deliver(s.id)).toBe('failed');
      const last = (await getReport(report.id)).last_send;
      expect(last).toMatchObject({
        id: s.id,
        status: 'failed',
        attempts: REPORT_SEND_MAX_ATTEMPTS,
        error: REPORT_SEND_ERRORS.timeout,
      });
      expect(await svc().deliver(s.id)).toBe('skipped');
    } finally {
      await ctx.app.services.configs.remove(actor, 'smtp_url');
      await hang.close();
    }
  });

  it('a refusing server: retried, then failed with the Russian reason and the server reply', async () => {
    const start = smtp.mails.length;
    smtp.state.failNext = REPORT_SEND_MAX_ATTEMPTS;
    const s = await queued(['ciso@alfa.ru']);
    expect(await svc().deliver(s.id)).toBe('retry');
    expect(await svc().deliver(s.id)).toBe('retry');
    expect(await svc().deliver(s.id)).toBe('failed');
    const row = await sendRow(s.id);
    expect(row?.status).toBe('failed');
    expect(row?.attempts).toBe(REPORT_SEND_MAX_ATTEMPTS);
    expect(row?.error).toMatch(/^SMTP-сервер отклонил письмо \(550 /);
    expect(smtp.mails.length).toBe(start);
    expect(smtp.state.failNext).toBe(0);
  });

  it('a refusal then a success: sent on the retry, once', async () => {
    const start = smtp.mails.length;
    smtp.state.failNext = 1;
    const s = await queued(['soc@alfa.ru']);
    expect(await svc().deliver(s.id)).toBe('retry');
    expect((await getReport(report.id)).last_send).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await svc().deliver(s.id)).toBe('sent');
    expect(await svc().deliver(s.id)).toBe('skipped');
    expect(smtp.mails.length).toBe(start + 1);
    expect((await getReport(report.id)).last_send).toMatchObject({ id: s.id, status: 'sent', attempts: 2, error: null });
  });

  it('an unreachable server: failed as unreachable', async () => {
    const gone = await startHangingServer();
    const port = gone.port;
    await gone.close();
    await ctx.app.services.configs.update(actor, 'smtp_url', `smtp://127.0.0.1:${port}?connectionTimeout=1000`);
    try {
      const s = await queued(['ciso@alfa.ru']);
      for (let i = 1; i < REPORT_SEND_MAX_ATTEMPTS; i++) expect(await svc().deliver(s.id)).toBe('retry');
      expect(await svc().deliver(s.id)).toBe('failed');
      expect((await sendRow(s.id))?.error).toBe(REPORT_SEND_ERRORS.unreachable);
    } finally {
      await ctx.app.services.configs.remove(actor, 'smtp_url');
    }
  });

  it('a report deleted while its send waits: nothing is mailed', async () => {
    const r = (await admin.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-03' })).json() as Report;
    expect(await svc().render(r.id)).toBe('ready');
    const start = smtp.mails.length;
    const s = await queued(['ciso@alfa.ru'], r.id);
    expect((await admin.del(`${BASE}/${r.id}`)).statusCode).toBe(204);
    expect(await svc().deliver(s.id)).toBe('skipped');
    expect(await sendRow(s.id)).toBeUndefined();
    expect(smtp.mails.length).toBe(start);
  });

  it('is company-scoped', async () => {
    const analystB = await signedIn(ctx, 'ab@forpost.test', 'COMPANY_USER', [{ id: B.id, role: 'COMPANY_ANALYST' }]);
    const other = await send(analystB, report.id, ['x@beta.ru']);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(REPORT_MSG.notFound);
    const viewerA = await signedIn(ctx, 'va@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    expect((await send(viewerA, report.id, ['x@alfa.ru'])).statusCode).toBe(403);
    // The viewer sees the last send's state; B's analyst sees nothing of A.
    expect(((await viewerA.get(`${BASE}/${report.id}`)).json() as Report).last_send?.status).toBe('failed');
    expect(((await analystB.get(BASE)).json() as { items: Report[] }).items).toHaveLength(0);
    const rows = await ctx.database.db.execute(
      sql`SELECT 1 FROM report_sends WHERE 'x@beta.ru' = ANY(recipients) OR 'x@alfa.ru' = ANY(recipients)`,
    );
    expect(rows.rows).toHaveLength(0);
  });
});
