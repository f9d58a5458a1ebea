/*
 * The job machinery shared by imports, exports and bulk actions (and the CT monitor's pass lock): the
 * pg-boss instance an area is attached to
 * (main.ts attaches it; ROLE=api sends jobs but runs no workers), a job that owns its row through a
 * session advisory lock (two workers never run the same import; a crashed worker's lock goes with
 * its connection), the takeover of a job whose worker died, and temporary files under DATA_DIR/tmp.
 *
 * Takeover: every worker process sweeps every SWEEP_SECONDS for records that should be running but
 * whose job lock nobody holds and whose heartbeat is older than TAKEOVER_SECONDS, and queues one
 * takeover job for each (the job resumes the record: imports after their last committed batch,
 * exports anew). pg-boss alone would not notice: a killed worker's job stays `active` until it
 * expires (hours), and the cron maintenance runs once a minute at best.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { ApiError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { errInfo } from '../lib/logger';

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

/**
 * Runs `fn` in a transaction on a pool client of its own (BEGIN … COMMIT; ROLLBACK and rethrow on
 * error): for work that needs the raw client — row locks, COPY, a pg-boss send on the same client.
 */
export async function inClientTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
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
  // A checked-out client has no error listener of the pool: a connection lost between two queries
  // (the server restarted, the session was terminated) would be an uncaught 'error' and take the whole
  // worker process down. The job's next query fails instead, and the client is discarded.
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
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
    client.removeListener('error', lost);
    client.release(broken);
  }
}

/**
 * Runs `fn` holding the cluster-wide session advisory lock `key` (one bigint key) on a connection of its
 * own, released after it. Returns `undefined` without running when another session holds it.
 */
export async function withSessionLock<T>(pool: pg.Pool, key: number, fn: () => Promise<T>): Promise<T | undefined> {
  const conn = await pool.connect();
  try {
    const { rows } = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key]);
    if (!rows[0]?.ok) return undefined;
    try {
      return await fn();
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    conn.release();
  }
}

/**
 * SQL: is the job lock (`kind`, the row id `idSql`) held by a live session? pg_locks lists the locks
 * of every database of the server: only this database's count.
 */
function lockHeldSql(kind: number, idSql: string): string {
  return `EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = ${Number(kind)}::oid AND l.objid = (${idSql})::int::oid AND l.objsubid = 2 AND l.granted)`;
}

/** Is the advisory lock (`kind`, `id`) held by some session right now? */
async function isLocked(pool: pg.Pool | pg.PoolClient, kind: number, id: number): Promise<boolean> {
  const { rows } = await pool.query(`SELECT ${lockHeldSql(kind, '$1')} AS held`, [id]);
  return rows[0]?.held === true;
}

/** A running record whose worker has not been heard of for this long (and holds no lock) has stalled. */
const STALL_SECONDS = 10;
/**
 * ... and is taken over after this long: a dead worker's record resumes within TAKEOVER_SECONDS +
 * SWEEP_SECONDS + a queue poll (~21 s) of its last heartbeat. Later than the stall is shown, so the
 * console always gets to say so.
 */
const TAKEOVER_SECONDS = 15;
/** How often every worker process looks for stalled records. */
export const SWEEP_SECONDS = 5;
/** Tables of records run by a job (with `status`, `heartbeat_at`, `updated_at`). */
export type JobTable = 'imports' | 'exports' | 'event_bulk_jobs' | 'hunt_ranges';
/** pg-boss's schema (startJobs keeps the default). */
const BOSS_SCHEMA = 'pgboss';

/**
 * SQL of a stalled record of `table` (a row with `status`, `heartbeat_at`, `updated_at`): running, no
 * heartbeat for STALL_SECONDS and nobody holds its job lock — its worker died. (A queued record is
 * waiting for a free worker, which is not a stall; a lost queued job is still taken over by the sweep.)
 */
export function stalledSql(table: JobTable, kind: number): string {
  return `(${table}.status = 'running'
    AND coalesce(${table}.heartbeat_at, ${table}.updated_at) < now() - make_interval(secs => ${STALL_SECONDS})
    AND NOT ${lockHeldSql(kind, `${table}.id`)})`;
}

export interface TakeoverSpec {
  table: JobTable;
  lock: number;
  queue: string;
  sendOptions: PgBoss.SendOptions;
}

/**
 * Queues a takeover job for every record of `table` whose worker died: queued or running, no heartbeat
 * for TAKEOVER_SECONDS, nobody holds its job lock, and no job of it is waiting in the queue (for a
 * queued record: any; for a running one: an earlier takeover — the first one is sent even when the
 * record's original job waits for a retry). One takeover per stall even with many sweepers: the check
 * and the send happen in one transaction holding the record's row lock. Returns how many it queued.
 */
export async function takeOverStalled(pool: pg.Pool, boss: PgBoss, t: TakeoverSpec): Promise<number> {
  const stale = `status IN ('queued', 'running') AND coalesce(heartbeat_at, updated_at) < now() - make_interval(secs => ${TAKEOVER_SECONDS})`;
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM ${t.table} WHERE ${stale} AND NOT ${lockHeldSql(t.lock, `${t.table}.id`)} ORDER BY id LIMIT 100`,
  );
  let n = 0;
  for (const { id } of rows) {
    const sent = await inClientTransaction(pool, async (client) => {
      const r = await client.query<{ status: string }>(
        `SELECT status FROM ${t.table} WHERE id = $1 AND ${stale} FOR UPDATE SKIP LOCKED`,
        [id],
      );
      const status = r.rows[0]?.status;
      let send = status !== undefined && !(await isLocked(client, t.lock, id));
      if (send) {
        const waiting = await client.query(
          `SELECT 1 FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state < 'active' AND data->>'id' = $2::text
              AND ($3 OR data->>'takeover' = 'true') LIMIT 1`,
          [t.queue, id, status === 'queued'],
        );
        send = waiting.rowCount === 0;
      }
      if (send) await boss.send(t.queue, { id, takeover: true }, { ...t.sendOptions, db: onClient(client) });
      return send;
    });
    if (sent) n++;
  }
  return n;
}

export const LOCK_IMPORT = 0x1f0;
export const LOCK_EXPORT = 0x1f1;
export const LOCK_BULK = 0x1f2;

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
    /** The takeover sweep (every SWEEP_SECONDS while `b` runs). */
    sweep?: (b: PgBoss) => Promise<unknown>;
    log: Pick<Logger, 'warn'>;
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
      p.log.warn({ err: errInfo(e), [p.idKey]: job.data.id }, p.failure);
      if (job.retryCount >= job.retryLimit) await p.fail(job.data.id, p.failedMessage);
      throw e;
    }
  });
  await b.work(m.queue, { pollingIntervalSeconds: m.pollingIntervalSeconds }, async () => {
    await m.run();
  });
  await b.schedule(m.queue, m.cron);
  const sweep = p.sweep;
  if (sweep) {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      sweep(b)
        .catch((e) => p.log.warn({ err: errInfo(e) }, `${p.queue} takeover sweep failed`))
        .finally(() => {
          busy = false;
        });
    }, SWEEP_SECONDS * 1000);
    timer.unref();
    b.once('stopped', () => clearInterval(timer));
  }
}
