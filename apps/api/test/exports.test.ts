import type { ExportItem } from '@forpost/contract/exports';
import { MODULE_LIST, sampleCard } from '@forpost/contract/modules';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { xlsxWriter } from '../src/modules/exports/writers';
import { ADMIN, Client, createCompany, createUser, csvRows, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, finished, waitFor } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let A: number;
let B: number;
let statuses: { id: number; code: string; name: string }[];

async function event(module: string, body: Record<string, unknown>) {
  const r = await admin.post(`/modules/${module}/events`, body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number };
}

async function exportAndWait(client: Client, body: Record<string, unknown>) {
  const r = await client.post('/modules/exports', body);
  expect(r.statusCode, r.body).toBe(202);
  const e = r.json() as ExportItem;
  expect(e.status).toBe('queued');
  return waitFor<ExportItem>(client, `/modules/exports/${e.id}`, finished);
}

const download = (client: Client, e: ExportItem) => client.get(`/modules/exports/${e.id}/download`);

async function xlsxSheets(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => {
    const rows: { values: unknown[] }[] = [];
    ws.eachRow((row) => rows.push({ values: (row.values as unknown[]).slice(1) }));
    return { name: ws.name, rows };
  });
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  statuses = (await admin.get('/modules/domains/events/statuses')).json().items;
  const inWork = statuses.find((s) => s.code === 'in_progress')?.id;
  for (let i = 1; i <= 5; i++)
    await event('domains', {
      company_id: A,
      domain: `alfa-${i}.ru`,
      registrar: 'REG.RU',
      similarity: 80 + i,
      registered_at: '2026-03-05',
      ...(i <= 2 ? { status_id: inWork } : {}),
    });
  for (let i = 1; i <= 3; i++) await event('domains', { company_id: B, domain: `beta-${i}.ru`, registrar: 'R01' });
  await attachJobs(ctx, true);
});

describe('fields', () => {
  it('lists the fields of each module with Russian labels; the list columns are checked by default', async () => {
    const r = await admin.get('/modules/exports/fields?module=domains');
    expect(r.statusCode).toBe(200);
    const [d] = r.json().items;
    expect(d.module).toBe('domains');
    expect(d.name).toBe('Домены');
    const byKey = Object.fromEntries(d.fields.map((f: { key: string; label: string; default: boolean }) => [f.key, f]));
    expect(byKey.domain).toEqual({ key: 'domain', label: 'Домен', default: true });
    expect(byKey.status_id).toMatchObject({ label: 'Статус', default: true });
    expect(byKey.hosting).toMatchObject({ label: 'Хостинг', default: false });
    expect((await admin.get('/modules/exports/fields')).json().items).toHaveLength(MODULE_LIST.length);
    expect((await admin.get('/modules/exports/fields?module=nope')).statusCode).toBe(400);
  });
});

describe('CSV and XLSX', () => {
  it('exports exactly what the list filters select, with Russian labels, as CSV for Excel', async () => {
    const inWork = statuses.find((s) => s.code === 'in_progress');
    const filters = { company_id: A, status: String(inWork?.id), sort: 'domain' };
    const list = (await admin.get(`/modules/domains/events?company_id=${A}&status=${inWork?.id}&sort=domain`)).json();
    const e = await exportAndWait(admin, {
      module: 'domains',
      format: 'csv',
      fields: ['domain', 'status_id', 'company_id', 'similarity', 'registered_at', 'created_at'],
      filters,
    });
    expect(e).toMatchObject({ status: 'done', rows_total: list.total, rows_written: 2, format: 'csv' });
    expect(e.size).toBeGreaterThan(0);
    expect(e.file_name).toMatch(/^Домены — .*\.csv$/);
    expect(new Date(e.expires_at ?? 0).getTime() - new Date(e.finished_at ?? 0).getTime()).toBe(30 * 86_400_000);
    const r = await download(admin, e);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(/^attachment;/);
    expect(Number(r.headers['content-length'])).toBe(e.size);
    const rows = csvRows(r.rawPayload);
    expect(rows[0]).toEqual(['Домен', 'Статус', 'Компания', 'Схожесть, %', 'Дата регистрации', 'Создано']);
    expect(rows.slice(1).map((x) => x.slice(0, 5))).toEqual([
      ['alfa-1.ru', 'В работе', 'Альфа', '81', '05.03.2026'],
      ['alfa-2.ru', 'В работе', 'Альфа', '82', '05.03.2026'],
    ]);
    expect(rows[1]?.[5]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  });

  it('XLSX: numbers stay numbers, text is text, never a formula', async () => {
    const e = await exportAndWait(admin, {
      module: 'domains',
      format: 'xlsx',
      fields: ['id', 'domain', 'similarity'],
      filters: { company_id: A, sort: 'id' },
    });
    expect(e).toMatchObject({ status: 'done', rows_written: 5 });
    const r = await download(admin, e);
    expect(r.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const [sheet] = await xlsxSheets(r.rawPayload);
    expect(sheet?.name).toBe('Данные');
    expect(sheet?.rows[0]?.values).toEqual(['№', 'Домен', 'Схожесть, %']);
    expect(sheet?.rows).toHaveLength(6);
    expect(typeof sheet?.rows[1]?.values[0]).toBe('number');
    expect(sheet?.rows[1]?.values.slice(1)).toEqual(['alfa-1.ru', 81]);
  });

  it('neutralises every cell that a spreadsheet could run as a formula, in CSV and XLSX', async () => {
    const C = (await createCompany(ctx, 'Формулы')).id;
    const evil = [
      '=HYPERLINK("http://evil","x")',
      '+7 999 123-45-67',
      '-2+3',
      '@SUM(A1)',
      '\tTAB',
      '\rCR',
      '   =1+1',
      'safe = text',
    ];
    for (const [i, title] of evil.entries()) {
      const { id } = await event('domains', { company_id: C, domain: `f-${i}.ru`, title: `t${i}`, registrar: 'x' });
      // The API trims input; values from elsewhere (older data, other sources) may keep leading tabs and spaces.
      await ctx.database.pool.query(
        `UPDATE events SET title = $2, data = data || jsonb_build_object('registrar', $2::text) WHERE id = $1`,
        [id, title],
      );
    }
    const expected = [
      '\'=HYPERLINK("http://evil","x")',
      "'+7 999 123-45-67",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTAB",
      "'\rCR",
      "'   =1+1",
      'safe = text',
    ];
    for (const format of ['csv', 'xlsx'] as const) {
      const e = await exportAndWait(admin, {
        module: 'domains',
        format,
        fields: ['title', 'registrar'],
        filters: { company_id: C, sort: 'id' },
      });
      const body = (await download(admin, e)).rawPayload;
      if (format === 'csv') {
        const rows = csvRows(body).slice(1);
        expect(rows.map((x) => x[0])).toEqual(expected);
        expect(rows.map((x) => x[1])).toEqual(expected);
      } else {
        const [sheet] = await xlsxSheets(body);
        const rows = sheet?.rows.slice(1) ?? [];
        // XML turns a raw carriage return into a line feed; the apostrophe in front is what matters.
        const xml = expected.map((v) => v.replace('\r', '\n'));
        expect(rows.map((x) => x.values[0])).toEqual(xml);
        expect(rows.map((x) => x.values[1])).toEqual(xml);
        for (const row of rows) for (const v of row.values) expect(typeof v).toBe('string');
        expect(body.toString('latin1')).not.toMatch(/<f>/);
      }
    }
  });

  it('starts a new sheet every 1 048 575 rows (writer checked with a small sheet)', async () => {
    const w = xlsxWriter(['A', 'B'], 3);
    const chunks: Buffer[] = [];
    w.output.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((res) => w.output.on('end', res));
    for (let i = 1; i <= 7; i++) await w.write([i, `=r${i}`]);
    await w.end();
    await ended;
    const sheets = await xlsxSheets(Buffer.concat(chunks));
    expect(sheets.map((s) => s.name)).toEqual(['Данные', 'Данные 2', 'Данные 3']);
    expect(sheets.map((s) => s.rows.length)).toEqual([4, 4, 2]);
    expect(sheets[2]?.rows[1]?.values).toEqual([7, '=r7']);
  });
});

describe('access and scope', () => {
  it('a company user exports only their company; another company is not found', async () => {
    const carol = await signedIn(ctx, 'carol@alfa.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_VIEWER' }]);
    const e = await exportAndWait(carol, { module: 'domains', format: 'csv', fields: ['domain', 'company_id'], filters: {} });
    const rows = csvRows((await download(carol, e)).rawPayload).slice(1);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r[1] === 'Альфа')).toBe(true);
    const other = await carol.post('/modules/exports', {
      module: 'domains',
      format: 'csv',
      fields: ['domain'],
      filters: { company_id: B },
    });
    expect(other.statusCode).toBe(404);
  });

  it('each user sees, downloads and deletes only their own exports', async () => {
    const mine = await exportAndWait(admin, { module: 'domains', format: 'csv', fields: ['domain'], filters: {} });
    const dave = await signedIn(ctx, 'dave@forpost.test', 'ANALYST');
    expect((await dave.get('/modules/exports')).json()).toMatchObject({ items: [], total: 0 });
    expect((await dave.get(`/modules/exports/${mine.id}`)).statusCode).toBe(404);
    expect((await download(dave, mine)).statusCode).toBe(404);
    expect((await dave.del(`/modules/exports/${mine.id}`)).statusCode).toBe(404);
    const list = (await admin.get('/modules/exports')).json();
    expect(list.items.map((i: ExportItem) => i.id)).toContain(mine.id);
    expect((await admin.del(`/modules/exports/${mine.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/modules/exports/${mine.id}`)).statusCode).toBe(404);
  });

  it('card numbers are masked unless the user may reveal them', async () => {
    const card = sampleCard(7, '427600');
    await event('acquiring', { company_id: A, card_number: card, card_holder: 'IVAN' });
    const analyst = await signedIn(ctx, 'erin@forpost.test', 'ANALYST');
    const masked = await exportAndWait(analyst, {
      module: 'acquiring',
      format: 'csv',
      fields: ['card_number', 'card_holder', 'payment_system'],
      filters: {},
    });
    const m = csvRows((await download(analyst, masked)).rawPayload);
    expect(m[1]).toEqual(['4276 **** **** 0074'.replace('0074', card.slice(-4)), 'IVAN', 'Visa']);
    const clear = await exportAndWait(admin, { module: 'acquiring', format: 'csv', fields: ['card_number'], filters: {} });
    expect(csvRows((await download(admin, clear)).rawPayload)[1]).toEqual([card]);
  });

  it('refuses unknown fields and bad filters with a Russian message; viewers may export, nobody without events.export', async () => {
    const f = await admin.post('/modules/exports', {
      module: 'domains',
      format: 'csv',
      fields: ['domain', 'password'],
      filters: {},
    });
    expect(f.statusCode).toBe(400);
    expect(f.json().message).toBe('Неизвестное поле');
    const s = await admin.post('/modules/exports', {
      module: 'domains',
      format: 'csv',
      fields: ['domain'],
      filters: { status: 'новые' },
    });
    expect(s.statusCode).toBe(400);
    expect(s.json().message).toBe('Ожидается список чисел через запятую');
    const none = await admin.post('/modules/exports', { module: 'domains', format: 'csv', fields: [], filters: {} });
    expect(none.json().message).toBe('Выберите хотя бы одно поле');
    const viewer = await signedIn(ctx, 'vic@forpost.test', 'VIEWER');
    expect(
      (await viewer.post('/modules/exports', { module: 'domains', format: 'xlsx', fields: ['domain'], filters: {} })).statusCode,
    ).toBe(202);
  });
});

describe('retention', () => {
  it('deletes files older than the configured retention period', async () => {
    const e = await exportAndWait(admin, { module: 'domains', format: 'csv', fields: ['domain'], filters: {} });
    expect((await admin.post('/configs', { key: 'export_retention_days', value: 2 })).statusCode).toBeLessThan(300);
    const fresh = (await admin.get(`/modules/exports/${e.id}`)).json() as ExportItem;
    expect(new Date(fresh.expires_at ?? 0).getTime() - new Date(fresh.finished_at ?? 0).getTime()).toBe(2 * 86_400_000);
    await ctx.database.pool.query(
      `UPDATE exports SET finished_at = now() - interval '3 days', created_at = now() - interval '3 days' WHERE id = $1`,
      [e.id],
    );
    expect((await download(admin, e)).statusCode).toBe(404);
    const r = await ctx.app.services.transfer.exports.maintain();
    expect(r.expired).toBeGreaterThanOrEqual(1);
    expect((await admin.get(`/modules/exports/${e.id}`)).statusCode).toBe(404);
  });
});
