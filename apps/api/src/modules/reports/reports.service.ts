/*
 * Reports: created by a user (reports.manage in the company), rendered by a background job into a
 * PDF kept as a document of kind `report`, downloaded, regenerated or sent by email. This file holds
 * the CRUD and the job wiring; the PDF is reports.pdf.ts, sending by email reports.delivery.ts, and
 * what they share reports.context.ts.
 */
import { API_MSG } from '@forpost/contract/errors';
import { formatDate } from '@forpost/contract/format';
import { can, companiesWith } from '@forpost/contract/permissions';
import { type CreateReportRequest, REPORT_MSG, type Report, type ReportAction, type ReportSend } from '@forpost/contract/reports';
import type PgBoss from 'pg-boss';
import type { Caller } from '../../lib/caller';
import { ApiError, notFound } from '../../lib/errors';
import {
  createReportsContext,
  fileName,
  load as loadFrom,
  mayManage,
  RENDER_JOB,
  REPORT_QUEUE,
  REPORT_SEND_QUEUE,
  type ReportsServiceDeps,
  SEND_JOB,
  toReport,
} from './reports.context';
import { reportDelivery } from './reports.delivery';
import { reportPdf } from './reports.pdf';

export { createReportsRepos, REPORT_SEND_QUEUE, type ReportsServiceDeps } from './reports.context';

/** A send still queued this long after its last change has lost its job (longer than any backoff). */
const SEND_SWEEP_AFTER_MS = 5 * 60_000;

export function createReportsService(deps: ReportsServiceDeps) {
  const ctx = createReportsContext(deps);
  const { db, audit, repo, companies, docsRepo, store, now, jobs } = ctx;
  const { gather, render } = reportPdf(ctx);
  const { queueSend, deliver } = reportDelivery(ctx);
  const load = (c: Caller, id: number, perm: 'reports.read' | 'reports.manage') => loadFrom(repo, c, id, perm);
  const enqueue = jobs.render;

  return {
    render,
    gather,
    deliver,

    async list(c: Caller, q: { page: number; page_size: number; company_id?: number; status?: string }) {
      const scope = companiesWith(c.auth.principal, 'reports.read');
      const companyId = q.company_id === undefined || q.company_id === -1 ? undefined : q.company_id;
      if (companyId !== undefined && scope !== 'all' && !scope.includes(companyId)) throw notFound(REPORT_MSG.companyNotFound);
      const r = await repo.list({ scope, companyId, status: q.status, limit: q.page_size, offset: (q.page - 1) * q.page_size });
      return { items: r.items.map((x) => toReport(x, mayManage(c, x))), total: r.total, page: q.page, page_size: q.page_size };
    },

    async get(c: Caller, id: number): Promise<Report> {
      const r = await load(c, id, 'reports.read');
      return toReport(r, mayManage(c, r));
    },

    async create(c: Caller, body: CreateReportRequest): Promise<Report> {
      const p = c.auth.principal;
      if (!can(p, 'reports.read', body.company_id) && !can(p, 'events.read', body.company_id))
        throw notFound(REPORT_MSG.companyNotFound);
      if (!can(p, 'reports.manage', body.company_id)) throw new ApiError(403, API_MSG.forbidden);
      const companyName = (await companies.find(body.company_id))?.name;
      if (!companyName) throw notFound(REPORT_MSG.companyNotFound);
      const km = p.keyModules;
      if (km && !km.includes('*') && (!body.modules.length || body.modules.some((m) => !km.includes(m))))
        throw new ApiError(403, API_MSG.forbidden);
      const modules = [...new Set(body.modules)];
      const name = body.name || `Отчёт: ${companyName}, ${formatDate(body.from)} — ${formatDate(body.to)}`;
      const id = await db.transaction(async (tx) => {
        const id = await repo.insert(
          {
            companyId: body.company_id,
            name,
            from: body.from,
            to: body.to,
            modules,
            summary: body.summary || null,
            createdBy: c.auth.user.id,
          },
          tx,
        );
        await audit.record(
          c.actor,
          {
            action: 'report.create',
            entity: 'report',
            entityId: id,
            companyId: body.company_id,
            after: { name, from: body.from, to: body.to, modules },
          },
          tx,
        );
        return id;
      });
      await enqueue(id);
      const created = await repo.get(id);
      if (!created) throw notFound(REPORT_MSG.notFound);
      return toReport(created, true);
    },

    async remove(c: Caller, id: number): Promise<void> {
      const r = await load(c, id, 'reports.manage');
      await db.transaction(async (tx) => {
        await repo.remove(id, tx);
        if (r.doc_id) await docsRepo.remove(r.doc_id, tx);
        await audit.record(
          c.actor,
          { action: 'report.delete', entity: 'report', entityId: id, companyId: r.company_id, before: { name: r.name } },
          tx,
        );
      });
      // The file goes only once the rows are gone for good.
      if (r.storage_key) await store.delete(r.storage_key).catch(() => undefined);
    },

    async action(c: Caller, id: number, body: ReportAction): Promise<{ report: Report; message: string; send?: ReportSend }> {
      const r = await load(c, id, 'reports.manage');
      if (body.action === 'regenerate') {
        if (r.status === 'rendering' && Date.now() - new Date(r.updated_at).getTime() < 10 * 60_000)
          throw new ApiError(409, REPORT_MSG.busy);
        await db.transaction(async (tx) => {
          await repo.requeue(id, tx);
          await audit.record(
            c.actor,
            { action: 'report.regenerate', entity: 'report', entityId: id, companyId: r.company_id },
            tx,
          );
        });
        await enqueue(id);
        return { report: toReport((await repo.get(id)) ?? r, true), message: 'Отчёт поставлен в очередь на формирование' };
      }
      const send = await queueSend(c, r, body.recipients);
      return { report: toReport((await repo.get(id)) ?? r, true), message: REPORT_MSG.sendQueued, send };
    },

    async download(c: Caller, id: number): Promise<{ stream: NodeJS.ReadableStream; name: string; size: number }> {
      const r = await load(c, id, 'reports.read');
      if (r.status !== 'ready' || !r.storage_key) throw new ApiError(409, REPORT_MSG.notReady);
      try {
        return { stream: await store.get(r.storage_key), name: fileName(r), size: r.size ?? 0 };
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') throw notFound(REPORT_MSG.notFound);
        throw e;
      }
    },

    /** Every role sends jobs; ROLE=all|worker also renders them and sweeps up lost ones. */
    async attach(b: PgBoss, opts: { work: boolean }) {
      jobs.attach(b);
      await b.createQueue(REPORT_QUEUE, { name: REPORT_QUEUE, ...RENDER_JOB });
      await b.createQueue(REPORT_SEND_QUEUE, { name: REPORT_SEND_QUEUE, ...SEND_JOB });
      if (!opts.work) return;
      await b.work<{ id: number }>(REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await render(job.data.id);
      });
      await b.work<{ id: number }>(REPORT_SEND_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (!job) return;
        // Throwing hands the retry (with backoff) to pg-boss; the row is already back in `queued`.
        if ((await deliver(job.data.id)) === 'retry') throw new Error(`report send ${job.data.id}: attempt failed, retrying`);
      });
    },

    /** Reports queued without a job (created before pg-boss was attached, or the job was lost). */
    async sweep(): Promise<number> {
      const ids = await repo.stale(new Date(now().getTime() - 30_000));
      for (const id of ids) await enqueue(id);
      if (!jobs.boss) for (const id of ids) await render(id).catch(() => undefined);
      // Sends: past the longest retry backoff, a queued send has lost its job.
      const sends = await repo.staleSends(new Date(now().getTime() - SEND_SWEEP_AFTER_MS));
      for (const id of sends) await jobs.send(id);
      if (!jobs.boss) for (const id of sends) await deliver(id).catch(() => undefined);
      return ids.length + sends.length;
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
