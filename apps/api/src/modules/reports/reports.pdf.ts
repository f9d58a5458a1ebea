/*
 * A report's PDF: the figures gathered once over the period (`gather`) and the render job's handler
 * (`render`) that draws them and keeps the PDF as a document of kind `report`.
 */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ANALYTICS_TZ, addDays, daysBetween, zonedInstant } from '@forpost/contract/analytics';
import type { ModuleCode } from '@forpost/contract/modules';
import { REPORT_MODULE_ROWS, REPORT_MSG, REPORT_SCREENSHOTS, REPORT_TOP_CRITICAL } from '@forpost/contract/reports';
import { takedownFiguresOf } from '@forpost/contract/takedown';
import { errInfo } from '../../lib/logger';
import { fileName, MAX_ATTEMPTS, type ReportsContext } from './reports.context';
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
import type { ReportRow, ReportScreenshotRow } from './reports.repo';

/** A screenshot larger than this is left out of the PDF (the report stays a mailable size). */
const SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;

export function reportPdf(ctx: ReportsContext) {
  const { db, configs, log, repo, figures, docsRepo, store, docs, now } = ctx;

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
      takedown: rows.takedowns.length ? takedownFiguresOf(rows.takedowns) : null,
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
    const [refs, perModule, perStatus, perDay, sentiment, topCritical, resolve, screenshots, takedowns] = await Promise.all([
      figures.refs(),
      figures.counts(filter, ['module'] as const),
      figures.statusCounts(filter, ['module', 'status_id'] as const),
      figures.counts(filter, ['day', 'module'] as const),
      sentimentModule ? figures.counts({ ...filter, modules: [sentimentModule] }, [] as const) : Promise.resolve([]),
      repo.topCritical(r.company_id, modules, from, to, REPORT_TOP_CRITICAL),
      repo.timeToResolve(r.company_id, modules, from, to),
      repo.screenshots(r.company_id, modules, from, to, REPORT_SCREENSHOTS, SCREENSHOT_MAX_BYTES),
      repo.takedowns(r.company_id, from, to),
    ]);
    return { refs, perModule, perStatus, perDay, sentiment, topCritical, resolve, screenshots, takedowns };
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
        log.warn({ err: errInfo(err), eventId: s.id }, 'report screenshot not readable; left out');
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
      log.warn({ err: errInfo(err), reportId: id, attempt: r.attempts + 1 }, 'report rendering failed');
      await repo.failed(id, REPORT_MSG.renderFailed, final);
      if (final) return 'failed';
      throw err;
    }
  }

  return { gather, render };
}
