/*
 * Sending a report by email: the request queues a send (`queueSend`), the `report-send` job mails
 * the PDF (`deliver`) through the shared delivery path (lib/delivery.ts: time limit, error sorting).
 */
import { buffer } from 'node:stream/consumers';
import { formatDate } from '@forpost/contract/format';
import { REPORT_MSG, REPORT_SEND_ERRORS, REPORT_SEND_MAX_ATTEMPTS, type ReportSend } from '@forpost/contract/reports';
import type { Caller } from '../../lib/caller';
import { MailAttemptError, sendOutcome } from '../../lib/delivery';
import { ApiError, notFound } from '../../lib/errors';
import { errInfo } from '../../lib/logger';
import { fileName, type ReportsContext, toSend } from './reports.context';
import type { ReportRow } from './reports.repo';

export function reportDelivery(ctx: ReportsContext) {
  const { db, audit, configs, config, log, repo, store, delivery, jobs } = ctx;

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
    if (q.created) await jobs.send(q.send.id);
    return toSend(q.send);
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
    let reportId: number | null = null;
    try {
      const done = await delivery.attempt(async () => {
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
        const attachments = [{ filename: fileName(r), content: pdf, contentType: 'application/pdf' }];
        return { message: { to: s.recipients, subject, text, attachments }, keep: r };
      });
      if (done === 'gone') return 'skipped';
      if (done === 'notReady') {
        await repo.sendFailed(s.id, REPORT_MSG.notReady, true);
        return 'failed';
      }
      const { keep: r, sent: info } = done;
      // Accepted for some recipients only: sent, with the refused addresses noted.
      const refused = info.rejected ?? [];
      const note = refused.length ? `${REPORT_SEND_ERRORS.partlyRefused}: ${refused.join(', ')}` : null;
      await db.transaction(async (tx) => {
        await repo.sendSent(s.id, info.messageId, note, tx);
        await repo.markSent(r.id, tx);
      });
      log.info({ reportId: r.id, sendId: s.id }, 'report mailed');
      return 'sent';
    } catch (x) {
      const e = x instanceof MailAttemptError ? x.reason : x;
      const { reason, retry } = sendOutcome(e, x instanceof MailAttemptError && x.handedOver);
      const last = final || !retry;
      log.warn(
        {
          err: errInfo(e),
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

  return { queueSend, deliver };
}
