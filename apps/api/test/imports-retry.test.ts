/*
 * The import job after a crash: no worker runs here, the test calls the job handler itself,
 * "kills" it after some batches, runs it again and checks that nothing is duplicated.
 */

import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportItem, ImportUploadResponse } from '@forpost/contract/imports';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { attachJobs, upload } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let company: number;
const BASE = '/modules/domains/events/imports';

const csvOf = (n: number, prefix: string) =>
  `Домен;Регистратор\n${Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}.ru;R${i + 1}`).join('\n')}\n`;

async function queued(csv: string, mode: 'update' | 'skip' = 'update') {
  const up = await upload(ctx, admin, BASE, { name: 'big.csv', content: csv });
  expect(up.statusCode, up.body).toBe(201);
  const u = up.json() as ImportUploadResponse;
  const st = await admin.post(`${BASE}/${u.id}/start`, { mapping: u.preview.mapping, mode, company_id: company });
  expect(st.statusCode, st.body).toBe(202);
  return u.id;
}
const item = async (id: number) => (await admin.get(`${BASE}/${id}`)).json() as ImportItem;
const eventCount = async (prefix: string) =>
  Number(
    (
      await ctx.database.pool.query(`SELECT count(*) AS n FROM events WHERE module = 'domains' AND data->>'domain' LIKE $1`, [
        `${prefix}-%`,
      ])
    ).rows[0].n,
  );
const jobs = () => ctx.app.services.transfer.imports;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  company = (await createCompany(ctx, 'Альфа')).id;
  await attachJobs(ctx, false); // jobs are queued, but only this test runs them
});

describe('crash and retry', () => {
  it('a worker killed after two batches resumes after the last committed row: counts right, no duplicates', async () => {
    const id = await queued(csvOf(35, 'crash'));
    await expect(
      jobs().run(id, {
        batchSize: 10,
        writers: 1,
        onBatch: (n) => {
          if (n === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect(await item(id)).toMatchObject({ status: 'running', rows_total: 35, rows_read: 20, created: 20 });
    expect(await eventCount('crash')).toBe(20);

    await jobs().run(id, { batchSize: 10 });
    expect(await item(id)).toMatchObject({
      status: 'done',
      rows_total: 35,
      rows_read: 35,
      created: 35,
      updated: 0,
      skipped: 0,
      failed: 0,
    });
    expect(await eventCount('crash')).toBe(35);

    // Another run of a finished import does nothing.
    await jobs().run(id, { batchSize: 10 });
    expect(await item(id)).toMatchObject({ status: 'done', created: 35 });
    expect(await eventCount('crash')).toBe(35);
  });

  it('batches committed out of file order: the cursor waits for the gap; killed, the run resumes over the committed spans', async () => {
    // An event the first batch updates, row-locked here: the first batch waits while later ones commit.
    await jobs().run(await queued(csvOf(5, 'gap').replace(/^gap-[1-4]\.ru;R[1-4]\n/gm, '')));
    expect(await eventCount('gap')).toBe(1);
    const locker = await ctx.database.pool.connect();
    await locker.query('BEGIN');
    await locker.query(`SELECT id FROM events WHERE module = 'domains' AND data->>'domain' = 'gap-5.ru' FOR UPDATE`);
    const id = await queued(csvOf(40, 'gap'));
    let killed!: () => void;
    const kill = new Promise<void>((r) => {
      killed = r;
    });
    const run = jobs().run(id, {
      batchSize: 10,
      writers: 3,
      onBatch: (n) => {
        if (n === 1) {
          killed();
          throw new Error('killed');
        }
      },
    });
    run.catch(() => undefined);
    await kill;
    // The first batch, still waiting for the lock, dies with its connection (as in a kill -9).
    const { rows } = await ctx.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    expect(rows.length).toBe(1);
    await expect(run).rejects.toThrow('killed');
    await locker.query('ROLLBACK');
    locker.release();

    const mid = await item(id);
    const spans = (await ctx.database.pool.query('SELECT from_row, to_row FROM import_spans WHERE import_id = $1', [id])).rows;
    const cursor = (await ctx.database.pool.query('SELECT cursor FROM imports WHERE id = $1', [id])).rows[0].cursor;
    expect(cursor).toBe(0); // the first batch never committed
    expect(spans.length).toBeGreaterThanOrEqual(1);
    expect(mid.rows_read).toBe(spans.reduce((n, s) => n + s.to_row - s.from_row, 0));
    expect(await eventCount('gap')).toBe(1 + mid.created);

    await jobs().run(id, { batchSize: 10, writers: 3 });
    expect(await item(id)).toMatchObject({ status: 'done', rows_read: 40, created: 39, skipped: 1, updated: 0, failed: 0 });
    expect(await eventCount('gap')).toBe(40);
    expect(
      (await ctx.database.pool.query('SELECT count(*)::int AS n FROM import_spans WHERE import_id = $1', [id])).rows[0].n,
    ).toBe(0);
    // The cursor is the last row's line number (the header is line 1).
    expect((await ctx.database.pool.query('SELECT cursor FROM imports WHERE id = $1', [id])).rows[0].cursor).toBe(41);
  });

  it('rows of one key in two batches keep file order under parallel writers: the later row wins', async () => {
    // wins-3.ru exists and is row-locked here: the first batch waits for it. Row 1 of that batch
    // creates wins-1.ru; row 15, in the second batch, changes it.
    await jobs().run(await queued('Домен;Регистратор\nwins-3.ru;R3\n'));
    const locker = await ctx.database.pool.connect();
    await locker.query('BEGIN');
    await locker.query(`SELECT id FROM events WHERE module = 'domains' AND data->>'domain' = 'wins-3.ru' FOR UPDATE`);
    const rows = Array.from({ length: 20 }, (_, i) => (i === 14 ? 'wins-1.ru;ПОСЛЕДНИЙ' : `wins-${i + 1}.ru;R${i + 1}`));
    const id = await queued(`Домен;Регистратор\n${rows.join('\n')}\n`);
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await locker.query('ROLLBACK');
      locker.release();
    };
    // Released when a batch commits (a second batch overtaking the first would be it) or, if none can, soon.
    const fallback = setTimeout(() => void release(), 500);
    await jobs().run(id, { batchSize: 10, writers: 3, onBatch: () => release() });
    clearTimeout(fallback);
    await release();
    expect(await item(id)).toMatchObject({ status: 'done', rows_read: 20, created: 18, updated: 1, skipped: 1 });
    const { rows: ev } = await ctx.database.pool.query(
      `SELECT data->>'registrar' AS registrar FROM events WHERE module = 'domains' AND data->>'domain' = 'wins-1.ru'`,
    );
    expect(ev).toEqual([{ registrar: 'ПОСЛЕДНИЙ' }]);
  });

  it('the leaks catalogue in parallel batches: its links to the import do not deadlock the batches', async () => {
    // Each batch inserts catalogue links referencing the import (a key-share lock on its row) before
    // it takes the import's row; a FOR UPDATE there deadlocked two such batches.
    const CAT = '/modules/leaks/imports';
    const csv = `Название;Количество записей\n${Array.from({ length: 60 }, (_, i) => `Параллельная ${i + 1};${i + 1}`).join('\n')}\n`;
    const up = await upload(ctx, admin, CAT, { name: 'cat.csv', content: csv });
    expect(up.statusCode, up.body).toBe(201);
    const u = up.json() as ImportUploadResponse;
    expect((await admin.post(`${CAT}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update' })).statusCode).toBe(202);
    await jobs().run(u.id, { batchSize: 5, writers: 4 });
    expect((await admin.get(`${CAT}/${u.id}`)).json()).toMatchObject({ status: 'done', created: 60, rows_read: 60, failed: 0 });
    const n = await ctx.database.pool.query(`SELECT count(*)::int AS n FROM import_leaks WHERE import_id = $1`, [u.id]);
    expect(n.rows[0].n).toBe(60);
  });

  it('two workers on the same import: one runs it, the other steps aside', async () => {
    const id = await queued(csvOf(50, 'twin'));
    await Promise.all([jobs().run(id, { batchSize: 7 }), jobs().run(id, { batchSize: 7 }), jobs().run(id, { batchSize: 7 })]);
    expect(await item(id)).toMatchObject({ status: 'done', created: 50, rows_read: 50 });
    expect(await eventCount('twin')).toBe(50);
  });

  it('re-queues an import whose worker stopped sending heartbeats, unless a worker still holds it', async () => {
    const id = await queued(csvOf(5, 'stale'));
    await ctx.database.pool.query(
      `UPDATE imports SET status = 'running', heartbeat_at = now() - interval '10 minutes' WHERE id = $1`,
      [id],
    );
    const before = Number(
      (await ctx.database.pool.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'imports-run'`)).rows[0].n,
    );
    expect(await jobs().requeueStale()).toBeGreaterThanOrEqual(1);
    const after = Number(
      (await ctx.database.pool.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'imports-run'`)).rows[0].n,
    );
    expect(after).toBeGreaterThan(before);
    await jobs().run(id);
    expect(await item(id)).toMatchObject({ status: 'done', created: 5 });
  });

  it('a file broken in the middle fails before any row is written', async () => {
    const csv = `${csvOf(25, 'broken')}"unclosed;x\nmore.ru;y\n`;
    const id = await queued(csv);
    await jobs().run(id, { batchSize: 10 });
    const r = await item(id);
    expect(r).toMatchObject({ status: 'failed', created: 0, rows_read: 0 });
    expect(r.message).toMatch(/^Ошибка в структуре CSV в строке 27: не закрыта кавычка/);
    expect(await eventCount('broken')).toBe(0);
  });

  it('deleting an import while it runs stops it and removes what it wrote', async () => {
    const id = await queued(csvOf(40, 'undo'));
    let deletion: Promise<{ statusCode: number }> | undefined;
    await jobs().run(id, {
      batchSize: 10,
      onBatch: async (n) => {
        if (n !== 2) return;
        // The deletion stops the import first, then waits for its job to end before undoing it.
        deletion = admin.del(`${BASE}/${id}`);
        await expect.poll(async () => (await item(id)).status).toBe('failed');
      },
    });
    expect((await deletion)?.statusCode).toBe(204);
    expect((await item(id)).status).toBe('undone');
    expect(await eventCount('undo')).toBe(0);
  });

  it('drops uploads never started after a week, and stray temporary files', async () => {
    const up = await upload(ctx, admin, BASE, { name: 'forgotten.csv', content: csvOf(2, 'forgotten') });
    const u = up.json() as ImportUploadResponse;
    await ctx.database.pool.query(`UPDATE imports SET created_at = now() - interval '8 days' WHERE id = $1`, [u.id]);
    const tmp = path.join(ctx.config.dataDir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const stray = path.join(tmp, 'left-by-a-crash.upload');
    writeFileSync(stray, 'x');
    utimesSync(stray, new Date(Date.now() - 2 * 86_400_000), new Date(Date.now() - 2 * 86_400_000));
    expect(await jobs().dropAbandoned()).toBe(1);
    expect((await admin.get(`${BASE}/${u.id}`)).statusCode).toBe(404);
    expect((await ctx.database.pool.query('SELECT 1 FROM docs WHERE id = $1', [u.doc_id])).rowCount).toBe(0);
    expect(existsSync(stray)).toBe(false);
  });

  it('gives up after too many runs and says so', async () => {
    const id = await queued(csvOf(3, 'loop'));
    await ctx.database.pool.query('UPDATE imports SET attempts = 5 WHERE id = $1', [id]);
    await jobs().run(id);
    expect(await item(id)).toMatchObject({ status: 'failed', message: 'Импорт прерван: превышено число попыток', created: 0 });
  });
});
