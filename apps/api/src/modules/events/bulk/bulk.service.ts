/*
 * Bulk operations on «все N, подходящие под фильтр» of a module's list: a triage change, an action or
 * a deletion of every event the list's filter selects (list-filter.ts — the list's own query).
 *
 * Up to BULK_INLINE_MAX events: at once, in one transaction, all or nothing. More: a job (pg-boss,
 * the import/export machinery of db/jobs-kit.ts — its job lock, retries and the takeover of a
 * job whose worker died) that works in chunks of BULK_CHUNK ids in id order. Each chunk is one
 * transaction with the job's progress (`processed`, `cursor`), so a job taken over resumes after its
 * last chunk; events created after the start (id above `max_id`) are left alone. The chunks run the
 * batch changes of the collection endpoints (events.service batchPatch/batchDelete, the action runner):
 * every event gets its history and audit entries as there. The job keeps the author's rights at the
 * start (as an import keeps its scope) and records `event.bulk_start` / `event.bulk_done`.
 */
import {
  BULK_CHUNK,
  BULK_INLINE_MAX,
  BULK_MSG,
  type BulkJob,
  type BulkOp,
  type BulkRequest,
} from '@forpost/contract/events-bulk';
import { EVENT_MSG, getModule, isModuleCode, type ModuleDescriptor } from '@forpost/contract/modules';
import { companiesWith, type Permission } from '@forpost/contract/permissions';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { clientDb, type Db } from '../../../db/client';
import {
  attachRecordJobs,
  createBossSlot,
  inClientTransaction,
  LOCK_BULK,
  onClient,
  takeOverStalled,
  withJobLock,
} from '../../../db/jobs-kit';
import type { Audit } from '../../../lib/audit';
import type { Caller } from '../../../lib/caller';
import { ApiError, notFound } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import { createUsersRepo } from '../../auth/index';
import type { EventsRepo } from '../events.repo';
import { type ListFilter, type ListFilterQuery, listFilter, listWhere } from '../list/list-filter';
import type { Undo } from '../undo/undo.service';
import type { CardVault } from '../write/event-data';
import type { EventsService } from '../write/events.service';
import type { ActionRunner } from './bulk.actions';
import { type BulkJobRow, type BulkRepo, createBulkRepo } from './bulk.repo';

const BULK_QUEUE = 'event-bulk-run';
const BULK_MAINTENANCE = 'event-bulk-maintenance';
const MAX_ATTEMPTS = 5;
const JOB_OPTIONS = { retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 };

export interface BulkDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  log: Pick<Logger, 'warn'>;
}

/** The event engine's parts a bulk operation runs on (given by registerEventEngine). */
export interface BulkEngine {
  events: EventsService;
  repo: Pick<EventsRepo, 'resolveQuery'>;
  vault: CardVault;
  actions: ActionRunner;
  undo: Undo;
}

export interface BulkRunOptions {
  /** Called after each committed chunk (a throw stops the run like a crash). */
  onChunk?: (processed: number) => void | Promise<void>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toBulkJob(r: BulkJobRow): BulkJob {
  return {
    id: r.id,
    module: r.module,
    op: r.op.op,
    patch: r.op.op === 'patch' ? r.op.patch : null,
    action: r.op.op === 'action' ? r.op.action : null,
    status: r.status,
    total: r.total,
    processed: r.processed,
    message: r.message,
    created_at: r.createdAt.toISOString(),
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    stalled: r.stalled === true,
    undo_token: r.status === 'done' ? r.undoId : null,
  };
}

/** The permission an operation needs on every event it touches. */
const permOf = (op: BulkOp): Permission => (op.op === 'delete' ? 'events.delete' : 'events.write');

export function createBulkJobs(deps: BulkDeps) {
  const { db, pool, audit } = deps;
  const repo: BulkRepo = createBulkRepo(db);
  const usersRepo = createUsersRepo(db);
  const boss = createBossSlot(BULK_MSG.queueUnavailable);
  let engine: BulkEngine | undefined;
  const parts = (): BulkEngine => {
    if (!engine) throw new Error('bulk operations are not mounted (call mount from the event engine)');
    return engine;
  };

  const filterOf = (c: Caller, m: ModuleDescriptor, filters: ListFilterQuery, perm: Permission = 'events.read') =>
    listFilter(c, m, filters, { vault: parts().vault, resolveQuery: parts().repo.resolveQuery }, perm);

  /** One chunk's change, through the collection's batch operations (all or nothing within `tx`). */
  async function apply(c: Caller, m: ModuleDescriptor, op: BulkOp, ids: number[], tx: Db, undoId: string | null): Promise<void> {
    const { events, actions, undo } = parts();
    if (op.op === 'patch') {
      const r = await events.batchPatch(c, m, ids, op.patch, tx);
      if (undoId) await undo.add(undoId, r.history, tx);
    } else if (op.op === 'action') await actions.many(c, m, ids, op, tx);
    else await events.batchDelete(c, m, ids, tx);
  }

  /**
   * The next chunk of a job inside `tx`: its events changed and its progress written. False when no
   * event is left.
   */
  async function chunk(
    c: Caller,
    m: ModuleDescriptor,
    job: { id: number; op: BulkOp; maxId: number; cursor: number; processed: number; undoId: string | null },
    where: ReturnType<typeof listWhere>,
    tx: Db,
  ): Promise<boolean> {
    const ids = await repo.nextIds(where, job.cursor, job.maxId, BULK_CHUNK, tx);
    if (!ids.length) return false;
    // Progress first: the deletion's files go when its savepoint is released, the commit follows it.
    job.cursor = ids[ids.length - 1] as number;
    job.processed += ids.length;
    await repo.update(job.id, { cursor: job.cursor, processed: job.processed, heartbeatAt: new Date() }, tx);
    await apply(c, m, job.op, ids, tx, job.undoId);
    return true;
  }

  /** The company an operation's audit entries belong to: the caller's only one, if so. */
  const companyOf = (c: Caller, perm: Permission) => {
    const all = companiesWith(c.auth.principal, perm);
    return all !== 'all' && all.length === 1 ? (all[0] as number) : null;
  };

  async function finish(c: Caller, m: ModuleDescriptor, id: number, op: BulkOp, tx: Db): Promise<void> {
    const undoId = (await repo.find(id, tx))?.undoId ?? null;
    // «Отменить» opens once the whole change is done (null: it changed nothing).
    const undo = undoId ? await parts().undo.open(undoId, null, tx) : null;
    await repo.update(id, { status: 'done', message: null, finishedAt: new Date(), undoId: undo }, tx);
    const r = await repo.find(id, tx);
    await audit.record(
      c.actor,
      {
        action: 'event.bulk_done',
        entity: 'event_bulk_job',
        entityId: id,
        companyId: companyOf(c, permOf(op)),
        meta: { module: m.code, op: op.op, total: r?.total, processed: r?.processed },
      },
      tx,
    );
  }

  async function get(c: Caller, m: ModuleDescriptor, id: number): Promise<BulkJob> {
    const r = await repo.findOwn(id, m.code, c.auth.user.id, c.auth.keyId);
    if (!r) throw notFound(BULK_MSG.notFound);
    return toBulkJob(r);
  }

  /** Are the companies where the caller has `perm` the ones they may read? */
  const sameScope = (c: Caller, perm: Permission) =>
    JSON.stringify(companiesWith(c.auth.principal, 'events.read')) === JSON.stringify(companiesWith(c.auth.principal, perm));

  /** The job's author as they were at the start: their rights then, their account now. */
  async function authorOf(r: BulkJobRow): Promise<Caller> {
    const user = r.authorId === null ? undefined : await usersRepo.find(r.authorId);
    if (!user?.isActive) throw new ApiError(403, BULK_MSG.authorGone);
    return {
      auth: { user, sessionId: null, keyId: r.authorKeyId, principal: r.principal },
      actor: { userId: user.id, keyId: r.authorKeyId },
    };
  }

  /**
   * The job: its chunks, one transaction each, until none is left. Safe to call again after a crash
   * (it resumes after the last committed chunk) and concurrently (a second run finds the lock held).
   */
  async function run(id: number, opts: BulkRunOptions = {}): Promise<void> {
    await withJobLock(pool, LOCK_BULK, id, async () => {
      const r = await repo.find(id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return;
      if (r.attempts >= MAX_ATTEMPTS) return repo.fail(id, BULK_MSG.crashed);
      if (!isModuleCode(r.module)) return repo.fail(id, EVENT_MSG.moduleNotFound);
      await repo.update(id, {
        status: 'running',
        attempts: r.attempts + 1,
        startedAt: r.startedAt ?? new Date(),
        heartbeatAt: new Date(),
      });
      const m = getModule(r.module);
      try {
        const c = await authorOf(r);
        const f = await filterOf(c, m, r.filters);
        const job = { id, op: r.op, maxId: r.maxId, cursor: r.cursor, processed: r.processed, undoId: r.undoId };
        if (f) {
          const where = listWhere(f);
          for (;;) {
            const more = await db.transaction(async (tx) => {
              if ((await repo.statusForUpdate(id, tx)) !== 'running') return false;
              return chunk(c, m, job, where, tx);
            });
            if (!more) break;
            await opts.onChunk?.(job.processed);
          }
        }
        await db.transaction(async (tx) => {
          if ((await repo.statusForUpdate(id, tx)) === 'running') await finish(c, m, id, r.op, tx);
        });
      } catch (e) {
        // A refusal (rights, a reference gone) will not go away on a retry.
        if (e instanceof ApiError) return repo.fail(id, e.message);
        throw e;
      }
    });
  }

  async function requeueStale(b: PgBoss = boss.get()): Promise<number> {
    return takeOverStalled(pool, b, { table: 'event_bulk_jobs', lock: LOCK_BULK, queue: BULK_QUEUE, sendOptions: JOB_OPTIONS });
  }

  return {
    run,
    requeueStale,

    /** The engine's parts (registerEventEngine, once the events service exists). */
    mount(e: BulkEngine) {
      engine = e;
    },

    async attach(b: PgBoss, opts: { work: boolean }) {
      boss.set(b);
      await attachRecordJobs(b, opts, {
        queue: BULK_QUEUE,
        failure: 'bulk event job failed',
        idKey: 'bulkJobId',
        run,
        fail: (id, message) => repo.fail(id, message),
        failedMessage: BULK_MSG.failed,
        maintenance: {
          queue: BULK_MAINTENANCE,
          expireInSeconds: 300,
          pollingIntervalSeconds: 10,
          cron: '* * * * *',
          run: async () => {
            await requeueStale(b);
            await repo.dropOld();
            await engine?.undo.repo.dropOld();
          },
        },
        sweep: requeueStale,
        log: deps.log,
      });
    },

    /**
     * Starts `op` on every event the list's `filters` select for the caller. At most BULK_INLINE_MAX
     * events: done at once (`status: 'done'`); more: queued as a job (`status: 'queued'`). Refused
     * whole (403) when the caller may read some of those events but not change them.
     */
    async start(c: Caller, m: ModuleDescriptor, filters: ListFilterQuery, req: BulkRequest | { op: 'delete' }) {
      const op: BulkOp = req;
      const perm = permOf(op);
      const f = await filterOf(c, m, filters);
      const where = f ? listWhere(f) : undefined;
      const { total, maxId } = where ? await repo.countAndMax(where) : { total: 0, maxId: 0 };
      if (total > 0 && !sameScope(c, perm)) {
        const g: ListFilter | null = await filterOf(c, m, filters, perm);
        const allowed = g ? (await repo.countAndMax(listWhere(g))).total : 0;
        if (allowed < total) throw new ApiError(403, EVENT_MSG.batchForbidden);
      }
      if (op.op === 'patch') await parts().events.validateRefs(m, op.patch, {});
      if (op.op === 'patch' && typeof op.patch.assignee_id === 'number' && where)
        await parts().events.assignment.assigneeForAll(c, op.patch.assignee_id, m, where);
      const row = {
        module: m.code,
        op,
        filters,
        principal: c.auth.principal,
        total,
        maxId,
        authorId: c.auth.user.id,
        authorKeyId: c.auth.keyId,
      };
      const started = {
        action: 'event.bulk_start' as const,
        entity: 'event_bulk_job',
        companyId: companyOf(c, perm),
        meta: { module: m.code, op, filters, total },
      };

      const undoOf = (tx: Db) => (op.op === 'patch' ? parts().undo.create(c, m, companyOf(c, perm), tx) : null);
      if (total <= BULK_INLINE_MAX) {
        const id = await db.transaction(async (tx) => {
          const undoId = await undoOf(tx);
          const id = await repo.insert({ ...row, undoId, status: 'running', startedAt: new Date(), heartbeatAt: new Date() }, tx);
          await audit.record(c.actor, { ...started, entityId: id }, tx);
          const job = { id, op, maxId, cursor: 0, processed: 0, undoId };
          if (where) while (await chunk(c, m, job, where, tx));
          await finish(c, m, id, op, tx);
          return id;
        });
        return { inline: true, job: await get(c, m, id) };
      }

      const b = boss.get();
      const id = await inClientTransaction(pool, async (client) => {
        const tx = clientDb(client);
        const id = await repo.insert({ ...row, undoId: await undoOf(tx) }, tx);
        await b.send(BULK_QUEUE, { id }, { ...JOB_OPTIONS, db: onClient(client) });
        await audit.record(c.actor, { ...started, entityId: id }, tx);
        return id;
      });
      return { inline: false, job: await get(c, m, id) };
    },

    /** A job of the module started by the caller (the same user, through the same key or signed in). */
    get,
  };
}
export type BulkJobs = ReturnType<typeof createBulkJobs>;
