import { REPORT_SEND_MAX_ATTEMPTS, REPORT_SEND_STATUS_LABELS, type ReportSend } from '@forpost/contract/reports';
import { formatDateTime } from '../../lib/format';

export interface SendState {
  /** «Отправлен 05.03.2026 14:30», «Ошибка отправки: …», «В очереди». */
  text: string;
  color: 'success' | 'error' | 'processing' | 'default' | 'warning';
  /** Recipients and, for a retry or a partial refusal, the reason (only what the caller may see; may be empty). */
  detail: string;
}

/** How the console shows the latest «send by email» of a report. */
export function sendState(s: ReportSend): SendState {
  // A viewer gets neither the recipients nor the server's reply (both null).
  const to = s.recipients ? `Получатели: ${s.recipients.join(', ')}` : '';
  const join = (...parts: string[]) => parts.filter(Boolean).join('. ');
  switch (s.status) {
    case 'sent':
      return {
        text: `${REPORT_SEND_STATUS_LABELS.sent} ${s.sent_at ? formatDateTime(s.sent_at) : ''}`.trim(),
        color: s.error ? 'warning' : 'success',
        detail: join(to, s.error ?? ''),
      };
    case 'failed':
      return {
        text: s.error ? `${REPORT_SEND_STATUS_LABELS.failed}: ${s.error}` : REPORT_SEND_STATUS_LABELS.failed,
        color: 'error',
        detail: to,
      };
    case 'sending':
      return { text: REPORT_SEND_STATUS_LABELS.sending, color: 'processing', detail: to };
    default:
      return {
        text: REPORT_SEND_STATUS_LABELS.queued,
        color: s.attempts > 0 ? 'warning' : 'default',
        detail:
          s.attempts > 0
            ? join(
                to,
                `Попытка ${s.attempts} из ${REPORT_SEND_MAX_ATTEMPTS} не удалась${s.error ? `: ${s.error}` : ''}`,
                'Повтор — автоматически',
              )
            : to,
      };
  }
}

/** A send still waiting or going out (the list is polled until it settles). */
export const sendPending = (s: ReportSend | null) => s !== null && (s.status === 'queued' || s.status === 'sending');
