/*
 * Export speed and memory on 1 000 000 events, against PostgreSQL's COPY (SELECT …) TO STDOUT of the
 * same rows and columns in the same run.
 *
 *   node --import tsx bench/export.bench.ts      (EVENTS=200000 for a quicker run; EVENTS=10000000 for issue #18)
 *
 * Events of «Утечки» in two companies: A has SMALL of them (default 10 %), B the rest. Exports are
 * requested through the API and built by a separate worker process (ROLE=worker), whose RSS is
 * sampled from /proc: CSV, XLSX and STIX 2.1 (#33) of company A and of everything — memory must stay flat between them
 * (EVENTS=10000000: 1M → 10M).
 *
 * The events are loaded with the table's triggers off (session_replication_role = replica: no ML
 * queue, rollups or SLA work meanwhile) and its secondary indexes dropped and rebuilt afterwards —
 * four times faster than row-by-row index upkeep; the table ends up as the app has it. Indicators are
 * set (none), or the worker's backfill would rewrite every event while the exports run.
 *
 * Goals: CSV export ≥ 0.5× COPY's rows/s; RSS flat from SMALL to EVENTS. Prints the figures; asserts nothing.
 */
import { createWriteStream, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { getModule } from '@forpost/contract/modules';
import { to as copyTo } from 'pg-copy-streams';
import { orderBy } from '../apps/api/src/modules/events/list/events.query';
import { loadRefs } from '../apps/api/src/modules/events/refs/refs';
import { createExportsRepo } from '../apps/api/src/modules/exports/exports.repo';
import { csvCopySql } from '../apps/api/src/modules/exports/sql-cells.query';
import { type Bench, fmt, log, mb, rate, sampleRss, startBench, until } from './transfer-kit';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const SMALL = Number(process.env.SMALL ?? Math.round(EVENTS / 10));
const FIELDS = [
  'id',
  'company_id',
  'title',
  'status_id',
  'priority_id',
  'created_at',
  'leak_name',
  'records_count',
  'leaked_at',
  'source_url',
  'data_types',
  'description',
];

interface ExportItem {
  id: number;
  status: string;
  message: string | null;
  rows_written: number;
  size: number | null;
  created_at: string;
  finished_at: string | null;
}

async function exportOnce(b: Bench, format: 'csv' | 'xlsx' | 'stix', filters: Record<string, unknown>) {
  const job = await sampleRss(b.worker.pid as number, async () => {
    const r = await b.app.inject({
      method: 'POST',
      url: '/api/v1/modules/exports',
      headers: b.headers,
      payload: { module: 'leaks', format, fields: FIELDS, filters },
    });
    if (r.statusCode !== 202) throw new Error(`export ${r.statusCode} ${r.body}`);
    const id = r.json().id as number;
    return until(async () => {
      const e = (
        await b.app.inject({ method: 'GET', url: `/api/v1/modules/exports/${id}`, headers: b.headers })
      ).json() as ExportItem;
      return e.status === 'done' || e.status === 'failed' ? e : undefined;
    });
  });
  const e = job.result;
  const started = (await b.database.pool.query('SELECT started_at FROM exports WHERE id = $1', [e.id])).rows[0]
    .started_at as Date;
  const ms = new Date(e.finished_at ?? 0).getTime() - started.getTime();
  return { e, ms, peak: job.peak, before: job.before };
}

async function main() {
  const b = await startBench('export');
  try {
    log(`каталог: ${b.dir}; обработчик: pid ${b.worker.pid}`);
    const pool = b.database.pool;
    const A = (await pool.query("INSERT INTO companies (name) VALUES ('Альфа') RETURNING id")).rows[0].id as number;
    const B = (await pool.query("INSERT INTO companies (name) VALUES ('Бета') RETURNING id")).rows[0].id as number;
    const small = SMALL;
    log(`загрузка ${fmt(EVENTS)} событий…`);
    const t0 = performance.now();
    const loader = await pool.connect();
    const indexes = (
      await loader.query<{ name: string; def: string }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'events'::regclass AND NOT i.indisprimary AND NOT i.indisunique`,
      )
    ).rows;
    for (const i of indexes) await loader.query(`DROP INDEX ${i.name}`);
    await loader.query('SET session_replication_role = replica');
    for (let from = 1; from <= EVENTS; from += 100_000) {
      const to = Math.min(EVENTS, from + 99_999);
      await loader.query(
        `INSERT INTO events (company_id, module, title, status_id, priority_id, source, ml_state, fingerprint, tags, data, search, indicators, created_at)
         SELECT CASE WHEN i <= $3 THEN $4::int ELSE $5::int END, 'leaks', 'Дамп CRM партнёра ' || i,
                (SELECT id FROM event_statuses WHERE module = 'leaks' ORDER BY sort LIMIT 1 OFFSET (i % 5)),
                (SELECT id FROM event_priorities WHERE module = 'leaks' ORDER BY level LIMIT 1 OFFSET (i % 4)),
                'Other', 'NotDetermined', md5(i::text), '{}',
                jsonb_build_object('leak_name', 'Дамп CRM партнёра ' || i, 'records_count', 50000 + i, 'leaked_at', '2026-02-10',
                                   'source_url', 'https://breachforums.example/thread/' || i, 'data_types', 'ФИО, телефоны, email',
                                   'description', CASE WHEN i % 100 = 0 THEN '=HYPERLINK("http://evil")' ELSE 'Выгрузка клиентской базы, часть ' || i END),
                ''::tsvector, '{}', timestamptz '2026-03-01' - (i || ' seconds')::interval
           FROM generate_series($1::int, $2::int) AS i`,
        [from, to, small, A, B],
      );
    }
    await loader.query('RESET session_replication_role');
    await loader.query("SET maintenance_work_mem = '256MB'");
    for (const i of indexes) await loader.query(i.def);
    loader.release();
    await pool.query('VACUUM ANALYZE events');
    log(`загружено за ${((performance.now() - t0) / 1000).toFixed(0)} с`);

    // The baselines: the same rows and columns (labels joined in, newest first, in the export's order:
    // the same index scan) as PostgreSQL's own CSV,
    // a. COPY … TO STDOUT streamed to a file by this process (what the export does, minus formatting);
    // b. COPY … TO a file written by the server itself.
    const baseline = `SELECT e.id, c.name, e.title, s.name, p.name, e.created_at, e.data ->> 'leak_name', e.data ->> 'records_count', e.data ->> 'leaked_at',
             e.data ->> 'source_url', e.data ->> 'data_types', e.data ->> 'description'
        FROM events e JOIN companies c ON c.id = e.company_id
        LEFT JOIN event_statuses s ON s.id = e.status_id LEFT JOIN event_priorities p ON p.id = e.priority_id
       WHERE e.module = 'leaks' ORDER BY e.created_at DESC NULLS LAST, e.id DESC NULLS LAST`;
    const copyOut = async (copy = `COPY (${baseline}) TO STDOUT WITH (FORMAT csv, HEADER)`) => {
      const client = await pool.connect();
      try {
        const t = performance.now();
        await pipeline(client.query(copyTo(copy)), createWriteStream(path.join(b.dir, 'copy-stdout.csv')));
        return performance.now() - t;
      } finally {
        client.release();
      }
    };
    const copyMs = await copyOut();
    const copySize = statSync(path.join(b.dir, 'copy-stdout.csv')).size;
    const out = path.join(b.dir, 'out', 'copy-out.csv');
    const tf = performance.now();
    await pool.query(`COPY (${baseline}) TO '${out}' WITH (FORMAT csv, HEADER)`);
    const copyFileMs = performance.now() - tf;
    // c. the export's own statement (cells formatted by PostgreSQL), streamed to a file: what the job
    // adds on top of it is Node's share.
    const m = getModule('leaks');
    const repo = createExportsRepo(b.database.db);
    const own = csvCopySql(
      m,
      FIELDS,
      await loadRefs(b.database.db),
      repo.copyParts(repo.selection(m, null, []), orderBy(m, '-created_at')),
    );
    const ownMs = await copyOut(own);

    log(`экспорт CSV ${fmt(small)}…`);
    const csvSmall = await exportOnce(b, 'csv', { company_id: A });
    log(`экспорт CSV ${fmt(EVENTS)}…`);
    const csvAll = await exportOnce(b, 'csv', {});
    log(`экспорт XLSX ${fmt(small)}…`);
    const xSmall = await exportOnce(b, 'xlsx', { company_id: A });
    log(`экспорт XLSX ${fmt(EVENTS)}…`);
    const xAll = await exportOnce(b, 'xlsx', {});
    log(`экспорт STIX ${fmt(small)}…`);
    const sSmall = await exportOnce(b, 'stix', { company_id: A });
    log(`экспорт STIX ${fmt(EVENTS)}…`);
    const sAll = await exportOnce(b, 'stix', {});

    const rC = rate(EVENTS, copyMs);
    const line = (name: string, r: Awaited<ReturnType<typeof exportOnce>>, n: number) =>
      `  ${name.padEnd(12)} ${fmt(n).padStart(10)} строк: ${(r.ms / 1000).toFixed(1).padStart(6)} с → ${fmt(rate(n, r.ms)).padStart(7)} строк/с, файл ${mb(r.e.size ?? 0)}, пик RSS обработчика ${mb(r.peak)} (в простое ${mb(r.before)})${r.e.status === 'done' ? '' : ` — ${r.e.status}: ${r.e.message}`}`;
    process.stdout.write(`
Экспорт «Утечки», ${FIELDS.length} полей; обработчик: NODE_OPTIONS=${b.workerNodeOptions || '(нет)'}
${line('CSV', csvSmall, small)}
${line('CSV', csvAll, EVENTS)}
${line('XLSX', xSmall, small)}
${line('XLSX', xAll, EVENTS)}
${line('STIX 2.1', sSmall, small)}
${line('STIX 2.1', sAll, EVENTS)}
  COPY (SELECT …) TO STDOUT → файл: ${(copyMs / 1000).toFixed(1)} с → ${fmt(rC)} строк/с (${mb(copySize)})
  COPY (SELECT …) TO файл сервером: ${(copyFileMs / 1000).toFixed(1)} с → ${fmt(rate(EVENTS, copyFileMs))} строк/с
  COPY (запрос самой выгрузки) TO STDOUT → файл: ${(ownMs / 1000).toFixed(1)} с → ${fmt(rate(EVENTS, ownMs))} строк/с; выгрузка CSV / он: ${(rate(EVENTS, csvAll.ms) / rate(EVENTS, ownMs)).toFixed(2)}
  CSV / COPY TO STDOUT: ${(rate(EVENTS, csvAll.ms) / rC).toFixed(2)} (цель ≥ 0,5); XLSX / COPY TO STDOUT: ${(rate(EVENTS, xAll.ms) / rC).toFixed(2)}
  RSS ${fmt(small)} → ${fmt(EVENTS)} строк: CSV ${mb(csvSmall.peak)} → ${mb(csvAll.peak)}, XLSX ${mb(xSmall.peak)} → ${mb(xAll.peak)}, STIX ${mb(sSmall.peak)} → ${mb(sAll.peak)} (плоско, если разница мала)
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
