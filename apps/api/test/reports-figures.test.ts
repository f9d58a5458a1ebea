/*
 * Every figure a report prints, on every page, against SQL over the same period: the page-1 summary,
 * the module table, the time-to-resolve table and the per-module sections must say the same numbers
 * (issue #30.9: page 1 said «Решено / закрыто 9» while page 3 said no event reached a final status).
 * Resolved events here mostly came in already closed (an import: no status history), one was closed
 * by a user (history), and one was closed and reopened (history says final, status is not).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Report } from '@forpost/contract/reports';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalDocStore } from '../src/lib/docstore';
import { insertEvent, refId } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { pdfPages } from './reports.pdftext';

let ctx: TestContext;
let admin: Client;
let A: { id: number };
const BASE = '/tools/reports';
const norm = (s: string) => s.replace(/\s+/g, ' ').replace(/- /g, '-');
/** Moscow days 2026-04-01 … 2026-04-10 as instants. */
const FROM = '2026-03-31T21:00:00Z';
const TO = '2026-04-10T21:00:00Z';
// A 1×1 PNG (a screenshot of a snapshot).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Гамма');
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  const ev = (e: Omit<Parameters<typeof insertEvent>[1], 'companyId'>) =>
    insertEvent(ctx, { companyId: A.id, mlState: 'Done', ...e });
  const day = (d: number, h = 9) => `2026-04-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00Z`;
  // Imported already closed: no status history.
  for (let i = 0; i < 6; i++)
    await ev({
      module: 'domains',
      title: `закрыт-${i}.ru`,
      createdAt: day(1 + i),
      priority: i < 2 ? 'critical' : 'high',
      status: 'resolved',
    });
  await ev({ module: 'domains', title: 'ложное.ru', createdAt: day(2), priority: 'low', status: 'false_positive' });
  await ev({
    module: 'media',
    title: 'Старая публикация',
    createdAt: day(3),
    status: 'resolved',
    data: { connotation: 'Neutral' },
  });
  // Open ones.
  await ev({ module: 'domains', title: 'открыт-1.ru', createdAt: day(4), priority: 'critical', status: 'in_progress' });
  await ev({ module: 'domains', title: 'открыт-2.ru', createdAt: day(5), priority: 'medium' });
  await ev({ module: 'media', title: 'Негатив о банке', createdAt: day(6), data: { connotation: 'Negative' } });
  await ev({ module: 'media', title: 'Хвалят банк', createdAt: day(7), data: { connotation: 'Positive' } });
  // Closed by a user 3 h after creation (history).
  const closed = await ev({ module: 'domains', title: 'закрыт-руками.ru', createdAt: day(8), priority: 'critical' });
  const resolved = await refId(ctx, 'status', 'domains', 'resolved');
  const fresh = await refId(ctx, 'status', 'domains', 'new');
  await ctx.database.db.execute(sql`UPDATE events SET status_id = ${resolved} WHERE id = ${closed}`);
  await ctx.database.db.execute(sql`
    INSERT INTO event_history (event_id, at, action, field, before, after)
    VALUES (${closed}, ${day(8, 12)}, 'update', 'status_id', ${JSON.stringify(fresh)}::jsonb, ${JSON.stringify(resolved)}::jsonb)`);
  // Closed, then reopened: its history reached a final status, its status is not final.
  const reopened = await ev({
    module: 'domains',
    title: 'переоткрыт.ru',
    createdAt: day(9),
    priority: 'high',
    status: 'in_progress',
  });
  await ctx.database.db.execute(sql`
    INSERT INTO event_history (event_id, at, action, field, before, after)
    VALUES (${reopened}, ${day(9, 10)}, 'update', 'status_id', ${JSON.stringify(fresh)}::jsonb, ${JSON.stringify(resolved)}::jsonb)`);
  // Out of the period.
  await ev({ module: 'domains', title: 'вне-периода.ru', createdAt: '2026-03-20T09:00:00Z', status: 'resolved' });

  // A screenshot of the critical event closed by a user (a domain snapshot with its document).
  const stored = await createLocalDocStore(path.join(ctx.config.dataDir, 'files')).put(Readable.from(PNG));
  const d = await ctx.database.db.execute(sql`
    INSERT INTO docs (kind, company_id, event_id, name, mimetype, size, sha256, storage_key)
    VALUES ('screenshot', ${A.id}, ${closed}, 'shot.png', 'image/png', ${stored.size}, 'x', ${stored.key}) RETURNING id`);
  await ctx.database.db.execute(sql`
    INSERT INTO domain_snapshots (event_id, screenshot_doc_id, page_title)
    VALUES (${closed}, ${(d.rows[0] as { id: number }).id}, 'Фишинг')`);
});

/** The figures of the period by SQL, straight from `events`. */
async function sqlFigures() {
  const r = await ctx.database.db.execute(sql`
    SELECT e.module, count(*)::int AS total,
           count(*) FILTER (WHERE p.code = 'critical')::int AS critical,
           count(*) FILTER (WHERE p.code = 'high')::int AS high,
           count(*) FILTER (WHERE st.is_final)::int AS resolved,
           count(*) FILTER (WHERE NOT st.is_final)::int AS open
    FROM events e JOIN event_statuses st ON st.id = e.status_id LEFT JOIN event_priorities p ON p.id = e.priority_id
    WHERE e.company_id = ${A.id} AND e.created_at >= ${FROM}::timestamptz AND e.created_at < ${TO}::timestamptz
    GROUP BY e.module`);
  const rows = r.rows as { module: string; total: number; critical: number; high: number; resolved: number; open: number }[];
  const byStatus = await ctx.database.db.execute(sql`
    SELECT e.module, st.name, count(*)::int AS n FROM events e JOIN event_statuses st ON st.id = e.status_id
    WHERE e.company_id = ${A.id} AND e.created_at >= ${FROM}::timestamptz AND e.created_at < ${TO}::timestamptz
    GROUP BY e.module, st.name`);
  const sum = (k: 'total' | 'critical' | 'open' | 'resolved') => rows.reduce((a, x) => a + x[k], 0);
  return {
    modules: new Map(rows.map((x) => [x.module, x])),
    statuses: byStatus.rows as { module: string; name: string; n: number }[],
    total: sum('total'),
    critical: sum('critical'),
    open: sum('open'),
    resolved: sum('resolved'),
  };
}

describe('report figures', () => {
  it('every figure on every page agrees with SQL over the period', async () => {
    const summary = 'Основной риск — фишинговые домены.\nРекомендуем блокировку.';
    const created = await admin.post(BASE, {
      company_id: A.id,
      from: '2026-04-01',
      to: '2026-04-10',
      modules: ['domains', 'media'],
      summary,
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json() as Report;
    expect(report.summary).toBe(summary);
    expect(await ctx.app.services.reports.render(report.id)).toBe('ready');
    const file = await admin.get(`${BASE}/${report.id}/download`);
    expect(file.statusCode).toBe(200);
    if (process.env.REPORT_PDF_OUT) writeFileSync(process.env.REPORT_PDF_OUT, file.rawPayload);
    const pages = pdfPages(file.rawPayload).map(norm);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const all = pages.join(' ');
    const q = await sqlFigures();
    const dom = q.modules.get('domains');
    const med = q.modules.get('media');
    if (!dom || !med) throw new Error('seed missing');
    expect(q.resolved).toBe(9); // the seed: 7 + 1 closed by a user; media 1

    // Page 1: the summary cards, the definition, the analyst's summary, the module table.
    const p1 = pages[0] ?? '';
    expect(p1).toContain(`${q.total} Всего событий ${q.critical} Критических ${q.open} Открытых ${q.resolved} Решено / закрыто`);
    expect(p1).toContain('Резюме аналитика');
    expect(p1).toContain('Основной риск — фишинговые домены.');
    expect(p1).toContain('Рекомендуем блокировку.');
    expect(p1).toContain('Решено / закрыто — события периода, статус которых финальный');
    expect(p1).toContain(`Домены ${dom.total} ${dom.critical} ${dom.high} ${dom.open} ${dom.resolved}`);
    expect(p1).toContain(`СМИ ${med.total} ${med.critical} ${med.high} ${med.open} ${med.resolved}`);
    expect(p1).toContain(`Итого ${q.total} ${q.critical} ${dom.high + med.high} ${q.open} ${q.resolved}`);

    // Every «Решено / закрыто N», «Всего событий» … on any page is the SQL figure.
    for (const [i, p] of pages.entries()) {
      for (const m of p.matchAll(/Решено \/ закрыто:? (\d+)/g)) expect(Number(m[1]), `page ${i + 1}: ${m[0]}`).toBe(q.resolved);
      // A card's value before its label (not a legend's «Открытые: 5» before the next legend item).
      for (const m of p.matchAll(/(?<![:\d] ?)(?<!: \d*)\b(\d+) Решено \/ закрыто(?!:)/g))
        expect(Number(m[1]), `page ${i + 1}: ${m[0]}`).toBe(q.resolved);
      for (const m of p.matchAll(/(\d+) Всего событий/g)) expect(Number(m[1]), `page ${i + 1}`).toBe(q.total);
    }
    // The time-to-resolve section: resolved per module = SQL (never «no event reached a final status»).
    expect(all).not.toContain('ни одно событие не переведено');
    expect(all).toMatch(new RegExp(`Время до решения .*?Модуль Решено / закрыто .*?Домены ${dom.resolved} `));
    expect(all).toMatch(new RegExp(`Время до решения .*?СМИ ${med.resolved} `));
    // Only the event closed by a user has a time: 3 h (the reopened one is not resolved).
    expect(all).toMatch(new RegExp(`Домены ${dom.resolved} 1 3 ч 3 ч`));
    // The per-module sections: total, and per status as SQL.
    expect(all).toContain(`Домены: ${dom.total}`);
    expect(all).toContain(`СМИ: ${med.total}`);
    for (const s of q.statuses) expect(all, `${s.module} ${s.name}`).toContain(`${s.name} — ${s.n}`);
    // The legend of the status chart.
    expect(all).toContain(`Решено / закрыто: ${q.resolved}`);
    expect(all).toContain(`Открытые: ${q.open}`);
    // Screenshots of the top events.
    expect(all).toContain('Скриншоты важных событий');
    expect(all).toContain('закрыт-руками.ru');
    expect(all).not.toContain('вне-периода.ru');

    // No page is (almost) empty: page 2 holds more than a chart.
    for (const [i, p] of pages.slice(0, -1).entries()) expect(p.length, `page ${i + 1}`).toBeGreaterThan(300);
  });

  it('refuses a summary that is too long', async () => {
    const r = await admin.post(BASE, { company_id: A.id, from: '2026-04-01', to: '2026-04-10', summary: 'я'.repeat(4001) });
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('Не более 4000 символов');
  });
});
