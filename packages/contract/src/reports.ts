/*
 * Reports: a PDF about one company's events over a period (summary figures, charts, top critical
 * events, per-module tables, time to resolve), rendered by a background job and kept as a document of
 * kind `report`.
 */
import { z } from 'zod';
import { ANALYTICS_MSG, daySchema, daysBetween, isDay, MAX_PERIOD_DAYS } from './analytics';
import { bodyId, companyQuery } from './common';
import { hasControlChars, isRecipientEmail } from './mailings';
import { MSG } from './messages';
import { MODULE_CODES } from './modules/types';

export const REPORT_STATUSES = ['queued', 'rendering', 'ready', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  queued: 'В очереди',
  rendering: 'Формируется',
  ready: 'Готов',
  failed: 'Ошибка',
};
export const REPORT_STATUS_COLORS: Record<ReportStatus, string> = {
  queued: 'default',
  rendering: 'processing',
  ready: 'success',
  failed: 'error',
};

/** Top critical events listed in a report; per-module tables list at most this many rows each. */
export const REPORT_TOP_CRITICAL = 20;
export const REPORT_MODULE_ROWS = 15;
/** Screenshots (domain snapshots) of the report's most important events shown at most. */
export const REPORT_SCREENSHOTS = 4;
/** The analyst's summary, characters at most. */
export const REPORT_SUMMARY_MAX = 4000;

export const REPORT_MSG = {
  notFound: 'Отчёт не найден',
  notReady: 'Отчёт ещё не готов',
  companyNotFound: 'Компания не найдена',
  sendQueued: 'Отчёт поставлен в очередь на отправку',
  busy: 'Отчёт уже формируется',
  renderFailed: 'Не удалось сформировать отчёт',
} as const;

export const createReportRequest = z
  .object({
    company_id: bodyId(MSG.required),
    from: daySchema,
    to: daySchema,
    /** Empty = every module. */
    modules: z
      .array(z.enum(MODULE_CODES, { error: 'Неизвестный модуль' }))
      .max(MODULE_CODES.length)
      .default([]),
    name: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .refine((s) => !hasControlChars(s), { error: 'Название не может содержать управляющие символы' })
      .optional(),
    /** «Резюме аналитика»: free text on the report's first page (line breaks kept). */
    summary: z
      .string()
      .trim()
      .max(REPORT_SUMMARY_MAX, { error: MSG.tooLong(REPORT_SUMMARY_MAX) })
      .refine((s) => !hasControlChars(s.replace(/[\n\r\t]/g, ' ')), { error: 'Резюме не может содержать управляющие символы' })
      .optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (!isDay(q.from) || !isDay(q.to)) return;
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: ANALYTICS_MSG.order });
    else if (daysBetween(q.from, q.to).length > MAX_PERIOD_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: ANALYTICS_MSG.tooLong });
  });
export type CreateReportRequest = z.infer<typeof createReportRequest>;

/*
 * «Send by email»: the request only queues a send (a `report_sends` row); a background job mails the
 * PDF, retrying with backoff, and the row keeps the outcome: queued → sending → sent | failed.
 */
export const REPORT_SEND_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type ReportSendStatus = (typeof REPORT_SEND_STATUSES)[number];
export const REPORT_SEND_STATUS_LABELS: Record<ReportSendStatus, string> = {
  queued: 'В очереди',
  sending: 'Отправляется',
  sent: 'Отправлен',
  failed: 'Ошибка отправки',
};
/** Attempts of one send (the first and two retries with backoff) before it ends as failed. */
export const REPORT_SEND_MAX_ATTEMPTS = 3;
/** Russian reasons a send failed with (kept in `error`; the SMTP server's own reply is appended). */
export const REPORT_SEND_ERRORS = {
  timeout: 'SMTP-сервер не ответил вовремя',
  unreachable: 'SMTP-сервер недоступен',
  auth: 'SMTP-сервер отклонил авторизацию',
  recipients: 'SMTP-сервер отклонил получателей',
  rejected: 'SMTP-сервер отклонил письмо',
  noFile: 'Файл отчёта недоступен',
  partlyRefused: 'Сервер не принял адреса',
  other: 'Не удалось отправить письмо',
  /*
   * The outcome is unknown (the message may have been accepted): such a send is not retried
   * automatically — a second copy would reach the recipients.
   */
  unconfirmed:
    'Сервер не подтвердил приём письма вовремя — письмо могло быть доставлено. Проверьте почту получателей; при необходимости отправьте отчёт ещё раз.',
  interrupted:
    'Соединение с SMTP-сервером прервалось до подтверждения приёма письма — письмо могло быть доставлено. Проверьте почту получателей; при необходимости отправьте отчёт ещё раз.',
  stalled:
    'Отправка прервалась до подтверждения приёма письма — письмо могло быть доставлено. Проверьте почту получателей; при необходимости отправьте отчёт ещё раз.',
} as const;

/** Addresses one send may go to. */
export const REPORT_MAX_RECIPIENTS = 50;

/** Recipients of a report: the spec's messages (empty → «Обязательное поле», bad address → «Неверный формат email»). */
export const reportRecipientsSchema = z
  .array(z.string({ error: MSG.email }).trim().toLowerCase(), { error: MSG.required })
  .min(1, { error: MSG.required })
  .max(REPORT_MAX_RECIPIENTS, { error: `Не более ${REPORT_MAX_RECIPIENTS} получателей` })
  .superRefine((list, ctx) => {
    list.forEach((e, i) => {
      if (!isRecipientEmail(e)) ctx.addIssue({ code: 'custom', path: [i], message: MSG.email });
    });
  });

export const reportActionRequest = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('regenerate') }).strict(),
    z.object({ action: z.literal('send'), recipients: reportRecipientsSchema }).strict(),
  ],
  { error: 'Неизвестное действие' },
);
export type ReportAction = z.infer<typeof reportActionRequest>;

export const reportSendResponse = z.object({
  id: z.number().int(),
  status: z.enum(REPORT_SEND_STATUSES),
  /** The addresses; null for a caller who may not manage the report's company (a viewer). */
  recipients: z.array(z.string()).nullable(),
  attempts: z.number().int(),
  /**
   * Why the last attempt failed (Russian, with the SMTP server's reply); on a sent row, the addresses
   * the server refused; else null. Always null for a caller who may not manage the report's company.
   */
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type ReportSend = z.infer<typeof reportSendResponse>;

export const reportResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  from: z.string(),
  to: z.string(),
  modules: z.array(z.string()),
  /** «Резюме аналитика» (page 1 of the PDF), null without one. */
  summary: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  error: z.string().nullable(),
  size: z.number().int().nullable(),
  doc_id: z.number().int().nullable(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  generated_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  /** The latest «send by email» of this report and its state, null when it was never sent. */
  last_send: reportSendResponse.nullable(),
  /** Where to download the PDF (when ready). */
  download_url: z.string().nullable(),
});
export type Report = z.infer<typeof reportResponse>;

export const reportListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(20),
    company_id: companyQuery,
    status: z.enum(REPORT_STATUSES).optional(),
  })
  .strict();
export const reportListResponse = z.object({
  items: z.array(reportResponse),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
/** `send` answers at once (the mail goes out in the background): `send` is the queued row. */
export const reportActionResponse = z.object({
  report: reportResponse,
  message: z.string(),
  send: reportSendResponse.optional(),
});
