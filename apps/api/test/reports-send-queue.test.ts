/*
 * The send of a report through the real job queue (pg-boss on the test database, the worker in this
 * process): the request queues a `report-send` job; the worker mails the PDF once; a refused attempt
 * leaves the row queued with its reason and hands the job back to pg-boss for a retry with backoff.
 */
import { REPORT_MSG, REPORT_SEND_ERRORS, type Report, type ReportSend } from '@forpost/contract/reports';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { REPORT_SEND_QUEUE } from '../src/modules/reports/index';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let boss: PgBoss;
let report: Report;
const BASE = '/tools/reports';

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  const A = await createCompany(ctx, 'Альфа-Банк');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  report = (await admin.post(BASE, { company_id: A.id, from: '2026-03-01', to: '2026-03-07' })).json() as Report;
  expect(await ctx.app.services.reports.render(report.id)).toBe('ready');
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.reports.attach(boss, { work: true });
});
afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await smtp.close();
});

/** Polls the report until `ok` holds (the worker runs on its own schedule). */
async function until(ok: (r: Report) => boolean, timeoutMs = 20_000): Promise<Report> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = (await admin.get(`${BASE}/${report.id}`)).json() as Report;
    if (ok(r)) return r;
    if (Date.now() > end) throw new Error(`report state not reached: ${JSON.stringify(r.last_send)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

async function jobOf(sendId: number) {
  const r = await ctx.database.db.execute(
    sql`SELECT state, retry_limit, retry_backoff, start_after > now() + interval '20 seconds' AS backing_off FROM pgboss.job WHERE name = ${REPORT_SEND_QUEUE} AND (data->>'id')::int = ${sendId}`,
  );
  return r.rows as { state: string; retry_limit: number; retry_backoff: boolean; backing_off: boolean }[];
}

describe('report send through the job queue', () => {
  it('the worker mails the queued send once', async () => {
    const start = smtp.mails.length;
    const res = await admin.post(`${BASE}/${report.id}/actions`, { action: 'send', recipients: ['ciso@alfa.ru'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(REPORT_MSG.sendQueued);
    const s = res.json().send as ReportSend;
    await smtp.waitFor(start + 1);
    const r = await until((x) => x.last_send?.status === 'sent');
    expect(r.last_send).toMatchObject({ id: s.id, attempts: 1, error: null });
    expect(smtp.mails[start]?.to).toEqual(['ciso@alfa.ru']);
    const jobs = await jobOf(s.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ retry_limit: 2, retry_backoff: true });
    // The sweep finds nothing to re-queue; nothing more goes out.
    await ctx.app.services.reports.sweep();
    expect(smtp.mails.length).toBe(start + 1);
  });

  it('a refused attempt: the row is queued again with its reason and pg-boss holds the retry', async () => {
    const start = smtp.mails.length;
    smtp.state.failNext = 1;
    const res = await admin.post(`${BASE}/${report.id}/actions`, { action: 'send', recipients: ['soc@alfa.ru'] });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().send as ReportSend;
    const r = await until((x) => x.last_send?.id === s.id && x.last_send.attempts === 1 && x.last_send.status === 'queued');
    expect(r.last_send?.error).toMatch(new RegExp(`^${REPORT_SEND_ERRORS.rejected}`));
    for (const end = Date.now() + 10_000; ; ) {
      const [job] = await jobOf(s.id);
      if (job?.state === 'retry') {
        // The next attempt waits for the backoff (30–60 s for the first retry), not now.
        expect(job.backing_off).toBe(true);
        break;
      }
      if (Date.now() > end) throw new Error(`job not in retry: ${JSON.stringify(job)}`);
      await new Promise((res2) => setTimeout(res2, 200));
    }
    expect(smtp.mails.length).toBe(start);
  });
});
