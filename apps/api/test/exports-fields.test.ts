/*
 * Issue #30.10: an export offers every field the list can show — the assignee and the SLA among them —
 * and writes them as the database has them (names neutralised against formulas, Moscow time).
 */
import type { ExportItem } from '@forpost/contract/exports';
import { exportFieldsOf } from '@forpost/contract/exports';
import { MODULE_LIST } from '@forpost/contract/modules';
import { listColumnKeysOf } from '@forpost/contract/views';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, createUser, csvRows, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let A: number;
const ids: number[] = [];

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Альфа')).id;
  await attachJobs(ctx, false);
  const ivan = await createUser(ctx, { email: 'ivan@forpost.test', name: 'Иван Петров' });
  const evil = await createUser(ctx, { email: 'evil@forpost.test', name: '=HYPERLINK("x")' });
  const priorities = (await admin.get('/modules/domains/events/priorities')).json().items as { id: number; code: string }[];
  const critical = priorities.find((p) => p.code === 'critical')?.id;
  for (let i = 0; i < 4; i++) {
    const r = await admin.post('/modules/domains/events', {
      company_id: A,
      domain: `sla-${i}.ru`,
      ...(i < 3 ? { priority_id: critical } : {}),
    });
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  const [e0, e1, e2] = ids;
  // e0: assigned to Иван, overdue (created two days ago: the critical triage deadline is 1 h);
  // e1: assigned to a name that looks like a formula, on time; e2: triaged, in the resolution stage.
  await ctx.database.db.execute(
    sql`UPDATE events SET assignee_id = ${ivan.id}, created_at = now() - interval '2 days' WHERE id = ${e0}`,
  );
  await ctx.database.db.execute(sql`UPDATE events SET assignee_id = ${evil.id} WHERE id = ${e1}`);
  await ctx.database.db.execute(
    sql`UPDATE events SET status_id = (SELECT id FROM event_statuses WHERE module = 'domains' AND code = 'in_progress') WHERE id = ${e2}`,
  );
});

describe('export fields', () => {
  it('every column the list can show is an export field', () => {
    for (const m of MODULE_LIST) {
      const fields = new Set(exportFieldsOf(m).map((f) => f.key));
      for (const k of listColumnKeysOf(m)) expect(fields.has(k), `${m.code}: ${k}`).toBe(true);
    }
  });

  it('GET /modules/exports/fields offers assignee and SLA', async () => {
    const r = await admin.get('/modules/exports/fields?module=domains');
    const labels = Object.fromEntries(
      (r.json().items[0].fields as { key: string; label: string }[]).map((f) => [f.key, f.label]),
    );
    expect(labels).toMatchObject({
      assignee_id: 'Исполнитель',
      sla_due_at: 'Срок SLA',
      sla_stage: 'Этап SLA',
      sla_overdue: 'Просрочено',
    });
  });

  for (const format of ['csv', 'xlsx'] as const) {
    it(`${format}: assignee and SLA cells are the database's values`, async () => {
      const fields = ['id', 'assignee_id', 'sla_due_at', 'sla_stage', 'sla_overdue'];
      const created = await admin.post('/modules/exports', { module: 'domains', format, fields, filters: { sort: 'id' } });
      expect(created.statusCode, created.body).toBe(202);
      const id = (created.json() as ExportItem).id;
      await ctx.app.services.transfer.exports.run(id);
      const done = (await admin.get(`/modules/exports/${id}`)).json() as ExportItem;
      expect(done).toMatchObject({ status: 'done', rows_written: 4 });
      const file = (await admin.get(`/modules/exports/${id}/download`)).rawPayload;
      const want = (
        await ctx.database.db.execute(sql`
        SELECT e.id, u.name AS assignee,
               to_char(e.sla_due_at AT TIME ZONE 'Europe/Moscow', 'DD.MM.YYYY HH24:MI') AS due,
               CASE e.sla_stage WHEN 'triage' THEN 'Разбор' WHEN 'resolve' THEN 'Решение' END AS stage,
               CASE WHEN e.sla_due_at < now() THEN 'Да' ELSE 'Нет' END AS overdue
        FROM events e LEFT JOIN users u ON u.id = e.assignee_id WHERE e.id = ANY(${`{${ids.join(',')}}`}::bigint[]) ORDER BY e.id`)
      ).rows as { id: number; assignee: string | null; due: string | null; stage: string | null; overdue: string }[];
      // The seed covers every case.
      expect(want.map((w) => w.overdue)).toEqual(['Да', 'Нет', 'Нет', 'Нет']);
      expect(want.map((w) => w.stage)).toEqual(['Разбор', 'Разбор', 'Решение', 'Разбор']);
      const cell = (v: string | null) => (v === null ? '' : v.startsWith('=') ? `'${v}` : v);
      const expected = [
        ['№', 'Исполнитель', 'Срок SLA', 'Этап SLA', 'Просрочено'],
        ...want.map((w) => [String(w.id), cell(w.assignee), cell(w.due), cell(w.stage), w.overdue]),
      ];
      if (format === 'csv') {
        expect(csvRows(file)).toEqual(expected);
      } else {
        const ExcelJS = (await import('exceljs')).default;
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(file as unknown as ArrayBuffer);
        const rows: string[][] = [];
        wb.worksheets[0]?.eachRow({ includeEmpty: false }, (row) => {
          const v = (row.values as unknown[]).slice(1);
          rows.push(Array.from({ length: 5 }, (_, i) => (v[i] == null ? '' : String(v[i]))));
        });
        expect(rows).toEqual(expected);
      }
    });
  }
});
