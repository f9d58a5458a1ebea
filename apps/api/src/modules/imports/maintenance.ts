/*
 * The imports' background side: the job queue and its maintenance (every minute: imports whose worker
 * died are taken over, abandoned uploads and stray temporary files dropped), and the takeover sweep
 * every worker runs every SWEEP_SECONDS.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_MSG } from '@forpost/contract/imports';
import type PgBoss from 'pg-boss';
import { attachRecordJobs, LOCK_IMPORT, takeOverStalled } from '../../db/jobs-kit';
import { IMPORT_QUEUE, IMPORTS_MAINTENANCE, type ImportsContext, JOB_OPTIONS } from './context';

const DAY_MS = 86_400_000;

/** Uploads never started are dropped after a week (file, doc and all); stray temporary files after a day. Returns the uploads dropped. */
export async function dropAbandoned(ctx: ImportsContext): Promise<number> {
  let dropped = 0;
  for (const r of await ctx.repo.abandoned(500)) {
    if (!(await ctx.deps.db.transaction((tx) => ctx.repo.dropUploaded(r.id, r.docId, tx)))) continue;
    dropped++;
    if (r.storageKey) await ctx.deps.store.delete(r.storageKey).catch(() => undefined);
  }
  const dir = path.join(ctx.deps.dataDir, 'tmp');
  for (const n of await readdir(dir).catch(() => [] as string[])) {
    const f = path.join(dir, n);
    const st = await stat(f).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > DAY_MS) await rm(f, { force: true });
  }
  return dropped;
}

/**
 * Re-queues imports whose worker died (no heartbeat for STALL_SECONDS, nobody holds the lock): the
 * takeover job resumes after the last committed batch.
 */
export function requeueStale(ctx: ImportsContext, b: PgBoss = ctx.boss.get()): Promise<number> {
  return takeOverStalled(ctx.deps.pool, b, {
    table: 'imports',
    lock: LOCK_IMPORT,
    queue: IMPORT_QUEUE,
    sendOptions: JOB_OPTIONS,
  });
}

/** Sends import jobs through `b`; with `work`, also runs them (`run`) and the maintenance. */
export async function attach(
  ctx: ImportsContext,
  b: PgBoss,
  opts: { work: boolean },
  run: (id: number) => Promise<unknown>,
): Promise<void> {
  ctx.boss.set(b);
  await attachRecordJobs(b, opts, {
    queue: IMPORT_QUEUE,
    failure: 'import job failed',
    idKey: 'importId',
    run,
    fail: (id, message) => ctx.repo.fail(id, message),
    failedMessage: IMPORT_MSG.failed,
    maintenance: {
      queue: IMPORTS_MAINTENANCE,
      expireInSeconds: 300,
      pollingIntervalSeconds: 5,
      cron: '* * * * *',
      run: async () => {
        await requeueStale(ctx, b);
        await dropAbandoned(ctx);
      },
    },
    sweep: (sb) => requeueStale(ctx, sb),
    log: ctx.deps.log,
  });
}
