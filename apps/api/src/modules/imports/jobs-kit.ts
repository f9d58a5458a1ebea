/*
 * Small pieces shared by the import and export jobs: the pg-boss instance the area is attached to
 * (main.ts attaches it; ROLE=api sends jobs but runs no workers), a job that owns its row through a
 * session advisory lock (two workers never run the same import; a crashed worker's lock goes with
 * its connection), and temporary files under DATA_DIR/tmp.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { ApiError } from '../../lib/errors';

export interface Attachable {
  /** Sends jobs through `boss`; with `work`, also runs the area's workers and schedules. */
  attach(boss: PgBoss, opts: { work: boolean }): Promise<void>;
}

export function createBossSlot(unavailable: string) {
  let boss: PgBoss | null = null;
  return {
    set(b: PgBoss) {
      boss = b;
    },
    get(): PgBoss {
      if (!boss) throw new ApiError(503, unavailable);
      return boss;
    },
  };
}

/** pg-boss `send` inside our own transaction: the job exists exactly when the row says "queued". */
export const onClient = (client: pg.PoolClient) => ({
  executeSql: async (text: string, values: unknown[]) => ({ rows: (await client.query(text, values)).rows }),
});

/**
 * Runs `fn` holding a session advisory lock (key pair `kind`, `id`) on a dedicated connection.
 * Returns `undefined` without running when another session holds it.
 */
export async function withJobLock<T>(
  pool: pg.Pool,
  kind: number,
  id: number,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T | undefined> {
  const client = await pool.connect();
  let broken = false;
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [kind, id]);
    if (!rows[0]?.ok) return undefined;
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [kind, id]).catch(() => {
        broken = true;
      });
    }
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('08') || /terminat/i.test(String((e as Error).message))) broken = true;
    throw e;
  } finally {
    client.release(broken);
  }
}

/** Is the advisory lock (`kind`, `id`) held by some session right now? */
export async function isLocked(pool: pg.Pool, kind: number, id: number): Promise<boolean> {
  const { rows } = await pool.query(
    `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2 AND granted LIMIT 1`,
    [kind, id],
  );
  return rows.length > 0;
}

export const LOCK_IMPORT = 0x1f0;
export const LOCK_EXPORT = 0x1f1;

/** A fresh temporary path under DATA_DIR/tmp; remove it with `dropTemp`. */
export async function tempPath(dataDir: string, suffix: string): Promise<string> {
  const dir = path.join(dataDir, 'tmp');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, `${randomBytes(12).toString('hex')}${suffix}`);
}
export const dropTemp = (file: string | undefined) => (file ? rm(file, { force: true }) : Promise.resolve());

/** Errors worth another attempt (deadlock, serialization, lost connection) vs. a real failure. */
export function isTransient(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? '';
  return (
    code === '40P01' ||
    code === '40001' ||
    code.startsWith('08') ||
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', '57P01'].includes(code)
  );
}

/**
 * The queues of a background job over one record (an import, an export) and its maintenance: the job
 * runs `run(id)` with retries; after the last retry the record is marked failed with `failedMessage`;
 * the maintenance queue runs `maintain` on a cron. Workers only where `work` (ROLE=all|worker).
 */
export async function attachRecordJobs(
  b: PgBoss,
  opts: { work: boolean },
  p: {
    queue: string;
    /** The log line and key of a failed run, e.g. 'import job failed' / 'importId'. */
    failure: string;
    idKey: string;
    run: (id: number) => Promise<unknown>;
    fail: (id: number, message: string) => Promise<unknown>;
    failedMessage: string;
    maintenance: {
      queue: string;
      expireInSeconds: number;
      pollingIntervalSeconds: number;
      cron: string;
      run: () => Promise<unknown>;
    };
    log: { warn(obj: unknown, msg?: string): void };
  },
): Promise<void> {
  await b.createQueue(p.queue, { name: p.queue, retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 });
  const m = p.maintenance;
  await b.createQueue(m.queue, { name: m.queue, retryLimit: 0, expireInSeconds: m.expireInSeconds });
  if (!opts.work) return;
  await b.work<{ id: number }>(p.queue, { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true }, async ([job]) => {
    if (!job) return;
    try {
      await p.run(job.data.id);
    } catch (e) {
      p.log.warn(
        { err: { message: (e as Error).message, code: (e as { code?: string }).code }, [p.idKey]: job.data.id },
        p.failure,
      );
      if (job.retryCount >= job.retryLimit) await p.fail(job.data.id, p.failedMessage);
      throw e;
    }
  });
  await b.work(m.queue, { pollingIntervalSeconds: m.pollingIntervalSeconds }, async () => {
    await m.run();
  });
  await b.schedule(m.queue, m.cron);
}
