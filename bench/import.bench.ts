/*
 * Import speed and memory, against PostgreSQL's own COPY of the same rows in the same run.
 *
 *   node --import tsx bench/import.bench.ts      (ROWS=200000 XLSX_ROWS=20000 for a quicker run)
 *
 * The import runs as in production: the file is uploaded to the API (multipart, streamed), the job
 * is queued, and a separate worker process (ROLE=worker) runs it; its RSS is sampled from /proc.
 * 1. CSV, ROWS rows of the «Утечки» module (dedup, history, whitelist marks, search vector).
 *    Then UPDATE_ROWS of them again with another status and description: the update path (existing
 *    rows locked, changes diffed, history rows, data and search vector rewritten).
 * 2. Baselines, same finished rows, same table with all its indexes and triggers, emptied first:
 *    a. COPY … FROM file straight into `events` (with an empty search vector);
 *    b. COPY into a staging table + INSERT … SELECT computing the search vector as the import must.
 * 3. XLSX, XLSX_ROWS rows written with shared strings (as Excel does).
 *
 * Goals: CSV import ≥ 0.5× COPY's rows/s, worker RSS ≤ 300 MB. Prints the figures; asserts nothing.
 */

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, createReadStream, createWriteStream, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { getModule } from '@forpost/contract/modules';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import pg from 'pg';
import {
  applyInput,
  createCardVault,
  fingerprintOf,
  pickModuleInput,
  searchTextOf,
} from '../apps/api/src/modules/events/write/event-data';
import { generateEvents } from './generate';
import { type Bench, fmt, log, mb, rate, sampleRss, startBench, until } from './transfer-kit';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const XLSX_ROWS = Number(process.env.XLSX_ROWS ?? 100_000);
const UPDATE_ROWS = Math.min(ROWS, Number(process.env.UPDATE_ROWS ?? 100_000));
const MODULE = 'leaks' as const;
const m = getModule(MODULE);
const HEADERS = ['Название утечки', 'Записей', 'Дата утечки', 'Источник', 'Состав данных', 'Описание', 'Статус', 'Приоритет'];
const PRIORITY_RU: Record<string, string> = { low: 'Низкий', medium: 'Средний', high: 'Высокий', critical: 'Критический' };
const STATUS_RU: Record<string, string> = {
  new: 'Новое',
  in_progress: 'В работе',
  awaiting: 'Ожидает ответа',
  resolved: 'Решено',
  false_positive: 'Ложное срабатывание',
};

/** The benchmark's rows: the generator's leak events as a user's file would have them. */
function* rows(count: number) {
  for (const e of generateEvents({ seed: 7, count, modules: [MODULE] })) {
    const f = e.fields;
    yield {
      e,
      cells: [
        String(f.leak_name ?? ''),
        f.records_count == null ? '' : String(f.records_count),
        String(f.leaked_at ?? ''),
        String(f.source_url ?? ''),
        String(f.data_types ?? ''),
        String(f.description ?? ''),
        STATUS_RU[e.status] ?? '',
        e.priority ? (PRIORITY_RU[e.priority] ?? '') : '',
      ],
    };
  }
}

/** The same rows with another status and description: every one of them is an update. */
const changed = (cells: string[]) =>
  cells.map((c, i) => (i === 5 ? `${c} (обновлено)` : i === 6 ? (c === 'Решено' ? 'В работе' : 'Решено') : c));

async function writeCsv(file: string, count: number, edit: (cells: string[]) => string[] = (c) => c) {
  const out = createWriteStream(file);
  const s = stringify({ delimiter: ';', bom: true });
  s.pipe(out);
  s.write(HEADERS);
  for (const r of rows(count)) if (!s.write(edit(r.cells))) await once(s, 'drain');
  s.end();
  await once(out, 'finish');
}

async function writeXlsx(file: string, count: number) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('Утечки');
  ws.addRow(HEADERS).commit();
  for (const r of rows(count)) ws.addRow(r.cells.map((c, i) => (i === 1 && c ? Number(c) : c))).commit();
  ws.commit();
  await wb.commit();
}

/** A multipart body streamed from the file (the upload never sits in memory whole). */
function multipartStream(file: string, name: string) {
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for await (const c of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield c as Buffer;
    yield tail;
  }
  return {
    stream: Readable.from(body()),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + statSync(file).size + tail.length,
  };
}

interface ImportItem {
  id: number;
  status: string;
  message: string | null;
  created: number;
  updated: number;
  failed: number;
  started_at: string | null;
  finished_at: string | null;
}

async function importFile(b: Bench, company: number, file: string, name: string) {
  const mp = multipartStream(file, name);
  const t0 = performance.now();
  const up = await b.app.inject({
    method: 'POST',
    url: `/api/v1/modules/${MODULE}/events/imports`,
    headers: { ...b.headers, 'content-type': mp.contentType, 'content-length': String(mp.length) },
    payload: mp.stream,
  });
  const uploadMs = performance.now() - t0;
  if (up.statusCode !== 201) throw new Error(`upload ${up.statusCode} ${up.body}`);
  const u = up.json() as { id: number; preview: { mapping: (string | null)[] } };
  const job = await sampleRss(b.worker.pid as number, async () => {
    const st = await b.app.inject({
      method: 'POST',
      url: `/api/v1/modules/${MODULE}/events/imports/${u.id}/start`,
      headers: b.headers,
      payload: { mapping: u.preview.mapping, mode: 'update', company_id: company },
    });
    if (st.statusCode !== 202) throw new Error(`start ${st.statusCode} ${st.body}`);
    return until(async () => {
      const r = (
        await b.app.inject({ method: 'GET', url: `/api/v1/modules/${MODULE}/events/imports/${u.id}`, headers: b.headers })
      ).json() as ImportItem;
      return r.status === 'done' || r.status === 'failed' ? r : undefined;
    });
  });
  const item = job.result;
  // The job's own time (from the worker taking it to the last commit), without the queue's polling delay.
  const jobMs = new Date(item.finished_at ?? 0).getTime() - new Date(item.started_at ?? 0).getTime();
  return { uploadMs, jobMs, peak: job.peak, before: job.before, item };
}

async function main() {
  const b = await startBench('import');
  try {
    log(`каталог: ${b.dir}; обработчик: pid ${b.worker.pid}`);
    await b.app.inject({
      method: 'POST',
      url: '/api/v1/configs',
      headers: b.headers,
      payload: { key: 'import_file_max_mb', value: 10240 },
    });
    const pool = b.database.pool;
    const company = (await pool.query("INSERT INTO companies (name) VALUES ('Бенчмарк') RETURNING id")).rows[0].id as number;

    const csv = path.join(b.dir, 'leaks.csv');
    log(`генерация CSV на ${fmt(ROWS)} строк…`);
    await writeCsv(csv, ROWS);
    log(`CSV: ${mb(statSync(csv).size)}`);

    // Baselines: the finished rows (what the import computes), with the search text (b) and without (a).
    const vault = createCardVault(randomBytes(32).toString('hex'));
    const ref = async (q: string) => new Map((await pool.query(q)).rows.map((r: { code: string; id: number }) => [r.code, r.id]));
    const statuses = await ref(`SELECT code, id FROM event_statuses WHERE module = '${MODULE}'`);
    const priorities = await ref(`SELECT code, id FROM event_priorities WHERE module = '${MODULE}'`);
    const fileA = path.join(b.dir, 'copy-a.csv');
    const fileB = path.join(b.dir, 'copy-b.csv');
    {
      const outA = createWriteStream(fileA);
      const outB = createWriteStream(fileB);
      const a = stringify();
      const c = stringify();
      a.pipe(outA);
      c.pipe(outB);
      for (const { e } of rows(ROWS)) {
        const input = pickModuleInput(m, e.fields);
        const data = applyInput(m, {}, input, vault);
        const title = m.title({ ...data, ...input }).slice(0, 500) || m.name;
        const line = [
          company,
          MODULE,
          title,
          statuses.get(e.status),
          e.priority ? priorities.get(e.priority) : null,
          'Other',
          'NotDetermined',
          fingerprintOf(m, data),
          '{}',
          JSON.stringify(data),
        ];
        const okA = a.write([...line, ' ']); // a blank tsvector (an empty field would be NULL)
        const okB = c.write([...line, searchTextOf(m, title, data)]);
        if (!okA) await once(a, 'drain');
        if (!okB) await once(c, 'drain');
      }
      a.end();
      c.end();
      await Promise.all([once(outA, 'finish'), once(outB, 'finish')]);
      chmodSync(fileA, 0o644);
      chmodSync(fileB, 0o644);
    }
    const admin = new pg.Client({ connectionString: b.embedded.url });
    admin.on('error', () => undefined);
    await admin.connect();
    const cols = 'company_id, module, title, status_id, priority_id, source, ml_state, fingerprint, tags, data';
    // The worker's other jobs (ML queue, rollups) may hold locks on events: a TRUNCATE can deadlock with them; retry.
    const truncate = async () => {
      for (let i = 1; ; i++) {
        try {
          await admin.query('TRUNCATE events CASCADE');
          return;
        } catch (e) {
          if ((e as { code?: string }).code !== '40P01' || i >= 5) throw e;
        }
      }
    };
    const timed = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    await truncate();
    log('COPY (a): строки с пустым вектором поиска прямо в events…');
    const copyA = await timed(() => admin.query(`COPY events (${cols}, search) FROM '${fileA}' WITH (FORMAT csv)`));
    await truncate();
    log('COPY (b): staging + вектор поиска…');
    const copyB = await timed(async () => {
      await admin.query(
        'CREATE TEMP TABLE staging (company_id int, module text, title text, status_id int, priority_id int, source text, ml_state text, fingerprint text, tags int[], data jsonb, search_text text)',
      );
      await admin.query(`COPY staging FROM '${fileB}' WITH (FORMAT csv)`);
      await admin.query(
        `INSERT INTO events (${cols}, search) SELECT ${cols}, to_tsvector('russian', search_text) || to_tsvector('simple', search_text) FROM staging`,
      );
    });
    await truncate();
    await admin.query('ANALYZE events');

    log('импорт CSV (обработчик в отдельном процессе)…');
    const c = await importFile(b, company, csv, 'leaks.csv');

    const upd = path.join(b.dir, 'leaks-update.csv');
    await writeCsv(upd, UPDATE_ROWS, changed);
    log(`импорт CSV: ${fmt(UPDATE_ROWS)} изменённых строк (обновления)…`);
    const u = await importFile(b, company, upd, 'leaks-update.csv');

    await truncate();
    await admin.end();
    const xlsx = path.join(b.dir, 'leaks.xlsx');
    log(`генерация XLSX на ${fmt(XLSX_ROWS)} строк…`);
    await writeXlsx(xlsx, XLSX_ROWS);
    log(`XLSX: ${mb(statSync(xlsx).size)}`);
    log('импорт XLSX…');
    const x = await importFile(b, company, xlsx, 'leaks.xlsx');

    const rI = rate(ROWS, c.jobMs);
    const rA = rate(ROWS, copyA);
    const rB = rate(ROWS, copyB);
    process.stdout.write(`
Импорт «${m.name}», ${fmt(ROWS)} строк CSV (${mb(statSync(csv).size)}); обработчик: NODE_OPTIONS=${b.workerNodeOptions || '(нет)'}
  загрузка файла (поток, проверка, предпросмотр): ${(c.uploadMs / 1000).toFixed(1)} с
  задача импорта: ${(c.jobMs / 1000).toFixed(1)} с → ${fmt(rI)} строк/с; итог: ${c.item.status}, создано ${fmt(c.item.created)}, ошибок ${fmt(c.item.failed)}
  RSS обработчика: пик ${mb(c.peak)} (в простое ${mb(c.before)})   цель ≤ 300 МБ: ${c.peak <= 300 * 1024 * 1024 ? 'да' : 'нет'}
  COPY (a) строк без вектора поиска в events:     ${(copyA / 1000).toFixed(1)} с → ${fmt(rA)} строк/с; импорт / COPY = ${(rI / rA).toFixed(2)} (цель ≥ 0,5)
  COPY (b) + вектор поиска (та же работа в БД):    ${(copyB / 1000).toFixed(1)} с → ${fmt(rB)} строк/с; импорт / COPY = ${(rI / rB).toFixed(2)}

Повторный импорт ${fmt(UPDATE_ROWS)} строк с другим статусом и описанием (режим «обновлять»)
  задача: ${(u.jobMs / 1000).toFixed(1)} с → ${fmt(rate(UPDATE_ROWS, u.jobMs))} строк/с; итог: ${u.item.status}, обновлено ${fmt(u.item.updated)}, ошибок ${fmt(u.item.failed)}

Импорт XLSX, ${fmt(XLSX_ROWS)} строк (${mb(statSync(xlsx).size)}, общие строки)
  задача: ${(x.jobMs / 1000).toFixed(1)} с → ${fmt(rate(XLSX_ROWS, x.jobMs))} строк/с; итог: ${x.item.status}, создано ${fmt(x.item.created)}
  RSS обработчика: пик ${mb(x.peak)} (в простое ${mb(x.before)})
`);
  } finally {
    await b.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
