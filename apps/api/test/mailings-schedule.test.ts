/*
 * Mailings: hourly and weekly digests on their Moscow-time schedule, and a burst of thousands of
 * matching events (rate limit, per-pass cap, nothing lost, nothing sent twice).
 */
import type { Delivery, Mailing } from '@forpost/contract/mailings';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailingsService } from '../src/modules/mailings/index';
import { insertEvent, refId } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, ORIGIN, setupApp, signedIn, type TestContext } from './helpers';
import { mailHeader, mailText, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Client;
let A: { id: number };
const BASE = '/notifications/mailings';

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
});
afterAll(() => smtp.close());

const tick = (at: Date) => ctx.app.services.mailings.tick(at);
async function create(over: Record<string, unknown>): Promise<Mailing> {
  const r = await admin.post(BASE, { name: 'Сводка', company_id: A.id, recipients: ['soc@alfa.ru'], ...over });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as Mailing;
}
const mailing = async (id: number) => (await admin.get(`${BASE}/${id}`)).json() as Mailing;
const deliveries = async (id: number) =>
  ((await admin.get(`${BASE}/${id}/deliveries?page_size=50`)).json() as { items: Delivery[] }).items;
const moscow = (d: Date) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Moscow',
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return {
    time: `${p.hour}:${p.minute}:${p.second}`,
    minute: `${p.minute}:${p.second}`,
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(String(p.weekday)) + 1,
  };
};
async function ledger(mailingId: number) {
  const r = await ctx.database.db.execute(sql`
    SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d, count(*) FILTER (WHERE delivery_id IS NULL)::int AS waiting
    FROM mailing_events WHERE mailing_id = ${mailingId}`);
  return r.rows[0] as { n: number; d: number; waiting: number };
}

describe('mailings: digests', () => {
  it('hourly: at the top of the hour (MSK), one email with every event, no duplicates on the next runs', async () => {
    const m = await create({ name: 'Ежечасная', filters: { modules: ['endpoints'] }, params: { frequency: 'hourly' } });
    const t0 = new Date();
    await tick(t0); // schedules the first digest
    const at = new Date((await mailing(m.id)).next_digest_at ?? '');
    expect(at.getTime()).toBeGreaterThan(t0.getTime());
    expect(at.getTime() - t0.getTime()).toBeLessThanOrEqual(3_600_000);
    expect(moscow(at).minute).toBe('00:00');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await insertEvent(ctx, { companyId: A.id, module: 'endpoints', title: `узел ${i}`, mlState: 'Done' }));
    const start = smtp.mails.length;
    await tick(new Date(t0.getTime() + 1000)); // collected, not yet due
    await tick(new Date(at.getTime() - 1000));
    expect(smtp.mails.length).toBe(start);
    expect((await mailing(m.id)).stats.events_pending).toBe(3);

    expect(await tick(at)).toMatchObject({ deliveries: 1, sent: 1 });
    await smtp.waitFor(start + 1);
    const raw = smtp.mails[start]?.raw ?? '';
    expect(mailHeader(raw, 'Subject')).toBe('[Форпост] Ежечасная: 3 новых события');
    for (const id of ids) expect(mailText(raw)).toContain(`${ORIGIN}/endpoints/${id}`);
    expect(new Date((await mailing(m.id)).next_digest_at ?? '').getTime()).toBe(at.getTime() + 3_600_000);

    // The same hour again, and the next hour with nothing new: no email.
    await tick(new Date(at.getTime() + 60_000));
    await tick(new Date(at.getTime() + 3_600_000));
    expect(smtp.mails.length).toBe(start + 1);
    expect(new Date((await mailing(m.id)).next_digest_at ?? '').getTime()).toBe(at.getTime() + 2 * 3_600_000);

    // A new event: the next hour sends only it.
    const late = await insertEvent(ctx, {
      companyId: A.id,
      module: 'endpoints',
      title: 'новый узел',
      createdAt: new Date(at.getTime() + 90 * 60_000).toISOString(),
      mlState: 'Done',
    });
    await tick(new Date(at.getTime() + 2 * 3_600_000));
    await smtp.waitFor(start + 2);
    const second = smtp.mails[start + 1]?.raw ?? '';
    expect(mailHeader(second, 'Subject')).toBe('[Форпост] Ежечасная: 1 новое событие');
    expect(mailText(second)).toContain(`/endpoints/${late}`);
    for (const id of ids) expect(mailText(second)).not.toContain(`/endpoints/${id}`);
    expect(await ledger(m.id)).toEqual({ n: 4, d: 4, waiting: 0 });
    expect((await deliveries(m.id)).map((d) => [d.status, d.event_count])).toEqual([
      ['sent', 1],
      ['sent', 3],
    ]);
    await admin.del(`${BASE}/${m.id}`);
  });

  it('weekly: on the chosen weekday at the chosen hour (MSK), one email, then a week later only what is new', async () => {
    const t0 = new Date();
    const weekday = moscow(new Date(t0.getTime() + 3 * 86_400_000)).weekday;
    const m = await create({
      name: 'Еженедельная',
      filters: { modules: ['repositories'] },
      params: { frequency: 'weekly', weekday, hour: 10 },
    });
    await tick(t0);
    const at = new Date((await mailing(m.id)).next_digest_at ?? '');
    expect(moscow(at)).toMatchObject({ time: '10:00:00', weekday });
    expect(at.getTime()).toBeGreaterThan(t0.getTime() + 2 * 86_400_000);
    expect(at.getTime()).toBeLessThanOrEqual(t0.getTime() + 4 * 86_400_000);

    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(await insertEvent(ctx, { companyId: A.id, module: 'repositories', title: `репозиторий ${i}`, mlState: 'Done' }));
    const start = smtp.mails.length;
    await tick(new Date(t0.getTime() + 1000));
    await tick(new Date(at.getTime() - 3_600_000)); // the hour before
    expect(smtp.mails.length).toBe(start);

    expect(await tick(at)).toMatchObject({ deliveries: 1, sent: 1 });
    await smtp.waitFor(start + 1);
    const raw = smtp.mails[start]?.raw ?? '';
    expect(mailHeader(raw, 'Subject')).toBe('[Форпост] Еженедельная: 4 новых события');
    for (const id of ids) expect(mailText(raw)).toContain(`/repositories/${id}`);
    expect(new Date((await mailing(m.id)).next_digest_at ?? '').getTime()).toBe(at.getTime() + 7 * 86_400_000);

    // Later that day and the next day: nothing again.
    await tick(new Date(at.getTime() + 3_600_000));
    await tick(new Date(at.getTime() + 86_400_000));
    expect(smtp.mails.length).toBe(start + 1);

    const late = await insertEvent(ctx, {
      companyId: A.id,
      module: 'repositories',
      title: 'новый репозиторий',
      createdAt: new Date(at.getTime() + 2 * 86_400_000).toISOString(),
      mlState: 'Done',
    });
    await tick(new Date(at.getTime() + 3 * 86_400_000)); // collected on the way
    expect(smtp.mails.length).toBe(start + 1);
    await tick(new Date(at.getTime() + 7 * 86_400_000));
    await smtp.waitFor(start + 2);
    const second = smtp.mails[start + 1]?.raw ?? '';
    expect(mailHeader(second, 'Subject')).toBe('[Форпост] Еженедельная: 1 новое событие');
    expect(mailText(second)).toContain(`/repositories/${late}`);
    expect(await ledger(m.id)).toEqual({ n: 5, d: 5, waiting: 0 });
    await admin.del(`${BASE}/${m.id}`);
  });
});

describe('mailings: a burst of thousands of matching events', () => {
  it('one email per rate-limit window, max_events listed and «и ещё N событий»; per-pass cap loses and repeats nothing', async () => {
    const m = await create({
      name: 'Лавина',
      filters: { modules: ['leaks'] },
      params: { frequency: 'instant', format: 'text', max_events: 20 },
    });
    const status = await refId(ctx, 'status', 'leaks', 'new');
    await ctx.database.db.execute(sql`
      INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, tags, data, search, created_at, updated_at)
      SELECT ${A.id}, 'leaks', 'утечка ' || g, ${status}, 'Other', 'Done', md5('burst' || g), '{}'::int[], '{}'::jsonb,
             to_tsvector('simple', 'утечка ' || g), now(), now()
      FROM generate_series(1, 3000) g`);
    const watermark = async () =>
      (
        (await ctx.database.db.execute(sql`SELECT collected_until FROM mailings WHERE id = ${m.id}`)).rows[0] as {
          collected_until: Date | string;
        }
      ).collected_until;
    const before = await watermark();

    // The worker as deployed, but taking at most 1000 events per mailing per pass.
    const capped = createMailingsService({
      db: ctx.database.db,
      audit: ctx.app.services.audit,
      configs: ctx.app.services.configs,
      config: ctx.config,
      log: { warn() {}, info() {} },
      collectCap: 1000,
    });
    const start = smtp.mails.length;
    const t0 = new Date();
    expect(await capped.tick(t0)).toMatchObject({ collected: 1000, deliveries: 1, sent: 1 });
    await smtp.waitFor(start + 1);
    const first = smtp.mails[start]?.raw ?? '';
    expect(mailHeader(first, 'Subject')).toBe('[Форпост] Лавина: 1000 новых событий');
    expect((mailText(first).match(/\/leaks\/\d+/g) ?? []).length).toBe(20);
    expect(mailText(first)).toContain('и ещё 980 событий');
    // A capped pass leaves the watermark where it was, so the rest is read next time.
    expect(new Date(await watermark()).getTime()).toBe(new Date(before).getTime());

    // Within the same minute: collected, not sent.
    expect(await capped.tick(new Date(t0.getTime() + 10_000))).toMatchObject({ collected: 1000, deliveries: 0 });
    expect(await capped.tick(new Date(t0.getTime() + 20_000))).toMatchObject({ collected: 1000, deliveries: 0 });
    expect(await capped.tick(new Date(t0.getTime() + 30_000))).toMatchObject({ collected: 0, deliveries: 0 });
    expect(new Date(await watermark()).getTime()).toBe(t0.getTime() + 30_000);
    expect(smtp.mails.length).toBe(start + 1);
    expect(await ledger(m.id)).toEqual({ n: 3000, d: 3000, waiting: 2000 });

    // The next window: one email with everything that waited.
    expect(await capped.tick(new Date(t0.getTime() + 61_000))).toMatchObject({ deliveries: 1, sent: 1 });
    await smtp.waitFor(start + 2);
    const second = smtp.mails[start + 1]?.raw ?? '';
    expect(mailHeader(second, 'Subject')).toBe('[Форпост] Лавина: 2000 новых событий');
    expect((mailText(second).match(/\/leaks\/\d+/g) ?? []).length).toBe(20);
    expect(mailText(second)).toContain('и ещё 1980 событий');

    // Nothing more, however many passes; no event listed twice across the emails.
    await capped.tick(new Date(t0.getTime() + 200_000));
    await tick(new Date(t0.getTime() + 400_000));
    expect(smtp.mails.length).toBe(start + 2);
    const listed = [first, second].flatMap((r) => mailText(r).match(/\/leaks\/\d+/g) ?? []);
    expect(listed).toHaveLength(40);
    expect(new Set(listed).size).toBe(40);
    expect(await ledger(m.id)).toEqual({ n: 3000, d: 3000, waiting: 0 });
    expect((await deliveries(m.id)).map((d) => [d.status, d.event_count, d.listed_count])).toEqual([
      ['sent', 2000, 20],
      ['sent', 1000, 20],
    ]);
    expect((await mailing(m.id)).stats).toMatchObject({ events_sent: 3000, events_pending: 0, deliveries_sent: 2 });
    await admin.del(`${BASE}/${m.id}`);
  });
});
