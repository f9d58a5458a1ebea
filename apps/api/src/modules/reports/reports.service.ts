/*
 * Reports: created by a user (reports.manage in the company), rendered by a background job into a
 * PDF kept as a document of kind `report`, downloaded, regenerated or sent by email.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ANALYTICS_TZ, addDays, daysBetween, zonedInstant } from '@forpost/contract/analytics';
import { API_MSG } from '@forpost/contract/errors';
import { formatDate } from '@forpost/contract/format';
import type { ModuleCode } from '@forpost/contract/modules';
import { can, companiesWith } from '@forpost/contract/permissions';
import {
  type CreateReportRequest,
  REPORT_MODULE_ROWS,
  REPORT_MSG,
  REPORT_SCREENSHOTS,
  REPORT_SEND_ERRORS,
  REPORT_SEND_MAX_ATTEMPTS,
  REPORT_TOP_CRITICAL,
  type Report,
  type ReportAction,
  type ReportSend,
} from '@forpost/contract/reports';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { createLocalDocStore, type DocStore } from '../../lib/docstore';
import { ApiError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { type Mailer, settingsMailer, withinTime } from '../../lib/mailer';
import { OutboundRefusedError } from '../../lib/outbound';
import { iso } from '../../lib/serialize';
import { createAnalyticsRepo } from '../analytics/index';
import { createCompaniesRepo } from '../companies/index';
import type { ConfigsService } from '../configs/index';
import { createDocsRepo, createDocsService } from '../docs/index';
import {
  byPriorityOf,
  daySeriesOf,
  type ModuleTally,
  moduleName,
  moduleShareOf,
  reportModules,
  resolveOf,
  type StatusRef,
  sentimentModuleOf,
  sentimentOf,
  stateOf,
  statusBreakdown,
  tallyModules,
  totalsOf,
} from './reports.figures';
import { type ReportData, renderReportPdf } from './reports.render';
import {
  createReportsRepo,
  type ReportRow,
  type ReportScreenshotRow,
  type ReportSendRow,
  type ReportsRepo,
} from './reports.repo';

const REPORT_QUEUE = 'report-render';
/** A screenshot larger than this is left out of the PDF (the report stays a mailable size). */
const SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;
const MAX_ATTEMPTS = 3;
const RENDER_JOB = { retryLimit: MAX_ATTEMPTS - 1, retryDelay: 10, retryBackoff: true, expireInSeconds: 15 * 60 };
/** Sends by email: a job per send; pg-boss retries a failed attempt after 30–60 s, then 60–120 s. */
export const REPORT_SEND_QUEUE = 'report-send';
const SEND_JOB = {
  retryLimit: REPORT_SEND_MAX_ATTEMPTS - 1,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};
/** One attempt is abandoned after this (the transport's own timeouts usually end it sooner). */
const SEND_TIMEOUT_MS = 90_000;
/** Our own time limit ended the attempt (`sendOutcome` reads the code). */
const timedOut = () => Object.assign(new Error('send timed out'), { code: 'ESENDTIMEOUT' });
/** A send still queued this long after its last change has lost its job (longer than any backoff). */
const SEND_SWEEP_AFTER_MS = 5 * 60_000;

export interface ReportsServiceDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  config: Pick<Config, 'publicUrl' | 'dataDir' | 'mailFrom' | 'smtpUrl' | 'outboundAllowPrivate'>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Where the PDFs go (default: DATA_DIR/files, the same store as every document). */
  store?: DocStore;
  mailer?: Mailer;
  repo?: ReportsRepo;
  now?: () => Date;
  /** One mail attempt is abandoned after this many ms (default SEND_TIMEOUT_MS). */
  sendTimeoutMs?: number;
}

export function createReportsService(deps: ReportsServiceDeps) {
  const { db, audit, configs, config, log } = deps;
  const repo = deps.repo ?? createReportsRepo(db);
  const figures = createAnalyticsRepo(db);
  const companiesRepo = createCompaniesRepo(db);
  const docsRepo = createDocsRepo(db);
  const store = deps.store ?? createLocalDocStore(path.join(config.dataDir, 'files'));
  const docs = createDocsService({ db, store, audit, companies: companiesRepo });
  const now = deps.now ?? (() => new Date());
  let boss: PgBoss | null = null;

  /**
   * `full`: the caller may manage the report's company — only then are the last send's recipients and
   * the SMTP server's reply shown (a viewer sees the state alone).
   */
  function toReport(r: ReportRow, full: boolean): Report {
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

  const toSend = (s: ReportSendRow): ReportSend => ({
    id: s.id,
    status: s.status,
    recipients: s.recipients,
    attempts: s.attempts,
    error: s.error,
    created_at: iso(s.created_at),
    sent_at: iso(s.sent_at),
  });

  const mayManage = (c: Caller, r: Pick<ReportRow, 'company_id'>) => can(c.auth.principal, 'reports.manage', r.company_id);

  async function load(c: Caller, id: number, perm: 'reports.read' | 'reports.manage'): Promise<ReportRow> {
    const r = await repo.get(id);
    if (!r || !can(c.auth.principal, 'reports.read', r.company_id)) throw notFound(REPORT_MSG.notFound);
    if (perm === 'reports.manage' && !can(c.auth.principal, 'reports.manage', r.company_id))
      throw new ApiError(403, API_MSG.forbidden);
    return r;
  }

  async function enqueue(id: number): Promise<void> {
    if (!boss) return; // the worker's sweep picks it up
    try {
      await boss.send(REPORT_QUEUE, { id }, RENDER_JOB);
    } catch (err) {
      log.warn({ err: { message: (err as Error).message }, reportId: id }, 'report job not queued; the sweep will take it');
    }
  }

  /**
   * Everything the PDF shows, gathered once: each figure is read by one query over the period and
   * every page is drawn from this object — the summary, the module table, the charts, the time to
   * resolve and the per-module sections cannot disagree. «Решено / закрыто» is one definition
   * everywhere: the period's events whose status is final (at the moment the report is generated).
   */
  async function gather(r: ReportRow): Promise<ReportData> {
    const modules = reportModules(r.modules);
    const rows = await readFigures(r, modules);
    const ordered = tallyModules(modules, rows.perModule, rows.perStatus, rows.refs.statuses);
    const days = daysBetween(r.period_from, r.period_to);
    const totals = totalsOf(ordered);
    return {
      productName: String(await configs.get('product_name')) || 'Форпост',
      title: r.name,
      companyName: r.company_name,
      from: r.period_from,
      to: r.period_to,
      moduleNames: modules.map(moduleName),
      allModules: r.modules.length === 0,
      generatedAt: now(),
      summary: r.summary,
      ...totals,
      byModule: ordered,
      byState: stateOf(totals),
      byModuleShare: moduleShareOf(ordered),
      days,
      daySeries: daySeriesOf(ordered, days, rows.perDay),
      byPriority: byPriorityOf(rows.perModule),
      sentiment: sentimentOf(rows.sentiment[0]),
      topCritical: rows.topCritical,
      perModule: await moduleSections(r, ordered, rows.refs.statuses),
      resolve: resolveOf(ordered, rows.resolve),
      screenshots: await screenshotsOf(rows.screenshots),
      moduleName,
    };
  }

  /** The report's period as instants (Moscow days, the end exclusive). */
  const periodOf = (r: ReportRow) => ({
    from: zonedInstant(r.period_from, 0, 0, ANALYTICS_TZ),
    to: zonedInstant(addDays(r.period_to, 1), 0, 0, ANALYTICS_TZ),
  });

  /** The rows every block is made of, read at once. */
  async function readFigures(r: ReportRow, modules: ModuleCode[]) {
    const { from, to } = periodOf(r);
    const filter = { from: r.period_from, to: r.period_to, companies: [r.company_id], modules };
    const sentimentModule = sentimentModuleOf(modules);
    const [refs, perModule, perStatus, perDay, sentiment, topCritical, resolve, screenshots] = await Promise.all([
      figures.refs(),
      figures.counts(filter, ['module'] as const),
      figures.statusCounts(filter, ['module', 'status_id'] as const),
      figures.counts(filter, ['day', 'module'] as const),
      sentimentModule ? figures.counts({ ...filter, modules: [sentimentModule] }, [] as const) : Promise.resolve([]),
      repo.topCritical(r.company_id, modules, from, to, REPORT_TOP_CRITICAL),
      repo.timeToResolve(r.company_id, modules, from, to),
      repo.screenshots(r.company_id, modules, from, to, REPORT_SCREENSHOTS, SCREENSHOT_MAX_BYTES),
    ]);
    return { refs, perModule, perStatus, perDay, sentiment, topCritical, resolve, screenshots };
  }

  /** The screenshots' bytes as data URLs; a file that is missing or not really a PNG/JPEG is left out. */
  async function screenshotsOf(rows: ReportScreenshotRow[]): Promise<ReportData['screenshots']> {
    const out: ReportData['screenshots'] = [];
    for (const s of rows) {
      try {
        const bytes = await buffer(await store.get(s.storage_key));
        const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
        if ((!png && !jpeg) || bytes.length > SCREENSHOT_MAX_BYTES) continue;
        out.push({
          id: s.id,
          module: s.module,
          title: s.title,
          pageTitle: s.page_title,
          takenAt: s.taken_at,
          image: `data:image/${png ? 'png' : 'jpeg'};base64,${bytes.toString('base64')}`,
        });
      } catch (err) {
        log.warn({ err: { message: (err as Error).message }, eventId: s.id }, 'report screenshot not readable; left out');
      }
    }
    return out;
  }

  /** A section per module: its events per status and its latest events. */
  async function moduleSections(r: ReportRow, ordered: ModuleTally[], statuses: readonly StatusRef[]) {
    const { from, to } = periodOf(r);
    const out: ReportData['perModule'] = [];
    for (const m of ordered) {
      out.push({
        code: m.code,
        name: m.name,
        total: m.total,
        byStatus: statusBreakdown(m, statuses),
        rows: await repo.topOfModule(r.company_id, m.code, from, to, REPORT_MODULE_ROWS),
      });
    }
    return out;
  }

  // biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters from file names
  const fileName = (r: Pick<ReportRow, 'name'>) => `${r.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').slice(0, 150)}.pdf`;

  /** Renders one report (the job's handler; tests call it directly). Throws to let pg-boss retry. */
  async function render(id: number, opts: { compress?: boolean } = {}): Promise<'ready' | 'skipped' | 'failed'> {
    if (!(await repo.claim(id))) return 'skipped';
    const r = await repo.get(id);
    if (!r) return 'skipped';
    try {
      const pdf = await renderReportPdf(await gather(r), opts);
      const doc = await docs.upload({
        kind: 'report',
        companyId: r.company_id,
        ownerUserId: r.created_by,
        filename: fileName(r),
        mimetype: 'application/pdf',
        stream: Readable.from(pdf),
      });
      if (!(await repo.exists(id))) {
        // Deleted while rendering: drop the file.
        const key = (await docsRepo.find(doc.id))?.storageKey;
        await docsRepo.remove(doc.id);
        if (key) await store.delete(key).catch(() => undefined);
        return 'skipped';
      }
      // The previous document (a regeneration) goes with the same commit; its file once committed.
      const prev = await db.transaction(async (tx) => {
        const prev = await repo.lockDoc(id, tx);
        await repo.ready(id, doc.id, tx);
        if (!prev?.doc_id || prev.doc_id === doc.id) return null;
        await docsRepo.remove(prev.doc_id, tx);
        return prev;
      });
      if (prev?.storage_key) await store.delete(prev.storage_key).catch(() => undefined);
      log.info({ reportId: id, bytes: pdf.length }, 'report rendered');
      return 'ready';
    } catch (err) {
      const final = r.attempts + 1 >= MAX_ATTEMPTS;
      log.warn({ err: { message: (err as Error).message }, reportId: id, attempt: r.attempts + 1 }, 'report rendering failed');
      await repo.failed(id, REPORT_MSG.renderFailed, final);
      if (final) return 'failed';
      throw err;
    }
  }

  const fromSettings = settingsMailer(configs, config, log);
  const mailer = async (): Promise<Mailer> => deps.mailer ?? fromSettings();

  /* --- send by email: queued by the request, mailed by the `report-send` job ------------------ */

  async function enqueueSend(id: number): Promise<void> {
    if (!boss) return; // the worker's sweep picks it up
    try {
      await boss.send(REPORT_SEND_QUEUE, { id }, SEND_JOB);
    } catch (err) {
      log.warn({ err: { message: (err as Error).message }, sendId: id }, 'report send job not queued; the sweep will take it');
    }
  }

  /** Queues a send (the request answers at once; a hanging SMTP server never holds it). */
  async function queueSend(c: Caller, r: ReportRow, recipients: string[]): Promise<ReportSend> {
    if (r.status !== 'ready' || !r.storage_key) throw new ApiError(409, REPORT_MSG.notReady);
    const list = [...new Set(recipients)].sort();
    const q = await db.transaction(async (tx) => {
      // The report row is locked: two identical requests cannot both insert. The same recipients
      // already queued or being sent are not queued twice: that send is answered instead.
      if (!(await repo.lock(r.id, tx))) return null;
      const same = await repo.pendingSend(r.id, list, tx);
      const q = same
        ? { send: same, created: false }
        : { send: await repo.insertSend({ reportId: r.id, recipients: list, createdBy: c.auth.user.id }, tx), created: true };
      if (q.created) {
        await audit.record(
          c.actor,
          {
            action: 'report.send',
            entity: 'report',
            entityId: r.id,
            companyId: r.company_id,
            meta: { recipients: list, send_id: q.send.id },
          },
          tx,
        );
      }
      return q;
    });
    if (!q) throw notFound(REPORT_MSG.notFound);
    if (q.created) await enqueueSend(q.send.id);
    return toSend(q.send);
  }

  /**
   * What a failed attempt means: a Russian reason (the SMTP server's own reply, if any, in
   * parentheses) and whether another attempt is safe. It is safe only when nothing can have been
   * accepted: the server could not be reached or never greeted (nodemailer: `ETIMEDOUT` «Greeting
   * never received» / «Connection timeout», `EDNS`, `ESOCKET` from connecting or the TLS handshake,
   * `ECONNECTION` with the server's refusal), refused the login (`EAUTH`, `ETLS`, `EPROTOCOL`), or
   * answered with a 4xx/5xx reply (the message was refused, not accepted). Anything else after the
   * session started — the socket going silent (`ETIMEDOUT` «Timeout»: a server scanning the message
   * before its reply looks exactly so), the connection breaking without a reply, our own time limit
   * once the message was handed to the transport — is ambiguous: the server may have taken the
   * message, so the send ends failed without a retry (a retry would mail the report twice).
   */
  function sendOutcome(e: unknown, handedOver: boolean): { reason: string; retry: boolean } {
    const err = e as { code?: string; responseCode?: number; response?: string; message?: string; syscall?: string };
    const reply = (err.response ?? '')
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 200);
    const withReply = (reason: string) => (reply ? `${reason} (${reply})` : reason);
    const message = err.message ?? '';
    const replied = (err.responseCode ?? 0) >= 400;
    if (err.code === 'ESENDTIMEOUT')
      return handedOver
        ? { reason: REPORT_SEND_ERRORS.unconfirmed, retry: false }
        : { reason: REPORT_SEND_ERRORS.timeout, retry: true };
    if (err.code === 'ETIMEDOUT')
      return /^(Greeting never received|Connection timeout)/.test(message)
        ? { reason: REPORT_SEND_ERRORS.timeout, retry: true }
        : { reason: REPORT_SEND_ERRORS.unconfirmed, retry: false };
    if (err.code === 'ESOCKET')
      // A socket error while reading or writing an open session (a reset, a broken pipe) may come after the message.
      return err.syscall === 'read' || err.syscall === 'write'
        ? { reason: REPORT_SEND_ERRORS.interrupted, retry: false }
        : { reason: REPORT_SEND_ERRORS.unreachable, retry: true };
    if (err.code === 'ECONNECTION' && !replied && /^Connection closed unexpectedly/.test(message))
      return { reason: REPORT_SEND_ERRORS.interrupted, retry: false };
    if (err.code === 'EAUTH') return { reason: withReply(REPORT_SEND_ERRORS.auth), retry: true };
    if (err.code === 'EENVELOPE') return { reason: withReply(REPORT_SEND_ERRORS.recipients), retry: true };
    if (err.code === 'EMESSAGE' || replied) return { reason: withReply(REPORT_SEND_ERRORS.rejected), retry: true };
    if (err.code === 'ECONNECTION' || err.code === 'EDNS') return { reason: REPORT_SEND_ERRORS.unreachable, retry: true };
    if (err.code === 'ENOENT') return { reason: REPORT_SEND_ERRORS.noFile, retry: true };
    // The SSRF guard refused the server's address (lib/outbound.ts): nothing was sent.
    if (e instanceof OutboundRefusedError) return { reason: e.message, retry: true };
    // No nodemailer code: an error of our own or of composing the message, before anything went out.
    return { reason: REPORT_SEND_ERRORS.other, retry: true };
  }

  /**
   * One attempt of one send (the job's handler; tests call it directly). `retry` = failed where
   * nothing can have been delivered, queued again for the next attempt (the job then throws so
   * pg-boss retries it with backoff); `failed` = the last attempt failed, or the outcome is unknown (a
   * possibly delivered message is never sent again); `skipped` = already sent/failed/taken by another
   * worker, or the report is gone. The whole attempt — reading the PDF, the settings, the mail — is
   * under one time limit.
   */
  async function deliver(sendId: number): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
    const s = await repo.claimSend(sendId, REPORT_SEND_MAX_ATTEMPTS, REPORT_SEND_ERRORS.stalled);
    if (s === 'failed') return 'failed';
    if (!s) return 'skipped';
    const final = s.attempts >= REPORT_SEND_MAX_ATTEMPTS;
    /** Set once the message went to the transport: from then on an abandoned attempt may still deliver it. */
    let handedOver = false;
    let abandoned = false;
    let reportId: number | null = null;
    const attempt = (async () => {
      const r = await repo.get(s.report_id);
      if (!r) return 'gone' as const; // deleted: the row went with it
      reportId = r.id;
      if (!r.storage_key) return 'notReady' as const;
      const pdf = await buffer(await store.get(r.storage_key));
      const product = String(await configs.get('product_name')) || 'Форпост';
      const period = `${formatDate(r.period_from)} — ${formatDate(r.period_to)}`;
      const subject = `[${product}] Отчёт: ${r.company_name}, ${period}`.replace(/[\r\n]+/g, ' ');
      const text = [
        `Во вложении отчёт «${r.name}».`,
        `Компания: ${r.company_name}`,
        `Период: ${period}`,
        '',
        `Все отчёты: ${config.publicUrl}/reports`,
        '',
        `— ${product}`,
      ].join('\n');
      const m = await mailer();
      // Timed out while preparing: this attempt must not mail anything any more.
      if (abandoned) throw timedOut();
      handedOver = true;
      const info = await m.send({
        to: s.recipients,
        subject,
        text,
        attachments: [{ filename: fileName(r), content: pdf, contentType: 'application/pdf' }],
      });
      return { r, info };
    })();
    try {
      const done = await withinTime(attempt, deps.sendTimeoutMs ?? SEND_TIMEOUT_MS, () => {
        abandoned = true;
        return timedOut();
      });
      if (done === 'gone') return 'skipped';
      if (done === 'notReady') {
        await repo.sendFailed(s.id, REPORT_MSG.notReady, true);
        return 'failed';
      }
      const { r, info } = done;
      // Accepted for some recipients only: sent, with the refused addresses noted.
      const refused = info.rejected ?? [];
      const note = refused.length ? `${REPORT_SEND_ERRORS.partlyRefused}: ${refused.join(', ')}` : null;
      await db.transaction(async (tx) => {
        await repo.sendSent(s.id, info.messageId, note, tx);
        await repo.markSent(r.id, tx);
      });
      log.info({ reportId: r.id, sendId: s.id }, 'report mailed');
      return 'sent';
    } catch (e) {
      const { reason, retry } = sendOutcome(e, handedOver);
      const last = final || !retry;
      log.warn(
        {
          err: { message: (e as Error).message, code: (e as { code?: string }).code },
          reportId,
          sendId: s.id,
          attempt: s.attempts,
          retry: !last,
        },
        'report mail failed',
      );
      await repo.sendFailed(s.id, reason, last);
      return last ? 'failed' : 'retry';
    }
  }

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
      const companyName = (await companiesRepo.find(body.company_id))?.name;
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
      boss = b;
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
      if (!boss) for (const id of ids) await render(id).catch(() => undefined);
      // Sends: past the longest retry backoff, a queued send has lost its job.
      const sends = await repo.staleSends(new Date(now().getTime() - SEND_SWEEP_AFTER_MS));
      for (const id of sends) await enqueueSend(id);
      if (!boss) for (const id of sends) await deliver(id).catch(() => undefined);
      return ids.length + sends.length;
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
