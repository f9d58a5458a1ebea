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
import { createAudit } from '../src/lib/audit';
import { createLocalDocStore, type DocStore } from '../src/lib/docstore';
import { createReportsRepos, createReportsService } from '../src/modules/reports/index';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { mailHeader, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let A: { id: number };
let B: { id: number };
let report: Report;
const BASE = '/tools/reports';
/** Settings changed by the system (no user), as a seed or an operator script would. */
const system = { actor: { userId: null } };
const svc = () => ctx.app.services.reports;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url, OUTBOUND_ALLOW_PRIVATE: '1' }); // SMTP peers on 127.0.0.1
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

/** A TCP server that accepts connections and never says a word (a hung SMTP server: no greeting). */
async function startHangingServer() {
  const sockets = new Set<Socket>();
  const connected: (() => void)[] = [];
  const server: Server = createServer((s) => {
    sockets.add(s);
    for (const w of connected.splice(0)) w();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    sockets,
    /** Resolves once a client has connected. */
    connection: () => new Promise<void>((r) => (sockets.size ? r() : connected.push(r))),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A minimal SMTP server that takes the whole message, then drops the connection without a reply. */
async function startDroppingSmtp() {
  let messages = 0;
  const server: Server = createServer((sock) => {
    let inData = false;
    let buf = '';
    sock.write('220 drop.test ESMTP\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      if (inData) {
        if (!buf.includes('\r\n.\r\n')) return;
        messages++;
        sock.destroy();
        return;
      }
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i).toUpperCase();
        buf = buf.slice(i + 2);
        if (line.startsWith('EHLO')) sock.write('250-drop.test\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          sock.write('354 go ahead\r\n');
          break;
        } else if (line.startsWith('QUIT')) sock.end('221 bye\r\n');
        else sock.write('250 ok\r\n');
      }
    });
    sock.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}?ignoreTLS=true`,
    messages: () => messages,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** This app's reports service with its own time limit for one attempt (and, optionally, its own file store). */
function serviceWith(opts: { sendTimeoutMs: number; store?: DocStore }) {
  return createReportsService({
    ...createReportsRepos(ctx.database.db),
    db: ctx.database.db,
    audit: createAudit({ db: ctx.database.db }),
    configs: ctx.app.services.configs,
    config: ctx.config,
    log: { warn() {}, info() {} },
    ...opts,
  });
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

  it('a server that never greets: the request answers with the send queued; each attempt is retried, then failed with the reason', async () => {
    const hang = await startHangingServer();
    // A long greeting wait for the first attempt: it is still connected, waiting, while the API is asked.
    await ctx.app.services.configs.update(
      system,
      'smtp_url',
      `smtp://127.0.0.1:${hang.port}?greetingTimeout=3000&connectionTimeout=3000`,
    );
    try {
      const s = await queued(['ciso@alfa.ru']);
      expect((await getReport(report.id)).last_send).toMatchObject({ id: s.id, status: 'queued' });
      // An attempt is connected to the silent server and waiting for its greeting…
      let settled = false;
      const first = svc()
        .deliver(s.id)
        .finally(() => {
          settled = true;
        });
      await hang.connection();
      // …and another send is queued meanwhile: its request answers while that connection is still open.
      const other = await send(admin, report.id, ['soc@alfa.ru']);
      expect(other.statusCode, other.body).toBe(200);
      expect(other.json().send).toMatchObject({ status: 'queued', recipients: ['soc@alfa.ru'] });
      expect(settled).toBe(false);
      expect([...hang.sockets].some((x) => !x.destroyed)).toBe(true);
      expect(await first).toBe('retry');
      expect(await sendRow(s.id)).toMatchObject({ status: 'queued', attempts: 1, error: REPORT_SEND_ERRORS.timeout });
      await ctx.app.services.configs.update(
        system,
        'smtp_url',
        `smtp://127.0.0.1:${hang.port}?greetingTimeout=300&connectionTimeout=300`,
      );

      for (let i = 2; i < REPORT_SEND_MAX_ATTEMPTS; i++) {
        expect(await svc().deliver(s.id)).toBe('retry');
        expect(await sendRow(s.id)).toMatchObject({ status: 'queued', attempts: i, error: REPORT_SEND_ERRORS.timeout });
      }
      expect(await svc().deliver(s.id)).toBe('failed');
      expect(await sendRow(s.id)).toMatchObject({
        status: 'failed',
        attempts: REPORT_SEND_MAX_ATTEMPTS,
        error: REPORT_SEND_ERRORS.timeout,
      });
      expect(await svc().deliver(s.id)).toBe('skipped');
      // The other send (the report's latest): it ends the same way, and the report shows it so.
      const o = other.json().send as ReportSend;
      for (let i = 1; i < REPORT_SEND_MAX_ATTEMPTS; i++) expect(await svc().deliver(o.id)).toBe('retry');
      expect(await svc().deliver(o.id)).toBe('failed');
      expect((await getReport(report.id)).last_send).toMatchObject({
        id: o.id,
        status: 'failed',
        attempts: REPORT_SEND_MAX_ATTEMPTS,
        error: REPORT_SEND_ERRORS.timeout,
      });
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
      await hang.close();
    }
  });

  it('a server that takes the message but answers after the socket timeout: failed at once as «may have been delivered», never mailed twice', async () => {
    const slow = await startSmtp({ replyAfterMs: 1500 });
    await ctx.app.services.configs.update(system, 'smtp_url', `${slow.url}&socketTimeout=500`);
    try {
      const s = await queued(['slow1@alfa.ru']);
      expect(await svc().deliver(s.id)).toBe('failed');
      expect(await sendRow(s.id)).toMatchObject({ status: 'failed', attempts: 1, error: REPORT_SEND_ERRORS.unconfirmed });
      // A retry by pg-boss, the sweep: nothing more goes out.
      expect(await svc().deliver(s.id)).toBe('skipped');
      await svc().sweep();
      await slow.replied(1);
      expect(slow.mails).toHaveLength(1);
      expect((await getReport(report.id)).last_send).toMatchObject({
        id: s.id,
        status: 'failed',
        error: REPORT_SEND_ERRORS.unconfirmed,
      });
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
      await slow.close();
    }
  });

  it('a server that drops the connection after the message, without a reply: failed at once as «may have been delivered»', async () => {
    const drop = await startDroppingSmtp();
    await ctx.app.services.configs.update(system, 'smtp_url', drop.url);
    try {
      const s = await queued(['drop@alfa.ru']);
      expect(await svc().deliver(s.id)).toBe('failed');
      expect(drop.messages()).toBe(1);
      expect(await sendRow(s.id)).toMatchObject({ status: 'failed', attempts: 1, error: REPORT_SEND_ERRORS.interrupted });
      expect(await svc().deliver(s.id)).toBe('skipped');
      expect(drop.messages()).toBe(1);
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
      await drop.close();
    }
  });

  it('our own time limit once the message was handed over: failed at once, not retried (the late 250 still delivers it once)', async () => {
    const slow = await startSmtp({ replyAfterMs: 1500 });
    await ctx.app.services.configs.update(system, 'smtp_url', slow.url);
    try {
      const s = await queued(['slow2@alfa.ru']);
      const limited = serviceWith({ sendTimeoutMs: 500 });
      expect(await limited.deliver(s.id)).toBe('failed');
      expect(await sendRow(s.id)).toMatchObject({ status: 'failed', attempts: 1, error: REPORT_SEND_ERRORS.unconfirmed });
      expect(await limited.deliver(s.id)).toBe('skipped');
      await slow.replied(1);
      expect(slow.mails).toHaveLength(1);
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
      await slow.close();
    }
  });

  it('the whole attempt is under the time limit: a file store that hangs ends the attempt (retried), and it mails nothing later', async () => {
    const start = smtp.mails.length;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let reads = 0;
    const files = createLocalDocStore(`${ctx.config.dataDir}/files`);
    const hanging: DocStore = {
      ...files,
      get: async (key: string) => {
        reads++;
        await gate;
        return files.get(key);
      },
    };
    const limited = serviceWith({ sendTimeoutMs: 300, store: hanging });
    const s = await queued(['store@alfa.ru']);
    expect(await limited.deliver(s.id)).toBe('retry');
    expect(reads).toBe(1);
    expect(await sendRow(s.id)).toMatchObject({ status: 'queued', attempts: 1, error: REPORT_SEND_ERRORS.timeout });
    // The abandoned attempt goes on once the store answers, and stops before the mail.
    release();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(start);
    // The next attempt (a working store) mails it once.
    expect(await svc().deliver(s.id)).toBe('sent');
    expect(smtp.mails.length).toBe(start + 1);
  });

  it('a send out of attempts, or stuck in «sending» by a dead worker, is never taken again: it ends failed', async () => {
    const start = smtp.mails.length;
    // Queued with every attempt used (a reclaim used to add a fourth).
    const a = await queued(['a@alfa.ru']);
    await ctx.database.db.execute(
      sql`UPDATE report_sends SET attempts = ${REPORT_SEND_MAX_ATTEMPTS}, error = ${REPORT_SEND_ERRORS.timeout} WHERE id = ${a.id}`,
    );
    expect(await svc().deliver(a.id)).toBe('failed');
    expect(await sendRow(a.id)).toMatchObject({
      status: 'failed',
      attempts: REPORT_SEND_MAX_ATTEMPTS,
      error: REPORT_SEND_ERRORS.timeout,
    });
    // Stuck in `sending` past the staleness limit, out of attempts.
    const b = await queued(['b@alfa.ru']);
    await ctx.database.db.execute(
      sql`UPDATE report_sends SET status = 'sending', attempts = ${REPORT_SEND_MAX_ATTEMPTS}, updated_at = now() - interval '11 minutes' WHERE id = ${b.id}`,
    );
    expect(await svc().deliver(b.id)).toBe('failed');
    expect(await sendRow(b.id)).toMatchObject({
      status: 'failed',
      attempts: REPORT_SEND_MAX_ATTEMPTS,
      error: REPORT_SEND_ERRORS.stalled,
    });
    // Stuck after its first attempt: that worker may have handed the message over; not mailed again either.
    const c = await queued(['c@alfa.ru']);
    await ctx.database.db.execute(
      sql`UPDATE report_sends SET status = 'sending', attempts = 1, updated_at = now() - interval '11 minutes' WHERE id = ${c.id}`,
    );
    await svc().sweep();
    expect(await sendRow(c.id)).toMatchObject({ status: 'failed', attempts: 1, error: REPORT_SEND_ERRORS.stalled });
    // Still `sending` but recent (a live worker): left alone.
    const d = await queued(['d@alfa.ru']);
    await ctx.database.db.execute(sql`UPDATE report_sends SET status = 'sending', attempts = 1 WHERE id = ${d.id}`);
    expect(await svc().deliver(d.id)).toBe('skipped');
    expect(await sendRow(d.id)).toMatchObject({ status: 'sending', attempts: 1 });
    await ctx.database.db.execute(
      sql`UPDATE report_sends SET status = 'failed', error = ${REPORT_SEND_ERRORS.unreachable} WHERE id = ${d.id}`,
    );
    expect(smtp.mails.length).toBe(start);
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
    await ctx.app.services.configs.update(system, 'smtp_url', `smtp://127.0.0.1:${port}?connectionTimeout=1000`);
    try {
      const s = await queued(['ciso@alfa.ru']);
      for (let i = 1; i < REPORT_SEND_MAX_ATTEMPTS; i++) expect(await svc().deliver(s.id)).toBe('retry');
      expect(await svc().deliver(s.id)).toBe('failed');
      expect((await sendRow(s.id))?.error).toBe(REPORT_SEND_ERRORS.unreachable);
    } finally {
      await ctx.app.services.configs.remove(system, 'smtp_url');
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

  it('a viewer sees the state of the last send, not its recipients nor the SMTP server reply', async () => {
    smtp.state.failNext = 1;
    const s = await queued(['viewer-check@alfa.ru']);
    expect(await svc().deliver(s.id)).toBe('retry');
    const full = await getReport(report.id);
    expect(full.last_send).toMatchObject({ id: s.id, status: 'queued', attempts: 1, recipients: ['viewer-check@alfa.ru'] });
    expect(full.last_send?.error).toMatch(new RegExp(`^${REPORT_SEND_ERRORS.rejected} \\(550 `));
    const viewerA = await signedIn(ctx, 'va2@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    const hidden = { id: s.id, status: 'queued', attempts: 1, recipients: null, error: null };
    expect(((await viewerA.get(`${BASE}/${report.id}`)).json() as Report).last_send).toMatchObject(hidden);
    const listed = ((await viewerA.get(BASE)).json() as { items: Report[] }).items.find((x) => x.id === report.id);
    expect(listed?.last_send).toMatchObject(hidden);
    // An analyst of A (reports.manage there) sees them, as the one who sent it does.
    const analystA = await signedIn(ctx, 'aa@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
    expect(((await analystA.get(`${BASE}/${report.id}`)).json() as Report).last_send).toMatchObject({
      recipients: ['viewer-check@alfa.ru'],
      error: full.last_send?.error,
    });
    expect(await svc().deliver(s.id)).toBe('sent');
  });
});
