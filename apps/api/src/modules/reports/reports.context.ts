/*
 * What every part of the reports area works over: its dependencies, repositories, the file store,
 * the job queues and the views of a report. The parts — CRUD (reports.service.ts), the PDF
 * (reports.pdf.ts) and sending by email (reports.delivery.ts) — are named operations over it.
 */
import path from 'node:path';
import { API_MSG } from '@forpost/contract/errors';
import { can } from '@forpost/contract/permissions';
import { REPORT_MSG, REPORT_SEND_MAX_ATTEMPTS, type Report, type ReportSend } from '@forpost/contract/reports';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { createDelivery } from '../../lib/delivery';
import { createLocalDocStore, type DocStore } from '../../lib/docstore';
import { ApiError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import { iso } from '../../lib/serialize';
import { type AnalyticsRepo, createAnalyticsRepo } from '../analytics/index';
import { type CompaniesRepo, createCompaniesRepo } from '../companies/index';
import type { ConfigsService } from '../configs/index';
import { createDocsRepo, createDocsService } from '../docs/index';
import { createReportsRepo, type ReportRow, type ReportSendRow, type ReportsRepo } from './reports.repo';

export const REPORT_QUEUE = 'report-render';
export const MAX_ATTEMPTS = 3;
export const RENDER_JOB = { retryLimit: MAX_ATTEMPTS - 1, retryDelay: 10, retryBackoff: true, expireInSeconds: 15 * 60 };
/** Sends by email: a job per send; pg-boss retries a failed attempt after 30–60 s, then 60–120 s. */
export const REPORT_SEND_QUEUE = 'report-send';
export const SEND_JOB = {
  retryLimit: REPORT_SEND_MAX_ATTEMPTS - 1,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};
/** One attempt is abandoned after this (the transport's own timeouts usually end it sooner). */
const SEND_TIMEOUT_MS = 90_000;

export interface ReportsServiceDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  config: Pick<Config, 'publicUrl' | 'dataDir' | 'mailFrom' | 'smtpUrl' | 'outboundAllowPrivate'>;
  log: Pick<Logger, 'warn' | 'info'>;
  repo: ReportsRepo;
  companies: CompaniesRepo;
  figures: AnalyticsRepo;
  docsRepo: ReturnType<typeof createDocsRepo>;
  /** Where the PDFs go (default: DATA_DIR/files, the same store as every document). */
  store?: DocStore;
  mailer?: Mailer;
  now?: () => Date;
  /** One mail attempt is abandoned after this many ms (default SEND_TIMEOUT_MS). */
  sendTimeoutMs?: number;
}

/** The repositories the reports area works with, built by the composition root (app.ts) and tests. */
export function createReportsRepos(db: Db) {
  return {
    repo: createReportsRepo(db),
    companies: createCompaniesRepo(db),
    figures: createAnalyticsRepo(db),
    docsRepo: createDocsRepo(db),
  };
}

export function createReportsContext(deps: ReportsServiceDeps) {
  const { db, audit, config, log } = deps;
  const store = deps.store ?? createLocalDocStore(path.join(config.dataDir, 'files'));
  let boss: PgBoss | null = null;

  /** Queues a job; without pg-boss (or when it refuses) the worker's sweep picks the row up. */
  async function queue(name: string, id: number, options: object, what: Record<string, number>): Promise<void> {
    if (!boss) return;
    try {
      await boss.send(name, { id }, options);
    } catch (err) {
      log.warn({ err: errInfo(err), ...what }, `${name} job not queued; the sweep will take it`);
    }
  }

  return {
    ...deps,
    store,
    docs: createDocsService({ db, store, audit, companies: deps.companies }),
    now: deps.now ?? (() => new Date()),
    delivery: createDelivery({ ...deps, timeoutMs: deps.sendTimeoutMs ?? SEND_TIMEOUT_MS }),
    jobs: {
      get boss() {
        return boss;
      },
      attach(b: PgBoss) {
        boss = b;
      },
      render: (id: number) => queue(REPORT_QUEUE, id, RENDER_JOB, { reportId: id }),
      send: (id: number) => queue(REPORT_SEND_QUEUE, id, SEND_JOB, { sendId: id }),
    },
  };
}
export type ReportsContext = ReturnType<typeof createReportsContext>;

/**
 * `full`: the caller may manage the report's company — only then are the last send's recipients and
 * the SMTP server's reply shown (a viewer sees the state alone).
 */
export function toReport(r: ReportRow, full: boolean): Report {
  return {
    id: r.id,
    name: r.name,
    company_id: r.company_id,
    company_name: r.company_name,
    from: r.period_from,
    to: r.period_to,
    modules: r.modules,
    summary: r.summary,
    status: r.status,
    error: r.error,
    size: r.status === 'ready' ? r.size : null,
    doc_id: r.doc_id,
    created_by: r.created_by !== null && r.created_by_name !== null ? { id: r.created_by, name: r.created_by_name } : null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    generated_at: iso(r.generated_at),
    last_sent_at: iso(r.last_sent_at),
    last_send:
      r.send_id !== null && r.send_status !== null
        ? {
            id: r.send_id,
            status: r.send_status,
            recipients: full ? (r.send_recipients ?? []) : null,
            attempts: r.send_attempts ?? 0,
            error: full ? r.send_error : null,
            created_at: iso(r.send_created_at ?? r.created_at),
            sent_at: iso(r.send_sent_at),
          }
        : null,
    download_url: r.status === 'ready' && r.doc_id ? `/api/v1/tools/reports/${r.id}/download` : null,
  };
}

export const toSend = (s: ReportSendRow): ReportSend => ({
  id: s.id,
  status: s.status,
  recipients: s.recipients,
  attempts: s.attempts,
  error: s.error,
  created_at: iso(s.created_at),
  sent_at: iso(s.sent_at),
});

export const mayManage = (c: Caller, r: Pick<ReportRow, 'company_id'>) => can(c.auth.principal, 'reports.manage', r.company_id);

export async function load(
  repo: ReportsRepo,
  c: Caller,
  id: number,
  perm: 'reports.read' | 'reports.manage',
): Promise<ReportRow> {
  const r = await repo.get(id);
  if (!r || !can(c.auth.principal, 'reports.read', r.company_id)) throw notFound(REPORT_MSG.notFound);
  if (perm === 'reports.manage' && !can(c.auth.principal, 'reports.manage', r.company_id))
    throw new ApiError(403, API_MSG.forbidden);
  return r;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters from file names
export const fileName = (r: Pick<ReportRow, 'name'>) => `${r.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').slice(0, 150)}.pdf`;
