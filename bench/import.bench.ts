/*
 * Import speed and memory, against PostgreSQL's own COPY of the same rows in the same run.
 *
 *   node --import tsx bench/import.bench.ts      (ROWS=200000 XLSX_ROWS=20000 for a quicker run)
 *
 * 1. CSV, ROWS rows of the «Утечки» module: the real upload (multipart, streamed) and the real
 *    job (batches, dedup, history, whitelist marks), rows/s and peak RSS of the process.
 * 2. The baselines, same rows, same table (indexes included), table emptied before each:
 *    a. COPY … FROM file (CSV) of the finished rows (fingerprint, data, an empty search vector);
 *    b. COPY into a staging table + INSERT … SELECT computing the search vector like the import does.
 * 3. XLSX, XLSX_ROWS rows (shared strings, as Excel writes them): rows/s and peak RSS.
 *
 * Goals: CSV import ≥ 0.5× COPY's rows/s, peak RSS ≤ 300 MB. Prints the figures; asserts nothing.
 */
import '@forpost/contract/zod-setup';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { getModule } from '@forpost/contract/modules';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase } from '../apps/api/src/db/client';
import { startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { startJobs } from '../apps/api/src/jobs';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';
import {
  applyInput,
  createCardVault,
  fingerprintOf,
  pickModuleInput,
  searchTextOf,
} from '../apps/api/src/modules/events/event-data';
import { generateEvents } from './generate';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const XLSX_ROWS = Number(process.env.XLSX_ROWS ?? 100_000);
const SECRET = randomBytes(32).toString('hex');
const ADMIN = { email: 'bench@forpost.local', password: 'Bench-Admin-2026!Password' };
const MODULE = 'leaks' as const;
const m = getModule(MODULE);
const HEADERS = ['Название утечки', 'Записей', 'Дата утечки', 'Источник', 'Состав данных', 'Описание', 'Статус', 'Приоритет'];

const quiet = { info() {}, warn() {}, error: console.error };
const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)}  ${s}\n`);
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} МБ`;
const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
const fmt = (n: number) => n.toLocaleString('ru-RU');

/** Peak RSS while `fn` runs (sampled every 20 ms). */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; peak: number; before: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { result, ms: performance.now() - t0, peak: Math.max(peak, process.memoryUsage().rss), before };
  } finally {
    clearInterval(timer);
  }
}

const PRIORITY_RU: Record<string, string> = { low: 'Низкий', medium: 'Средний', high: 'Высокий', critical: 'Критический' };
const STATUS_RU: Record<string, string> = {
  new: 'Новое',
  in_progress: 'В работе',
  awaiting: 'Ожидает ответа',
  resolved: 'Решено',
  false_positive: 'Ложное срабатывание',
};

/** The rows of the benchmark: file cells (what a user's file has) per generated leak event. */
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

async function writeCsv(file: string, count: number) {
  const out = createWriteStream(file);
  const s = stringify({ delimiter: ';', bom: true });
  s.pipe(out);
  s.write(HEADERS);
  for (const r of rows(count)) if (!s.write(r.cells)) await once(s, 'drain');
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

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'forpost-bench-import-'));
  chmodSync(dir, 0o755); // the embedded server (user postgres) reads the COPY files from here
  log(`каталог: ${dir}`);
  const embedded = await startEmbedded({
    dataDir: path.join(dir, 'data'),
    port: 57000 + Math.floor(Math.random() * 2000),
    log: quiet,
  });
  try {
    await runMigrations(embedded.url);
    const database = createDatabase(embedded.url, quiet, 12);
    const config = loadConfig({
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: embedded.url,
      SECRET,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:8080',
      CONSOLE_DIST: path.join(dir, 'none'),
    });
    await ensureFirstAdmin(database.db, ADMIN.email, ADMIN.password);
    const app = await buildApp({ config, database, logger: false });
    const boss = await startJobs(embedded.url, quiet, false);
    await app.services.transfer.attach(boss, { work: false });
    const company = (await database.pool.query("INSERT INTO companies (name) VALUES ('Бенчмарк') RETURNING id")).rows[0]
      .id as number;

    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: ADMIN,
      headers: { origin: 'http://localhost:8080' },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = { cookie, origin: 'http://localhost:8080' };
    await app.inject({ method: 'POST', url: '/api/v1/configs', headers, payload: { key: 'import_file_max_mb', value: 10240 } });

    const importFile = async (file: string, name: string) => {
      const mp = multipartStream(file, name);
      const up = await measure(async () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/modules/${MODULE}/events/imports`,
          headers: { ...headers, 'content-type': mp.contentType, 'content-length': String(mp.length) },
          payload: mp.stream,
        }),
      );
      if (up.result.statusCode !== 201) throw new Error(`upload ${up.result.statusCode} ${up.result.body}`);
      const u = up.result.json() as { id: number; preview: { mapping: (string | null)[] } };
      const st = await app.inject({
        method: 'POST',
        url: `/api/v1/modules/${MODULE}/events/imports/${u.id}/start`,
        headers,
        payload: { mapping: u.preview.mapping, mode: 'update', company_id: company },
      });
      if (st.statusCode !== 202) throw new Error(`start ${st.statusCode} ${st.body}`);
      const run = await measure(() => app.services.transfer.imports.run(u.id, process.env.BATCH ? { batchSize: Number(process.env.BATCH) } : {}));
      const item = (await app.inject({ method: 'GET', url: `/api/v1/modules/${MODULE}/events/imports/${u.id}`, headers })).json();
      return { up, run, item };
    };

    // --- CSV -------------------------------------------------------------------
    const csv = path.join(dir, 'leaks.csv');
    log(`генерация CSV на ${fmt(ROWS)} строк…`);
    await writeCsv(csv, ROWS);
    log(`CSV: ${mb(statSync(csv).size)}`);

    // Baselines first, each into the emptied table.
    const vault = createCardVault(SECRET);
    const ref = async (q: string) =>
      new Map((await database.pool.query(q)).rows.map((r: { code: string; id: number }) => [r.code, r.id]));
    const statuses = await ref(`SELECT code, id FROM event_statuses WHERE module = '${MODULE}'`);
    const priorities = await ref(`SELECT code, id FROM event_priorities WHERE module = '${MODULE}'`);
    // The finished rows (what the import computes), once with the search text (b) and once without (a).
    const copyA = path.join(dir, 'copy-a.csv');
    const copyB = path.join(dir, 'copy-b.csv');
    {
      const outA = createWriteStream(copyA);
      const outB = createWriteStream(copyB);
      const a = stringify();
      const b = stringify();
      a.pipe(outA);
      b.pipe(outB);
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
        const okB = b.write([...line, searchTextOf(m, title, data)]);
        if (!okA) await once(a, 'drain');
        if (!okB) await once(b, 'drain');
      }
      a.end();
      b.end();
      await Promise.all([once(outA, 'finish'), once(outB, 'finish')]);
      chmodSync(copyA, 0o644);
      chmodSync(copyB, 0o644);
    }
    const admin = new pg.Client({ connectionString: embedded.url });
    admin.on('error', () => undefined);
    await admin.connect();
    const cols = 'company_id, module, title, status_id, priority_id, source, ml_state, fingerprint, tags, data';
    await admin.query('TRUNCATE events CASCADE');
    log('COPY (a): готовые строки прямо в events, пустой поисковый вектор…');
    const baseA = await measure(() => admin.query(`COPY events (${cols}, search) FROM '${copyA}' WITH (FORMAT csv)`));
    await admin.query('TRUNCATE events CASCADE');
    log('COPY (b): staging + вектор поиска, как при импорте…');
    const baseB = await measure(async () => {
      await admin.query(
        'CREATE TEMP TABLE staging (company_id int, module text, title text, status_id int, priority_id int, source text, ml_state text, fingerprint text, tags int[], data jsonb, search_text text)',
      );
      await admin.query(`COPY staging FROM '${copyB}' WITH (FORMAT csv)`);
      await admin.query(
        `INSERT INTO events (${cols}, search) SELECT ${cols}, to_tsvector('russian', search_text) || to_tsvector('simple', search_text) FROM staging`,
      );
    });
    await admin.query('TRUNCATE events CASCADE');
    await admin.end();

    log('импорт CSV…');
    {
      const k = app.services.whitelist.kindForEvent;
      let t0 = performance.now();
      for (let i = 0; i < 500; i++) await k(company, 'leaks', { source_url: `https://x${i}.example/a`, leak_name: 'x' });
      console.log('kindFor serial ms/call', (performance.now() - t0) / 500);
      t0 = performance.now();
      await Promise.all(Array.from({ length: 500 }, (_, i) => k(company, 'leaks', { source_url: `https://x${i}.example/a`, leak_name: 'x' })));
      console.log('kindFor parallel ms/call', (performance.now() - t0) / 500);
      t0 = performance.now();
      for (let i = 0; i < 500; i++)
        await database.pool.query(
          `SELECT id, kind, company_id FROM whitelist_items WHERE (company_id = $1 OR company_id IS NULL) AND (expires_at IS NULL OR expires_at > now())
             AND ((type = 'domain' AND match_key IN ($2, $3)) OR (type = 'url' AND match_key IN ($4, $5))) ORDER BY company_id IS NULL, id LIMIT 1`,
          [company, `x${i}.example`, 'example', `x${i}.example/a`, `x${i}.example`],
        );
      console.log('raw whitelist query ms', (performance.now() - t0) / 500);
      const ex = await database.pool.query(
        `EXPLAIN ANALYZE SELECT id, kind, company_id FROM whitelist_items WHERE (company_id = $1 OR company_id IS NULL) AND (expires_at IS NULL OR expires_at > now())
             AND ((type = 'domain' AND match_key IN ($2, $3)) OR (type = 'url' AND match_key IN ($4, $5))) ORDER BY company_id IS NULL, id LIMIT 1`,
        [company, 'x.example', 'example', 'x.example/a', 'x.example'],
      );
      console.log(ex.rows.map((r) => r['QUERY PLAN']).join('\n'));
      console.log((await database.pool.query("SELECT count(*) FROM whitelist_items")).rows);
      t0 = performance.now();
      for (let i = 0; i < 500; i++) await database.pool.query('SELECT 1');
      console.log('pool SELECT 1 ms', (performance.now() - t0) / 500);
    }
    const c = await importFile(csv, 'leaks.csv');
    console.log('TIMINGS', (globalThis as any).__t);
    if (c.item.created !== ROWS)
      log(`ВНИМАНИЕ: создано ${fmt(c.item.created)} из ${fmt(ROWS)} (${c.item.status} ${c.item.message ?? ''})`);

    // --- XLSX ------------------------------------------------------------------
    await database.pool.query('TRUNCATE events CASCADE');
    const xlsx = path.join(dir, 'leaks.xlsx');
    log(`генерация XLSX на ${fmt(XLSX_ROWS)} строк…`);
    await writeXlsx(xlsx, XLSX_ROWS);
    log(`XLSX: ${mb(statSync(xlsx).size)}`);
    log('импорт XLSX…');
    const x = await importFile(xlsx, 'leaks.xlsx');

    const rA = rate(ROWS, baseA.ms);
    const rB = rate(ROWS, baseB.ms);
    const rI = rate(ROWS, c.run.ms);
    process.stdout.write(`
Импорт «${m.name}», ${fmt(ROWS)} строк CSV (${mb(statSync(csv).size)})
  загрузка файла (поток, проверка, предпросмотр): ${(c.up.ms / 1000).toFixed(1)} с, пик RSS ${mb(c.up.peak)}
  задача импорта: ${(c.run.ms / 1000).toFixed(1)} с → ${fmt(rI)} строк/с; пик RSS ${mb(c.run.peak)} (до начала ${mb(c.run.before)})
  итог: создано ${fmt(c.item.created)}, ошибок ${fmt(c.item.failed)}
  COPY (a) в ту же таблицу, без полнотекстового вектора: ${(baseA.ms / 1000).toFixed(1)} с → ${fmt(rA)} строк/с
  COPY (b) через staging + вектор поиска, как импорт:   ${(baseB.ms / 1000).toFixed(1)} с → ${fmt(rB)} строк/с
  отношение импорт / COPY (a): ${(rI / rA).toFixed(2)}  (цель ≥ 0,5)
  отношение импорт / COPY (b): ${(rI / rB).toFixed(2)}
  RSS ≤ 300 МБ: ${c.run.peak <= 300 * 1024 * 1024 ? 'да' : 'НЕТ'}

Импорт XLSX, ${fmt(XLSX_ROWS)} строк (${mb(statSync(xlsx).size)}, общие строки)
  загрузка: ${(x.up.ms / 1000).toFixed(1)} с; задача: ${(x.run.ms / 1000).toFixed(1)} с → ${fmt(rate(XLSX_ROWS, x.run.ms))} строк/с; пик RSS ${mb(x.run.peak)}
  итог: создано ${fmt(x.item.created)}, ошибок ${fmt(x.item.failed)}
`);
    await boss.stop({ graceful: false, wait: true });
    await app.close();
    await database.close();
  } finally {
    await embedded.stop();
    if (!process.env.KEEP_DB) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
