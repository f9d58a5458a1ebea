/*
 * Exports produced by PostgreSQL (COPY … TO STDOUT, cells formatted in SQL) must read back exactly as
 * the Node formatter (cells.ts) would have written them: every field type of several modules, with
 * formula-like values, quotes, line breaks, unknown codes, JSON of the wrong type. Also: the XLSX
 * sheet split, characters XML cannot carry, and an export deleted while it runs.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { ExportItem } from '@forpost/contract/exports';
import { exportFieldsOf, XLSX_ROWS_PER_SHEET } from '@forpost/contract/exports';
import { fieldOf, getModule, type ModuleCode } from '@forpost/contract/modules';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRefs } from '../src/modules/events/refs/refs';
import { createCardVault } from '../src/modules/events/write/event-data';
import { type Cell, cellFormatters, type ExportRow, headerLabels } from '../src/modules/exports/cells';
import { XlsxStream } from '../src/modules/exports/sheetml';
import { exportFrom, inlineParams, NODE_ROW_COLUMNS } from '../src/modules/exports/sql-cells.query';
import { csvWriter, xlsxWriter } from '../src/modules/exports/writers';
import { ADMIN, type Client, createCompany, csvRows, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let A: number;
let Evil: number;
const MODULES: ModuleCode[] = ['domains', 'networkattacks', 'repositories', 'services', 'media', 'leaks', 'acquiring', 'brand'];

const TEXTS = [
  'простой текст',
  '=HYPERLINK("http://evil","x")',
  '+7 999',
  '-2+3',
  '@SUM(A1)',
  '\tTAB',
  '\rCR',
  '   =1+1',
  '  - минус после пробелов',
  ' пробел в начале и в конце ',
  'a;b"c',
  'строка 1\nстрока 2',
  'Привет & <тег> > "кавычки"',
  "'апостроф",
  'управляющий\u0001символ',
  '',
];

async function body(e: ExportItem): Promise<Buffer> {
  const r = await admin.get(`/modules/exports/${e.id}/download`);
  expect(r.statusCode, r.body).toBe(200);
  return r.rawPayload;
}

async function xlsxParsed(b: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(b as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}

/** An export created through the API (queued, no worker attached here) and run by the job function. */
async function exportRun(
  module: ModuleCode,
  format: 'csv' | 'xlsx',
  fields: string[],
  opts: Parameters<TestContext['app']['services']['transfer']['exports']['run']>[1] = {},
) {
  const r = await admin.post('/modules/exports', { module, format, fields, filters: { sort: 'id' } });
  expect(r.statusCode, r.body).toBe(202);
  const id = (r.json() as ExportItem).id;
  await ctx.app.services.transfer.exports.run(id, opts);
  return admin.get(`/modules/exports/${id}`);
}

/** The same rows through the Node formatter and writers (the reference). */
async function nodeFile(module: ModuleCode, format: 'csv' | 'xlsx', fields: string[], rowsPerSheet?: number): Promise<Buffer> {
  const m = getModule(module);
  const db = ctx.database.db;
  const pool = ctx.database.pool;
  const named = async (t: string) =>
    new Map((await pool.query(`SELECT id, name FROM ${t}`)).rows.map((x: { id: number; name: string }) => [x.id, x.name]));
  const format_ = cellFormatters(m, fields, {
    refs: await loadRefs(db),
    vault: createCardVault('0'.repeat(64)),
    tagNames: await named('tags'),
    refNames: { leak_types: await named('leak_types'), media_types: await named('media_types'), leaks: await named('leaks') },
    reveal: () => false,
  });
  const rows = (
    await pool.query<ExportRow>(`SELECT ${NODE_ROW_COLUMNS} ${exportFrom} WHERE e.module = $1 ORDER BY e.id`, [module])
  ).rows;
  const header = headerLabels(m, fields);
  const w = format === 'csv' ? csvWriter(header) : xlsxWriter(header, rowsPerSheet);
  const chunks: Buffer[] = [];
  w.output.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  const ended = once(w.output, 'end');
  await w.writeMany(rows.map((r) => format_.map((f) => f(r)) as Cell[]));
  await w.end();
  await ended;
  return Buffer.concat(chunks);
}

/** A value of the field's type for event `i` (valid ones, wrong types, formula-like text…). */
function valueFor(type: string, i: number, refIds: Record<string, number>, ref?: string): unknown {
  const pick = <T>(xs: T[]) => xs[i % xs.length];
  switch (type) {
    case 'integer':
    case 'number':
      return pick([5, 1.5, '7', null, -3, 1234567.25, '=1+1', 0]);
    case 'boolean':
      return pick([true, false, null, 'да']);
    case 'date':
      return pick(['2026-03-05', 'не дата', '', null, '1999-12-31']);
    case 'datetime':
      return pick(['2026-03-05T10:20:00.000Z', 'плохо', null, '2025-12-31T21:30:00.000Z']);
    case 'ref':
      return pick([ref ? refIds[ref] : 1, 999_999, 'x', null]);
    case 'string_list':
      return pick([['a', '=b'], [], ['-x'], null, 'не список']);
    case 'card':
      return null;
    default:
      return pick(TEXTS);
  }
}

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Альфа')).id;
  Evil = (await createCompany(ctx, '=Злая компания')).id;
  await attachJobs(ctx, false);
  const pool = ctx.database.pool;
  const tag1 = (await pool.query("INSERT INTO tags (name, color) VALUES ('важное', '#000000') RETURNING id")).rows[0]
    .id as number;
  const tag2 = (await pool.query("INSERT INTO tags (name, color) VALUES ('@опасное', '#000000') RETURNING id")).rows[0]
    .id as number;
  const refIds: Record<string, number> = {
    leak_types: (await pool.query("INSERT INTO leak_types (code, name) VALUES ('t1', '=Тип') RETURNING id")).rows[0].id,
    media_types: (await pool.query("INSERT INTO media_types (name) VALUES ('Газета') RETURNING id")).rows[0].id,
    leaks: (await pool.query('INSERT INTO leaks (name) VALUES (\'Каталог; "1"\') RETURNING id')).rows[0].id,
  };
  const statuses = (await pool.query('SELECT id, module FROM event_statuses')).rows as { id: number; module: string }[];
  let n = 0;
  for (const code of MODULES) {
    const m = getModule(code);
    const status = statuses.find((s) => s.module === code)?.id;
    for (let i = 0; i < 18; i++) {
      const data: Record<string, unknown> = {};
      for (const f of m.fields) {
        const v = valueFor(f.type, i + f.key.length, refIds, f.ref);
        if (v !== null) data[f.key] = v;
      }
      await pool.query(
        `INSERT INTO events (company_id, module, title, status_id, source, ml_state, whitelist_kind, fingerprint, tags, data, search, detected_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::int[], $10::jsonb, ''::tsvector, $11, $12)`,
        [
          i % 3 === 0 ? Evil : A,
          code,
          TEXTS[i % TEXTS.length] || 'пусто',
          i % 5 === 4 ? 987_654 : status,
          i % 4 === 3 ? '=неизвестный' : 'Other',
          'NotDetermined',
          i % 2 ? null : 'exact',
          `fp-${n++}`,
          `{${[tag1, tag2, 4242].slice(0, i % 4).join(',')}}`,
          JSON.stringify(data),
          i % 2 ? null : new Date(Date.UTC(2026, 0, 1 + i, 21, 30)),
          new Date(Date.UTC(2026, 1, 1 + i, 12, 5)),
        ],
      );
    }
  }
});

beforeAll(async () => {
  // Assignees (one with a formula-like name) and an SLA stage past triage on some rows.
  const pool = ctx.database.pool;
  const u = await pool.query(
    "INSERT INTO users (email, name, role, password_hash) VALUES ('as@forpost.test', '=Исполнитель', 'SUPER_ADMIN', 'x') RETURNING id",
  );
  await pool.query('UPDATE events SET assignee_id = $1 WHERE id % 3 = 1', [u.rows[0].id]);
  await pool.query(
    "UPDATE events e SET status_id = s.id FROM event_statuses s WHERE s.module = e.module AND s.code = 'in_progress' AND e.id % 4 = 2",
  );
});

describe('cells computed by PostgreSQL = cells computed in Node', () => {
  for (const code of MODULES) {
    it(`${code}: every field, CSV and XLSX`, async () => {
      const m = getModule(code);
      // Card numbers: the SQL path only ever writes masks (clear numbers take the Node path).
      const fields = exportFieldsOf(m)
        .map((f) => f.key)
        .filter((k) => fieldOf(m, k)?.type !== 'card');
      const csv = (await exportRun(code, 'csv', fields)).json() as ExportItem;
      expect(csv).toMatchObject({ status: 'done', rows_written: 18 });
      const got = csvRows(await body(csv));
      const want = csvRows(await nodeFile(code, 'csv', fields));
      expect(got).toHaveLength(19);
      expect(got).toEqual(want);

      const xlsx = (await exportRun(code, 'xlsx', fields)).json() as ExportItem;
      expect(xlsx).toMatchObject({ status: 'done', rows_written: 18 });
      const [gotX] = await xlsxParsed(await body(xlsx));
      const [wantX] = await xlsxParsed(await nodeFile(code, 'xlsx', fields));
      expect(gotX?.rows).toHaveLength(19);
      expect(gotX).toEqual(wantX);
    });
  }

  it('neutralises every dangerous first character, also after spaces; card numbers only as masks', async () => {
    const fields = ['title', 'company_id', 'source', 'tags'];
    const rows = csvRows(await body((await exportRun('brand', 'csv', fields)).json())).slice(1);
    const titles = rows.map((r) => r[0]);
    expect(titles).toContain('\'=HYPERLINK("http://evil","x")');
    for (const v of ["'+7 999", "'-2+3", "'@SUM(A1)", "'\tTAB", "'\rCR", "'   =1+1", "'  - минус после пробелов"])
      expect(titles).toContain(v);
    expect(titles).toContain(' пробел в начале и в конце ');
    expect(titles).toContain('строка 1\nстрока 2');
    expect(titles).toContain("'апостроф"); // a leading apostrophe is not a formula: left as it is
    expect(rows.map((r) => r[1])).toContain("'=Злая компания");
    expect(rows.map((r) => r[2])).toContain("'=неизвестный");
    expect(rows.map((r) => r[3])).toContain('важное, @опасное, #4242');
    for (const r of rows) for (const c of r) expect(c).not.toMatch(/^ *[=+\-@\t\r]/);

    const pool = ctx.database.pool;
    await pool.query(
      `INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, tags, data, search)
       SELECT $1, 'acquiring', 'Карта', (SELECT id FROM event_statuses WHERE module = 'acquiring' LIMIT 1), 'Other', 'NotDetermined', 'card-1', '{}',
              '{"card_number": "sealed-not-a-number", "card_number_mask": "2202 **** **** 1234"}'::jsonb, ''::tsvector`,
      [A],
    );
    const analyst = await signedIn(ctx, 'ann@forpost.test', 'ANALYST');
    const r = await analyst.post('/modules/exports', {
      module: 'acquiring',
      format: 'csv',
      fields: ['card_number'],
      filters: {},
    });
    const id = (r.json() as ExportItem).id;
    await ctx.app.services.transfer.exports.run(id);
    const dl = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/exports/${id}/download`,
      headers: { cookie: [...analyst.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const cards = csvRows(dl.rawPayload).slice(1).flat();
    expect(cards).toContain('2202 **** **** 1234');
    expect(cards.join(' ')).not.toContain('sealed');
  });
});

describe('filters rendered into the COPY statement', () => {
  it('quotes and backslashes in filter values stay values (the rows whose text contains them)', async () => {
    const all = (await ctx.database.pool.query("SELECT id, data ->> 'url' AS url FROM events WHERE module = 'brand' ORDER BY id"))
      .rows as { id: number; url: string | null }[];
    let matched = 0;
    for (const url of ["'апостроф", 'b"c', "a'b\\c' OR '1'='1", '\\', 'строка 1']) {
      const want = all.filter((x) => (x.url ?? '').toLowerCase().includes(url.toLowerCase())).map((x) => x.id);
      matched += want.length;
      const r = await admin.post('/modules/exports', {
        module: 'brand',
        format: 'csv',
        fields: ['id', 'url'],
        filters: { url, sort: 'id' },
      });
      expect(r.statusCode, r.body).toBe(202);
      const id = (r.json() as ExportItem).id;
      await ctx.app.services.transfer.exports.run(id);
      const e = (await admin.get(`/modules/exports/${id}`)).json() as ExportItem;
      expect(e.status).toBe('done');
      const rows = csvRows(await body(e)).slice(1);
      expect(
        rows.map((x) => Number(x[0])),
        url,
      ).toEqual(want);
    }
    expect(matched).toBeGreaterThan(0);
  });
  it('literals read back as the same text whatever standard_conforming_strings is', async () => {
    const client = await ctx.database.pool.connect();
    try {
      for (const scs of ['on', 'off']) {
        await client.query(`SET standard_conforming_strings = ${scs}`);
        for (const v of ["a'b", "\\'; SELECT 1; --", 'c:\\path\\', "''", "E'x'", 'тест\nстрока']) {
          const got = (await client.query(`SELECT ${inlineParams('$1', [v])} AS v`)).rows[0].v;
          expect(got).toBe(v);
        }
      }
    } finally {
      await client.query('RESET standard_conforming_strings');
      client.release();
    }
  });
});

describe('XLSX from PostgreSQL', () => {
  it('starts a new sheet every rowsPerSheet rows; characters XML cannot carry are dropped', async () => {
    const e = (await exportRun('brand', 'xlsx', ['id', 'title'], { rowsPerSheet: 5 })).json() as ExportItem;
    expect(e).toMatchObject({ status: 'done', rows_written: 18 });
    const file = await body(e);
    const sheets = await xlsxParsed(file);
    expect(sheets.map((s) => s.name)).toEqual(['Данные', 'Данные 2', 'Данные 3', 'Данные 4']);
    expect(sheets.map((s) => s.rows.length)).toEqual([6, 6, 6, 4]);
    for (const s of sheets) expect(s.rows[0]).toEqual(['№', 'Заголовок']);
    // Every row once, in the export's order (sort=id), as plain SQL selects them.
    const ids = sheets.flatMap((s) => s.rows.slice(1).map((r) => r[0]));
    const expected = (await ctx.database.pool.query("SELECT id FROM events WHERE module = 'brand' ORDER BY id")).rows.map(
      (r: { id: string }) => Number(r.id),
    );
    expect(ids).toEqual(expected);
    const titles = sheets.flatMap((s) => s.rows.slice(1).map((r) => r[1]));
    expect(titles).toContain('управляющийсимвол');
    expect(file.toString('latin1')).not.toMatch(/<f>/);
  });

  it("rows filling the last sheet exactly open no empty sheet; the real limit is Excel's 1 048 576 rows with the header", async () => {
    expect(XLSX_ROWS_PER_SHEET + 1).toBe(1_048_576);
    expect(new XlsxStream(['a']).rowsPerSheet).toBe(XLSX_ROWS_PER_SHEET);
    const e = (await exportRun('brand', 'xlsx', ['id'], { rowsPerSheet: 6 })).json() as ExportItem;
    const sheets = await xlsxParsed(await body(e));
    expect(sheets.map((s) => s.name)).toEqual(['Данные', 'Данные 2', 'Данные 3']);
    expect(sheets.map((s) => s.rows.length)).toEqual([7, 7, 7]);
    for (const s of sheets) expect(s.rows[0]).toEqual(['№']);
  });

  it('the workbook streams: its bytes leave the writer while rows are still coming (no whole-file buffer)', async () => {
    const w = new XlsxStream(['№', 'Текст']);
    let out = 0;
    w.output.on('data', (c: Buffer) => {
      out += c.length;
    });
    const ended = once(w.output, 'end');
    const sent: number[] = [];
    for (let i = 0; i < 200; i++) {
      // Incompressible text, so the deflated sheet grows with the rows.
      await w.writeMany(Array.from({ length: 500 }, (_, k) => [i * 500 + k, randomBytes(24).toString('base64')]));
      sent.push(out);
    }
    // Output kept flowing through the run: more than half of it before the last tenth of the rows.
    await w.end();
    await ended;
    expect(sent[179]).toBeGreaterThan(out / 2);
    expect(sent[19]).toBeGreaterThan(0);
  });
});

describe('a running export', () => {
  it('deleted meanwhile: the COPY is cancelled, nothing is stored, the connection stays usable', async () => {
    const pool = ctx.database.pool;
    await pool.query(
      `INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, tags, data, search)
       SELECT $1, 'employees', 'Сотрудник ' || i || repeat(' длинный текст', 20), (SELECT id FROM event_statuses WHERE module = 'employees' LIMIT 1),
              'Other', 'NotDetermined', 'emp-' || i, '{}', '{}'::jsonb, ''::tsvector FROM generate_series(1, 30000) i`,
      [A],
    );
    const r = await admin.post('/modules/exports', { module: 'employees', format: 'csv', fields: ['id', 'title'], filters: {} });
    const id = (r.json() as ExportItem).id;
    let pages = 0;
    await ctx.app.services.transfer.exports.run(id, {
      progressMs: 0,
      onPage: async () => {
        if (++pages === 1) await pool.query('DELETE FROM exports WHERE id = $1', [id]);
      },
    });
    expect(pages).toBe(1);
    expect((await admin.get(`/modules/exports/${id}`)).statusCode).toBe(404);
    // The next export on the same pool runs to the end.
    const again = (await exportRun('employees', 'csv', ['id'])).json() as ExportItem;
    expect(again).toMatchObject({ status: 'done', rows_written: 30000 });
    expect(csvRows(await body(again))).toHaveLength(30001);
  });
});
