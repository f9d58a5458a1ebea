/*
 * Notification mailings: which new events (filters) go to whom (recipients), how often (params).
 * A background job sends one email per digest; every delivery is recorded; an event is never sent to
 * the same mailing twice.
 */
import { z } from 'zod';
import { ANALYTICS_TZ } from './analytics';
import { MSG } from './messages';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES, SOURCES } from './modules/common';
import { MODULE_CODES } from './modules/types';
import { isEmail } from './validation';

export const MAILING_FREQUENCIES = ['instant', 'hourly', 'daily', 'weekly'] as const;
export type MailingFrequency = (typeof MAILING_FREQUENCIES)[number];
export const MAILING_FREQUENCY_LABELS: Record<MailingFrequency, string> = {
  instant: 'Сразу (каждое новое событие)',
  hourly: 'Ежечасная сводка',
  daily: 'Ежедневная сводка',
  weekly: 'Еженедельная сводка',
};

export const MAILING_FORMATS = ['html', 'text'] as const;
export type MailingFormat = (typeof MAILING_FORMATS)[number];
export const MAILING_FORMAT_LABELS: Record<MailingFormat, string> = { html: 'HTML', text: 'Простой текст' };

export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'retry', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Ожидает отправки',
  sending: 'Отправляется',
  sent: 'Отправлено',
  retry: 'Ошибка, будет повтор',
  failed: 'Не доставлено',
};
export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'default',
  sending: 'processing',
  sent: 'success',
  retry: 'warning',
  failed: 'error',
};

/** Events listed in one message; the rest are summarised as «и ещё N событий». */
export const MAILING_MAX_EVENTS_LIMIT = 200;
export const MAILING_DEFAULT_MAX_EVENTS = 50;
export const MAILING_MAX_RECIPIENTS = 50;
/** Delivery attempts before a message is given up. */
export const MAILING_MAX_ATTEMPTS = 5;
/** Backoff between attempts: 1, 5, 15, 60 minutes. */
export const MAILING_RETRY_MINUTES = [1, 5, 15, 60] as const;
export const mailingRetryDelayMs = (attempt: number) =>
  (MAILING_RETRY_MINUTES[Math.min(attempt, MAILING_RETRY_MINUTES.length) - 1] ?? 60) * 60_000;
/** The match preview looks this many days back. */
export const MAILING_PREVIEW_DAYS = 7;
/** Time of day of digests and quiet hours are in this zone. */
export const MAILING_TZ = ANALYTICS_TZ;

/** Any C0 control character or DEL (line breaks, tabs … — nothing that belongs in a name or a mail header). */
export const hasControlChars = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

export const MAILING_MSG = {
  notFound: 'Рассылка не найдена',
  nameNewline: 'Название не может содержать переводы строк',
  recipientsRequired: 'Укажите хотя бы одного получателя',
  recipientInvalid: (email: string) => `Неверный формат email: ${email}`,
  recipientsTooMany: `Не более ${MAILING_MAX_RECIPIENTS} получателей`,
  companyRequired: 'Укажите компанию',
  companyNotFound: 'Компания не найдена',
  moduleForbidden: 'Нет доступа к модулю',
  tagNotFound: 'Тег не найден',
  quietSame: 'Начало и конец тихих часов совпадают',
  suspendedCompany: 'Компания отключена — рассылка приостановлена',
  paused: 'Рассылка выключена',
} as const;

const hour = z.number({ error: 'Час — число от 0 до 23' }).int({ error: 'Час — число от 0 до 23' }).min(0).max(23);

const STATUS_CODES = DEFAULT_STATUSES.map((s) => s.code) as [string, ...string[]];
const PRIORITY_CODES = DEFAULT_PRIORITIES.map((p) => p.code) as [string, ...string[]];

export const mailingFilters = z
  .object({
    /** Empty = every module. */
    modules: z
      .array(z.enum(MODULE_CODES, { error: 'Неизвестный модуль' }))
      .max(MODULE_CODES.length)
      .default([]),
    /** Status codes (the same in every module); empty = any. */
    statuses: z
      .array(z.enum(STATUS_CODES, { error: 'Неизвестный статус' }))
      .max(20)
      .default([]),
    priorities: z
      .array(z.enum(PRIORITY_CODES, { error: 'Неизвестный приоритет' }))
      .max(20)
      .default([]),
    sources: z
      .array(z.enum(SOURCES, { error: 'Неизвестный источник' }))
      .max(10)
      .default([]),
    tags: z.array(z.number().int().positive()).max(50).default([]),
    /** Full-text search, as the lists' `q`. */
    text: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .default(''),
  })
  .strict();
export type MailingFilters = z.infer<typeof mailingFilters>;

export const mailingParams = z
  .object({
    frequency: z.enum(MAILING_FREQUENCIES, { error: 'Неизвестная периодичность' }).default('instant'),
    /** Hour of the daily/weekly digest (MAILING_TZ). */
    hour: hour.default(9),
    /** Day of the weekly digest: 1 = Monday … 7 = Sunday. */
    weekday: z.number().int().min(1).max(7).default(1),
    /** No mail from `from`:00 to `to`:00 (MAILING_TZ); what matched meanwhile goes out right after. */
    quiet_hours: z
      .object({ from: hour, to: hour })
      .strict()
      .refine((q) => q.from !== q.to, { error: MAILING_MSG.quietSame })
      .nullable()
      .default(null),
    format: z.enum(MAILING_FORMATS).default('html'),
    max_events: z.number().int().min(1).max(MAILING_MAX_EVENTS_LIMIT).default(MAILING_DEFAULT_MAX_EVENTS),
  })
  .strict();
export type MailingParams = z.infer<typeof mailingParams>;

export const mailingName = z
  .string({ error: MSG.required })
  .refine((s) => !/[\r\n]/.test(s), { error: MAILING_MSG.nameNewline, abort: true })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, { error: MSG.required })
      .max(200, { error: MSG.tooLong(200) }),
  )
  .refine((s) => !hasControlChars(s), { error: MAILING_MSG.nameNewline });

export const recipientsSchema = z
  .array(z.string().trim().toLowerCase(), { error: MAILING_MSG.recipientsRequired })
  .min(1, { error: MAILING_MSG.recipientsRequired })
  .max(MAILING_MAX_RECIPIENTS, { error: MAILING_MSG.recipientsTooMany })
  .superRefine((list, ctx) => {
    list.forEach((e, i) => {
      if (!isEmail(e) || /[\r\n,;<>"]/.test(e))
        ctx.addIssue({ code: 'custom', path: [i], message: MAILING_MSG.recipientInvalid(e) });
    });
  })
  .transform((list) => [...new Set(list)]);

export const createMailingRequest = z
  .object({
    name: mailingName,
    /** The company whose events it sends; null = every company (staff only). */
    company_id: z.number().int().positive().nullable().optional(),
    recipients: recipientsSchema,
    filters: mailingFilters.default({ modules: [], statuses: [], priorities: [], sources: [], tags: [], text: '' }),
    params: mailingParams.default({
      frequency: 'instant',
      hour: 9,
      weekday: 1,
      quiet_hours: null,
      format: 'html',
      max_events: MAILING_DEFAULT_MAX_EVENTS,
    }),
    is_active: z.boolean().default(true),
  })
  .strict();
export type CreateMailingRequest = z.infer<typeof createMailingRequest>;

export const patchMailingRequest = z
  .object({
    name: mailingName.optional(),
    company_id: z.number().int().positive().nullable().optional(),
    recipients: recipientsSchema.optional(),
    filters: mailingFilters.optional(),
    params: mailingParams.optional(),
    is_active: z.boolean().optional(),
  })
  .strict();
export type PatchMailingRequest = z.infer<typeof patchMailingRequest>;

export const mailingResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  recipients: z.array(z.string()),
  filters: mailingFilters,
  params: mailingParams,
  is_active: z.boolean(),
  /** Not sending because its company is deactivated. */
  is_suspended: z.boolean(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_sent_at: z.string().nullable(),
  next_digest_at: z.string().nullable(),
  stats: z.object({
    events_sent: z.number().int(),
    events_pending: z.number().int(),
    deliveries_sent: z.number().int(),
    deliveries_failed: z.number().int(),
  }),
});
export type Mailing = z.infer<typeof mailingResponse>;

export const mailingListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(20),
    company_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
    q: z.string().trim().max(200).optional(),
  })
  .strict();
export const mailingListResponse = z.object({
  items: z.array(mailingResponse),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const deliveryItem = z.object({
  id: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  event_count: z.number().int(),
  listed_count: z.number().int(),
  subject: z.string(),
  recipients: z.array(z.string()),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliveryItem>;
export const deliveryListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(200).default(20),
  })
  .strict();
export const deliveryListResponse = z.object({
  items: z.array(deliveryItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const previewRequest = z
  .object({
    company_id: z.number().int().positive().nullable().optional(),
    filters: mailingFilters,
  })
  .strict();
export const previewResponse = z.object({
  /** Events the filters matched over the last MAILING_PREVIEW_DAYS days (at most `cap`). */
  count: z.number().int(),
  capped: z.boolean(),
  days: z.number().int(),
  sample: z.array(z.object({ id: z.number().int(), module: z.string(), title: z.string(), created_at: z.string() })),
});
export type MailingPreview = z.infer<typeof previewResponse>;

const opt = z.object({ value: z.string(), label: z.string() });
export const mailingFilterOptionsResponse = z.object({
  companies: z.array(z.object({ id: z.number().int(), name: z.string(), is_active: z.boolean() })),
  modules: z.array(opt),
  statuses: z.array(opt),
  priorities: z.array(opt.extend({ color: z.string() })),
  sources: z.array(opt),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() })),
  /** Staff may send every company's events in one mailing. */
  all_companies_allowed: z.boolean(),
});
export type MailingFilterOptions = z.infer<typeof mailingFilterOptionsResponse>;

export const mailingParamOptionsResponse = z.object({
  frequencies: z.array(opt),
  formats: z.array(opt),
  weekdays: z.array(z.object({ value: z.number().int(), label: z.string() })),
  timezone: z.string(),
  max_events_limit: z.number().int(),
  defaults: mailingParams,
});
export type MailingParamOptions = z.infer<typeof mailingParamOptionsResponse>;
