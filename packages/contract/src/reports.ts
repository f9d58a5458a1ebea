/*
 * Reports: a PDF about one company's events over a period (summary figures, charts, top critical
 * events, per-module tables, time to resolve), rendered by a background job and kept as a document of
 * kind `report`.
 */
import { z } from 'zod';
import { ANALYTICS_MSG, daySchema, daysBetween, isDay, MAX_PERIOD_DAYS } from './analytics';
import { hasControlChars, recipientsSchema } from './mailings';
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

export const REPORT_MSG = {
  notFound: 'Отчёт не найден',
  notReady: 'Отчёт ещё не готов',
  companyNotFound: 'Компания не найдена',
  sent: 'Отчёт отправлен',
  busy: 'Отчёт уже формируется',
  renderFailed: 'Не удалось сформировать отчёт',
} as const;

export const createReportRequest = z
  .object({
    company_id: z.number({ error: MSG.required }).int().positive(),
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
  })
  .strict()
  .superRefine((q, ctx) => {
    if (!isDay(q.from) || !isDay(q.to)) return;
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: ANALYTICS_MSG.order });
    else if (daysBetween(q.from, q.to).length > MAX_PERIOD_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: ANALYTICS_MSG.tooLong });
  });
export type CreateReportRequest = z.infer<typeof createReportRequest>;

export const reportActionRequest = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('regenerate') }).strict(),
    z.object({ action: z.literal('send'), recipients: recipientsSchema }).strict(),
  ],
  { error: 'Неизвестное действие' },
);
export type ReportAction = z.infer<typeof reportActionRequest>;

export const reportResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  from: z.string(),
  to: z.string(),
  modules: z.array(z.string()),
  status: z.enum(REPORT_STATUSES),
  error: z.string().nullable(),
  size: z.number().int().nullable(),
  doc_id: z.number().int().nullable(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  generated_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  /** Where to download the PDF (when ready). */
  download_url: z.string().nullable(),
});
export type Report = z.infer<typeof reportResponse>;

export const reportListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(20),
    company_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
    status: z.enum(REPORT_STATUSES).optional(),
  })
  .strict();
export const reportListResponse = z.object({
  items: z.array(reportResponse),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export const reportActionResponse = z.object({ report: reportResponse, message: z.string() });
