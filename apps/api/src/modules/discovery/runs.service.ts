/*
 * Discovery runs as the API offers them: start one for a company (queued as a pg-boss job; one
 * unfinished run per company), stop one, list and read them within the principal's companies (another
 * company's run is a 404).
 */
import { DISCOVERY_MSG, type DiscoveryRun, emptyRunIssues, type RunListQuery } from '@forpost/contract/discovery';
import { can, companiesWith } from '@forpost/contract/permissions';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import type { CompaniesRepo } from '../companies/index';
import type { AssetsRepo } from './assets.repo';
import type { RunRow, RunsRepo } from './runs.repo';

export const toRun = (r: RunRow): DiscoveryRun => ({
  id: r.id,
  company_id: r.companyId,
  company_name: r.companyName,
  trigger: r.trigger,
  status: r.status,
  created_at: iso(r.createdAt),
  started_at: iso(r.startedAt),
  finished_at: iso(r.finishedAt),
  cancel_requested_at: iso(r.cancelRequestedAt),
  candidates: r.candidates,
  resolved: r.resolved,
  registered: r.registered,
  new_events: r.newEvents,
  errors: r.errors,
  error: r.error,
  issues: r.issues ?? emptyRunIssues(),
  created_by: r.createdBy !== null && r.createdByName !== null ? { id: r.createdBy, name: r.createdByName } : null,
});

export function createRunsService(deps: {
  companies: CompaniesRepo;
  db: Db;
  audit: Audit;
  runs: RunsRepo;
  assets: AssetsRepo;
  /** Queues the run's job (after the run's row is committed). */
  enqueue: (runId: number) => Promise<void>;
}) {
  const { db, audit, runs, assets } = deps;
  const companies = deps.companies;

  return {
    async start({ auth: { principal: p }, actor }: Caller, companyId: number): Promise<DiscoveryRun> {
      if (!can(p, 'discovery.read', companyId) || !(await companies.exists(companyId)))
        throw notFound(DISCOVERY_MSG.companyNotFound);
      if (!can(p, 'discovery.manage', companyId)) throw forbidden();
      if (!(await assets.enabled(companyId)).some((a) => a.kind === 'domain'))
        throw badRequest(DISCOVERY_MSG.noDomains, { company_id: DISCOVERY_MSG.noDomains });
      const id = await db.transaction(async (tx) => {
        const id = await runs.insert({ companyId, trigger: 'manual', createdBy: actor.userId ?? null }, tx);
        if (id === null) return null;
        await audit.record(actor, { action: 'discovery_run.start', entity: 'discovery_run', entityId: id, companyId }, tx);
        return id;
      });
      if (id === null) throw conflict(DISCOVERY_MSG.alreadyRunning);
      await deps.enqueue(id);
      const r = await runs.find(id);
      if (!r) throw notFound(DISCOVERY_MSG.runNotFound);
      return toRun(r);
    },

    async list({ auth: { principal: p } }: Caller, q: RunListQuery) {
      const scope = companiesWith(p, 'discovery.read');
      const companyId = q.company_id !== undefined && q.company_id !== -1 ? q.company_id : undefined;
      if (companyId !== undefined && !can(p, 'discovery.read', companyId)) throw notFound(DISCOVERY_MSG.companyNotFound);
      const { rows, total } = await runs.list(scope, { page: q.page, page_size: q.page_size, companyId });
      return { items: rows.map(toRun), total, page: q.page, page_size: q.page_size };
    },

    /**
     * Stops a run: a queued one is cancelled before it starts, a running one is told to stop (its worker
     * ends it as «cancelled» within seconds, keeping what it found). 409 once it has ended.
     */
    async cancel({ auth: { principal: p }, actor }: Caller, id: number): Promise<DiscoveryRun> {
      const found = await runs.find(id);
      if (!found || !can(p, 'discovery.read', found.companyId)) throw notFound(DISCOVERY_MSG.runNotFound);
      if (!can(p, 'discovery.manage', found.companyId)) throw forbidden();
      const companyId = found.companyId;
      const r = await db.transaction(async (tx) => {
        const asked = await runs.requestCancel(id, tx);
        if (!asked) return null;
        await audit.record(
          actor,
          {
            action: 'discovery_run.cancel',
            entity: 'discovery_run',
            entityId: id,
            companyId,
            before: { status: found.status },
            after: { status: asked.status, cancel_requested: true },
          },
          tx,
        );
        return runs.find(id, tx);
      });
      if (!r) throw conflict(DISCOVERY_MSG.alreadyFinished);
      return toRun(r);
    },

    async get({ auth: { principal: p } }: Caller, id: number): Promise<DiscoveryRun> {
      const r = await runs.find(id);
      if (!r || !can(p, 'discovery.read', r.companyId)) throw notFound(DISCOVERY_MSG.runNotFound);
      return toRun(r);
    },
  };
}
export type RunsService = ReturnType<typeof createRunsService>;
