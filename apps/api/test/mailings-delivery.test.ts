/*
 * Mailings: recipients the SMTP server refuses, and events deleted before their email goes out.
 * A real SMTP server on loopback (smtp-server) that refuses chosen addresses at RCPT TO.
 */
import type { Delivery, Mailing } from '@forpost/contract/mailings';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { type CapturedMail, mailText, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
/** What the server took, and the addresses it refuses at RCPT TO (the test server's own). */
let mails: CapturedMail[];
let refused: Set<string>;
let admin: Client;
let A: { id: number };
const BASE = '/notifications/mailings';

beforeAll(async () => {
  smtp = await startSmtp();
  mails = smtp.mails;
  refused = smtp.state.refused;
  ctx = await setupApp({ SMTP_URL: smtp.url });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
});
afterAll(() => smtp.close());

const tick = (at: Date = new Date()) => ctx.app.services.mailings.tick(at);
async function create(over: Record<string, unknown>): Promise<Mailing> {
  const r = await admin.post(BASE, { name: 'Проверка', company_id: A.id, params: { frequency: 'instant' }, ...over });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Mailing;
}
const deliveries = async (id: number) => ((await admin.get(`${BASE}/${id}/deliveries`)).json() as { items: Delivery[] }).items;
const mailing = async (id: number) => (await admin.get(`${BASE}/${id}`)).json() as Mailing;

describe('mailings: refused recipients', () => {
  it('some recipients refused: sent to the others, the refused ones recorded in Russian, not an error', async () => {
    refused.add('gone@alfa.ru');
    const m = await create({ recipients: ['soc@alfa.ru', 'gone@alfa.ru'], filters: { modules: ['domains'] } });
    await insertEvent(ctx, { companyId: A.id, module: 'domains', title: 'частично', mlState: 'Done' });
    const start = mails.length;
    expect(await tick()).toMatchObject({ deliveries: 1, sent: 1, retry: 0 });
    expect(mails.length).toBe(start + 1);
    expect(mails[start]?.to).toEqual(['soc@alfa.ru']);
    const [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'sent', last_error: 'Не приняты адреса: gone@alfa.ru' });
    expect((await mailing(m.id)).stats).toMatchObject({ deliveries_sent: 1, deliveries_failed: 0, events_sent: 1 });
    await admin.del(`${BASE}/${m.id}`);
  });

  it('every recipient refused: a failure, retried with backoff as before', async () => {
    refused.add('gone2@alfa.ru');
    const m = await create({ recipients: ['gone@alfa.ru', 'gone2@alfa.ru'], filters: { modules: ['media'] } });
    await insertEvent(ctx, { companyId: A.id, module: 'media', mlState: 'Done' });
    const start = mails.length;
    const t0 = new Date();
    expect(await tick(t0)).toMatchObject({ deliveries: 1, sent: 0, retry: 1 });
    expect(mails.length).toBe(start);
    const [d] = await deliveries(m.id);
    expect(d?.status).toBe('retry');
    expect(d?.last_error).toMatch(/^Ошибка отправки: /);
    expect(new Date(d?.next_attempt_at ?? '').getTime()).toBe(t0.getTime() + 60_000);
    expect((await mailing(m.id)).stats.deliveries_failed).toBe(1);
    await admin.del(`${BASE}/${m.id}`);
    refused.clear();
  });
});

describe('mailings: events deleted before sending', () => {
  it('all events deleted: the delivery is skipped, not failed, and not retried', async () => {
    const m = await create({ recipients: ['soc@alfa.ru'], filters: { modules: ['services'] } });
    const ids = [
      await insertEvent(ctx, { companyId: A.id, module: 'services', mlState: 'Done' }),
      await insertEvent(ctx, { companyId: A.id, module: 'services', mlState: 'Done' }),
    ];
    smtp.state.failNext = 1; // the first attempt fails: the delivery waits for its retry
    const t0 = new Date();
    expect(await tick(t0)).toMatchObject({ deliveries: 1, retry: 1 });
    await ctx.database.db.execute(sql`DELETE FROM events WHERE id IN (${ids[0]}, ${ids[1]})`);
    const start = mails.length;
    expect(await tick(new Date(t0.getTime() + 61_000))).toMatchObject({ skipped: 1, failed: 0, retry: 0, sent: 0 });
    expect(mails.length).toBe(start);
    const [d] = await deliveries(m.id);
    expect(d).toMatchObject({
      status: 'skipped',
      event_count: 0,
      next_attempt_at: null,
      last_error: 'События удалены до отправки — письмо не понадобилось',
    });
    expect((await mailing(m.id)).stats).toMatchObject({ deliveries_failed: 0, deliveries_sent: 0, events_pending: 0 });
    await tick(new Date(t0.getTime() + 3_600_000));
    expect(mails.length).toBe(start);
    expect(await deliveries(m.id)).toHaveLength(1);
    await admin.del(`${BASE}/${m.id}`);
  });

  it('some events deleted: they are dropped, the rest is sent and counted', async () => {
    const m = await create({ recipients: ['soc@alfa.ru'], filters: { modules: ['firms'] } });
    const kept = await insertEvent(ctx, { companyId: A.id, module: 'firms', title: 'осталось', mlState: 'Done' });
    const gone = await insertEvent(ctx, { companyId: A.id, module: 'firms', title: 'удалено', mlState: 'Done' });
    smtp.state.failNext = 1;
    const t0 = new Date();
    await tick(t0);
    await ctx.database.db.execute(sql`DELETE FROM events WHERE id = ${gone}`);
    const start = mails.length;
    expect(await tick(new Date(t0.getTime() + 61_000))).toMatchObject({ sent: 1 });
    const text = mailText(mails[start]?.raw ?? '');
    expect(text).toContain(`/firms/${kept}`);
    expect(text).not.toContain('удалено');
    const [d] = await deliveries(m.id);
    expect(d).toMatchObject({ status: 'sent', event_count: 1, last_error: null });
    expect((await mailing(m.id)).stats).toMatchObject({ events_sent: 1, deliveries_failed: 0 });
    await admin.del(`${BASE}/${m.id}`);
  });
});
