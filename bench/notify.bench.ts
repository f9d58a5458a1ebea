/*
 * What the list pages' NOTIFY costs writers (issue #18; docs/decisions.md «Путь запроса: одна и та же
 * страница списка»): every statement that changes `events` notifies `forpost_events` (migration
 * 0035_events_notify), and PostgreSQL orders the commits of notifying transactions under one lock.
 * CONNECTIONS writers each insert one event per transaction (as the API and a collector write: the
 * table's other triggers run too) as fast as they can for DURATION_MS, with the trigger on and off
 * in turn (RUNS each, alternating), plus the same with BATCH rows per statement (an import's shape)
 * and UPDATEs of BATCH rows (their trigger reads the statement's transition table).
 * Printed: rows/s each way and the ratio on/off. Nothing is asserted.
 *
 *   node --import tsx bench/notify.bench.ts   (CONNECTIONS=8, DURATION_MS=4000, RUNS=3, BATCH=500)
 */
import '@forpost/contract/zod-setup';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatabase } from '../apps/api/src/db/client';
import { startEmbedded } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { seedEventReference } from '../apps/api/src/modules/events/refs/refs';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DURATION_MS = Number(process.env.DURATION_MS ?? 4000);
const RUNS = Number(process.env.RUNS ?? 3);
const BATCH = Number(process.env.BATCH ?? 500);
const quiet = { warn() {}, info() {}, error() {} };

const INSERT = (rows: number) => `
  INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, data, search, created_at, updated_at)
  SELECT $1, 'domains', 'запись во время замера: мошенники', s.id, 'Other', 'Done', md5(random()::text), '{}'::jsonb,
         to_tsvector('russian', 'запись во время замера мошенники'), now(), now()
  FROM event_statuses s, generate_series(1, ${rows}) WHERE s.module = 'domains' AND s.code = 'new'`;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'forpost-bench-notify-'));
  const embedded = await startEmbedded({ dataDir: dir, port: 59000 + Math.floor(Math.random() * 500), log: quiet });
  try {
    await runMigrations(embedded.url);
    const database = createDatabase(embedded.url, quiet, CONNECTIONS + 1);
    const { pool } = database;
    await seedEventReference(database.db);
    const company = (await pool.query(`INSERT INTO companies (name) VALUES ('Замер') RETURNING id`)).rows[0].id as number;
    const trigger = (on: boolean) => pool.query(`ALTER TABLE events ${on ? 'ENABLE' : 'DISABLE'} TRIGGER events_list_notify`);
    // An UPDATE of BATCH events a statement (an import's «обновлять», a bulk action): the trigger's
    // transition table holds the statement's new rows.
    const UPDATE = `UPDATE events SET title = title || '.' WHERE id IN (
      SELECT id FROM events WHERE company_id = $1 ORDER BY random() LIMIT ${BATCH})`;
    const measure = async (rows: number, text = INSERT(rows)) => {
      let n = 0;
      const end = performance.now() + DURATION_MS;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < end) {
            await pool.query(text, [company]);
            n += rows;
          }
        }),
      );
      return n / ((performance.now() - start) / 1000);
    };
    console.log(`${CONNECTIONS} writers, ${DURATION_MS} ms per run, ${RUNS} runs each way, alternating`);
    for (const [label, rows, text] of [
      ['one event per transaction', 1, INSERT(1)],
      [`${BATCH} events per statement`, BATCH, INSERT(BATCH)],
      [`UPDATE ${BATCH} events a statement`, BATCH, UPDATE],
    ] as const) {
      await measure(rows, text); // warm
      const on: number[] = [];
      const off: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        await trigger(false);
        off.push(await measure(rows, text));
        await trigger(true);
        on.push(await measure(rows, text));
      }
      const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
      console.log(
        `  ${label.padEnd(28)} with NOTIFY ${med(on).toFixed(0).padStart(7)} rows/s, without ${med(off).toFixed(0).padStart(7)} rows/s: ` +
          `${(med(on) / med(off)).toFixed(2)}× (runs: ${on.map((x) => x.toFixed(0)).join(', ')} / ${off.map((x) => x.toFixed(0)).join(', ')})`,
      );
    }
    await database.close();
  } finally {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
