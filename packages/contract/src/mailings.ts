/*
 * Notification mailings: which new events (filters) go to whom (recipients), how often (params).
 * A background job sends one email per digest; every delivery is recorded; an event is never sent to
 * the same mailing twice.
 */
import { z } from 'zod';
import { ANALYTICS_TZ } from './analytics';
import { bodyId, companyQuery } from './common';
import { MSG } from './messages';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES, SOURCES } from './modules/common';
import { MODULE_CODES } from './modules/types';
import { isEmail } from './validation';
import { TRANSITION_KINDS } from './watch';

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

/** `skipped`: every event of the email was deleted before it went out — nothing to send, not an error. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'retry', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Ожидает отправки',
  sending: 'Отправляется',
  sent: 'Отправлено',
  retry: 'Ошибка, будет повтор',
  failed: 'Не доставлено',
  skipped: 'Не понадобилось',
};
export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'default',
  sending: 'processing',
  sent: 'success',
  retry: 'warning',
  failed: 'error',
  skipped: 'default',
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
  /** Spec §5: exactly the common messages; the issue path (`recipients.<i>`) tells which address is wrong. */
  recipientsRequired: MSG.required,
  recipientInvalid: MSG.email,
  recipientsTooMany: `Не более ${MAILING_MAX_RECIPIENTS} получателей`,
  companyRequired: MSG.required,
  companyNotFound: 'Компания не найдена',
  moduleForbidden: 'Нет доступа к модулю',
  moduleDisabled: 'Модуль не подключён для компании',
  tagNotFound: 'Тег не найден',
  /** Transitions of the watch happen to domain events only. */
  transitionsNeedDomains: 'Переходы наблюдения бывают только у событий модуля «Домены» — добавьте его в модули',
  quietSame: 'Начало и конец тихих часов совпадают',
  suspendedCompany: 'Компания отключена — рассылка приостановлена',
  paused: 'Рассылка выключена',
  /** A delivery some of whose recipients the SMTP server refused (the others got it). */
  rejected: (addresses: string[]) => `Не приняты адреса: ${addresses.join(', ')}`,
  /** A delivery all of whose events were deleted before it went out. */
  eventsDeleted: 'События удалены до отправки — письмо не понадобилось',
} as const;

/** An integer from `min` to `max`, one message for every way it can be wrong. */
const intFromTo = (min: number, max: number, error: string) =>
  z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const hour = intFromTo(0, 23, 'Час — число от 0 до 23');

const STATUS_CODES = DEFAULT_STATUSES.map((s) => s.code) as [string, ...string[]];
const PRIORITY_CODES = DEFAULT_PRIORITIES.map((p) => p.code) as [string, ...string[]];

/** The fields of the filters, without defaults: the full schema adds them, PATCH takes them as sent. */
const filterFields = {
  /** Empty = every module. */
  modules: z.array(z.enum(MODULE_CODES, { error: 'Неизвестный модуль' })).max(MODULE_CODES.length),
  /** Status codes (the same in every module); empty = any. */
  statuses: z.array(z.enum(STATUS_CODES, { error: 'Неизвестный статус' })).max(20),
  priorities: z.array(z.enum(PRIORITY_CODES, { error: 'Неизвестный приоритет' })).max(20),
  sources: z.array(z.enum(SOURCES, { error: 'Неизвестный источник' })).max(10),
  tags: z.array(z.number().int().positive()).max(50),
  /** The events' assignee: a user id, `none` (unassigned); null = anyone or nobody. */
  assignee: z
    .union([z.literal('none'), z.number().int().positive().max(2_147_483_647)], {
      error: 'Исполнитель: номер пользователя или none',
    })
    .nullable(),
  /** Full-text search, as the lists' `q`. */
  text: z
    .string()
    .trim()
    .max(200, { error: MSG.tooLong(200) }),
  /**
   * «Переходы наблюдения» (#31): kinds of watch transitions the mailing is about. Empty = it mails new
   * events (as always); not empty = it mails the matching events to which one of these transitions happened.
   */
  transitions: z.array(z.enum(TRANSITION_KINDS, { error: 'Неизвестный переход наблюдения' })).max(TRANSITION_KINDS.length),
};

export const mailingFilters = z
  .object({
    modules: filterFields.modules.default([]),
    statuses: filterFields.statuses.default([]),
    priorities: filterFields.priorities.default([]),
    sources: filterFields.sources.default([]),
    tags: filterFields.tags.default([]),
    assignee: filterFields.assignee.default(null),
    text: filterFields.text.default(''),
    transitions: filterFields.transitions.default([]),
  })
  .strict();
/** PATCH: only the fields sent (no defaults); merged over the stored filters, then checked with `mailingFilters`. */
export const mailingFiltersPatch = z.object(filterFields).partial().strict();
export type MailingFilters = z.infer<typeof mailingFilters>;

const paramFields = {
  frequency: z.enum(MAILING_FREQUENCIES, { error: 'Неизвестная периодичность' }),
  /** Hour of the daily/weekly digest (MAILING_TZ). */
  hour,
  /** Day of the weekly digest: 1 = Monday … 7 = Sunday. */
  weekday: intFromTo(1, 7, 'День недели — число от 1 до 7'),
  /** No mail from `from`:00 to `to`:00 (MAILING_TZ); what matched meanwhile goes out right after. */
  quiet_hours: z
    .object({ from: hour, to: hour })
    .strict()
    .refine((q) => q.from !== q.to, { error: MAILING_MSG.quietSame })
    .nullable(),
  format: z.enum(MAILING_FORMATS, { error: 'Неизвестный формат письма' }),
  max_events: intFromTo(1, MAILING_MAX_EVENTS_LIMIT, `Событий в письме — от 1 до ${MAILING_MAX_EVENTS_LIMIT}`),
};

export const mailingParams = z
  .object({
    frequency: paramFields.frequency.default('instant'),
    hour: paramFields.hour.default(9),
    weekday: paramFields.weekday.default(1),
    quiet_hours: paramFields.quiet_hours.default(null),
    format: paramFields.format.default('html'),
    max_events: paramFields.max_events.default(MAILING_DEFAULT_MAX_EVENTS),
  })
  .strict();
/** PATCH: only the fields sent (no defaults); merged over the stored params, then checked with `mailingParams`. */
export const mailingParamsPatch = z.object(paramFields).partial().strict();
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

/** A recipient address: a valid email with nothing that could break the To header. */
export const isRecipientEmail = (e: string): boolean => isEmail(e) && !/[\r\n,;<>"]/.test(e);

export const recipientsSchema = z
  .array(z.string().trim().toLowerCase(), { error: MAILING_MSG.recipientsRequired })
  .min(1, { error: MAILING_MSG.recipientsRequired })
  .max(MAILING_MAX_RECIPIENTS, { error: MAILING_MSG.recipientsTooMany })
  .superRefine((list, ctx) => {
    list.forEach((e, i) => {
      if (!isRecipientEmail(e)) ctx.addIssue({ code: 'custom', path: [i], message: MAILING_MSG.recipientInvalid });
    });
  })
  .transform((list) => [...new Set(list)]);

export const createMailingRequest = z
  .object({
    name: mailingName,
    /** The company whose events it sends; null = every company (staff only). */
    company_id: bodyId().nullable().optional(),
    recipients: recipientsSchema,
    filters: mailingFilters.default({
      modules: [],
      statuses: [],
      priorities: [],
      sources: [],
      tags: [],
      assignee: null,
      text: '',
      transitions: [],
    }),
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
    company_id: bodyId().nullable().optional(),
    recipients: recipientsSchema.optional(),
    /** Only the filters sent change; the others keep their stored values. */
    filters: mailingFiltersPatch.optional(),
    /** Only the params sent change; the merged result must still be valid. */
    params: mailingParamsPatch.optional(),
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
    company_id: companyQuery,
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
    company_id: bodyId().nullable().optional(),
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
  /** The watch's transitions a mailing may subscribe to, with their Russian names. */
  transitions: z.array(opt),
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
