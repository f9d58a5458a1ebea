/*
 * Takedown requests (#32): a request per domain event with an evidence pack (PDF and XARF v4 JSON),
 * recipients found by RDAP (registrar abuse, hosting network abuse) plus configured ones, sent by mail,
 * followed by the watch until the site is verifiably down. One table of states with Russian names;
 * the request and response schemas of /takedown/….
 */
import { z } from 'zod';

export const TAKEDOWN_STATES = ['draft', 'sent', 'acknowledged', 'down', 'closed', 'escalated', 'rejected', 'reopened'] as const;
export type TakedownState = (typeof TAKEDOWN_STATES)[number];

export const TAKEDOWN_STATE_LABELS: Record<TakedownState, string> = {
  draft: 'Черновик',
  sent: 'Отправлен',
  acknowledged: 'Подтверждён получателем',
  down: 'Ресурс недоступен',
  closed: 'Закрыт',
  escalated: 'Эскалация',
  rejected: 'Отклонён',
  reopened: 'Возобновлён',
};

/** States in which the request is being followed (the watch and the SLA clock apply). */
export const TAKEDOWN_OPEN: readonly TakedownState[] = ['sent', 'acknowledged', 'escalated'];
/** States from which the analyst may send (again). */
export const TAKEDOWN_SENDABLE: readonly TakedownState[] = ['draft', 'escalated'];

/** Analyst's manual steps and the states each is allowed from. */
export const TAKEDOWN_ACTIONS = {
  acknowledge: { to: 'acknowledged', from: ['sent', 'escalated'], label: 'Подтверждён получателем' },
  reject: { to: 'rejected', from: ['sent', 'acknowledged', 'escalated'], label: 'Отклонён получателем' },
  close: { to: 'closed', from: ['draft', 'sent', 'acknowledged', 'down', 'escalated', 'rejected', 'reopened'], label: 'Закрыть' },
} as const satisfies Record<string, { to: TakedownState; from: readonly TakedownState[]; label: string }>;
export type TakedownAction = keyof typeof TAKEDOWN_ACTIONS;

export const XARF_TYPES = ['phishing', 'brand_infringement', 'suspicious_registration'] as const;
export type XarfType = (typeof XARF_TYPES)[number];
export const XARF_TYPE_LABELS: Record<XarfType, string> = {
  phishing: 'Фишинг',
  brand_infringement: 'Нарушение прав на бренд',
  suspicious_registration: 'Подозрительная регистрация',
};

export const RECIPIENT_KINDS = ['registrar', 'hosting', 'zone', 'company', 'manual'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];
export const RECIPIENT_KIND_LABELS: Record<RecipientKind, string> = {
  registrar: 'Регистратор',
  hosting: 'Хостинг (сеть IP)',
  zone: 'Адрес для зоны',
  company: 'Адрес компании',
  manual: 'Добавлен вручную',
};
export const RECIPIENT_STATUSES = ['proposed', 'held', 'sent', 'failed', 'limited'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = {
  proposed: 'Будет отправлено',
  held: 'Следующий шаг (эскалация)',
  sent: 'Отправлено',
  failed: 'Ошибка отправки',
  limited: 'Предел писем в час',
};

export const DEFAULT_REGISTRAR_SLA_HOURS = 48;
export const DEFAULT_HOSTING_SLA_HOURS = 24;
export const DEFAULT_RECIPIENT_HOURLY_LIMIT = 20;

export const TAKEDOWN_MSG = {
  notFound: 'Запрос на блокировку не найден',
  eventNotFound: 'Событие не найдено',
  notDomain: 'Запрос на блокировку доступен только для событий модуля «Домены»',
  companyNotFound: 'Компания не найдена',
  notSendable: 'Отправить можно черновик или запрос на эскалации',
  noRecipients: 'Нет получателей: добавьте адрес службы abuse',
  notEditable: 'Получателей можно менять только до отправки или на эскалации',
  badStep: 'Этот шаг недоступен в текущем состоянии запроса',
  email: 'Укажите адрес электронной почты',
  open: 'По этому событию уже есть запрос в работе',
  limited: 'Превышен предел писем на этот адрес в час',
  sla: 'Срок — от 1 до 720 часов',
  tooMany: 'Не больше 500 событий за раз',
} as const;

const email = z.email({ error: TAKEDOWN_MSG.email }).max(254, { error: TAKEDOWN_MSG.email });
const slaHours = z
  .number({ error: TAKEDOWN_MSG.sla })
  .int({ error: TAKEDOWN_MSG.sla })
  .min(1, { error: TAKEDOWN_MSG.sla })
  .max(720, { error: TAKEDOWN_MSG.sla });

export const takedownRecipient = z.object({
  id: z.number().int(),
  kind: z.enum(RECIPIENT_KINDS),
  email: z.string(),
  name: z.string().nullable(),
  /** Where the address came from (RDAP server URL, settings). */
  source: z.string().nullable(),
  status: z.enum(RECIPIENT_STATUSES),
  message_id: z.string().nullable(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type TakedownRecipient = z.infer<typeof takedownRecipient>;

export const takedownLogItem = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  from_state: z.enum(TAKEDOWN_STATES).nullable(),
  to_state: z.enum(TAKEDOWN_STATES).nullable(),
  comment: z.string().nullable(),
  actor: z.string().nullable(),
});

export const takedownRequest = z.object({
  id: z.number().int(),
  reference: z.string(),
  event_id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string().nullable(),
  domain: z.string(),
  state: z.enum(TAKEDOWN_STATES),
  state_label: z.string(),
  xarf_type: z.enum(XARF_TYPES),
  comment: z.string().nullable(),
  registrar: z.string().nullable(),
  hosting: z.string().nullable(),
  previous_id: z.number().int().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  down_at: z.string().nullable(),
  escalated_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  recipients: z.array(takedownRecipient),
  log: z.array(takedownLogItem),
});
export type TakedownRequest = z.infer<typeof takedownRequest>;

export const takedownListItem = takedownRequest.omit({ recipients: true, log: true }).extend({ recipients: z.number().int() });
export const takedownList = z.object({ items: z.array(takedownListItem), total: z.number().int() });
export const takedownListQuery = z.object({
  company_id: z.coerce.number().int().optional(),
  state: z.enum(TAKEDOWN_STATES).optional(),
  event_id: z.coerce.number().int().positive().optional(),
  q: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(50),
});

export const takedownCreate = z
  .object({
    event_id: z.number().int().positive(),
    xarf_type: z.enum(XARF_TYPES).optional(),
    comment: z.string().max(2000).optional(),
  })
  .strict();
export const takedownBulk = z
  .object({
    event_ids: z.array(z.number().int().positive()).min(1).max(500, { error: TAKEDOWN_MSG.tooMany }),
    xarf_type: z.enum(XARF_TYPES).optional(),
    comment: z.string().max(2000).optional(),
  })
  .strict();
export const takedownBulkResult = z.object({
  created: z.array(z.number().int()),
  skipped: z.array(z.object({ event_id: z.number().int(), reason: z.string() })),
});
export const takedownRecipientsPut = z
  .object({
    recipients: z
      .array(
        z
          .object({
            kind: z.enum(RECIPIENT_KINDS),
            email,
            name: z.string().max(200).nullable().optional(),
            /** false = held for escalation (not sent now). */
            send: z.boolean().default(true),
          })
          .strict(),
      )
      .max(20),
  })
  .strict();
export const takedownStep = z
  .object({
    action: z.enum(Object.keys(TAKEDOWN_ACTIONS) as [TakedownAction, ...TakedownAction[]]),
    comment: z.string().max(2000).optional(),
  })
  .strict();

export const takedownSettings = z.object({
  company_id: z.number().int(),
  registrar_sla_hours: z.number().int(),
  hosting_sla_hours: z.number().int(),
  extra_recipients: z.array(z.object({ email: z.string(), name: z.string().nullable(), zone: z.string().nullable() })),
});
export type TakedownSettings = z.infer<typeof takedownSettings>;
export const takedownSettingsPut = z
  .object({
    registrar_sla_hours: slaHours,
    hosting_sla_hours: slaHours,
    extra_recipients: z
      .array(
        z
          .object({
            email,
            name: z.string().max(200).nullable().optional(),
            /** A zone (ASCII or Cyrillic, no dot: «ru», «рф») the address applies to; null = every domain. */
            zone: z.string().max(63).nullable().optional(),
          })
          .strict(),
      )
      .max(20),
  })
  .strict();

const durations = z.object({ count: z.number().int(), median_hours: z.number().nullable(), p90_hours: z.number().nullable() });
export const takedownFigures = z.object({
  requests: z.number().int(),
  sent: z.number().int(),
  down: z.number().int(),
  time_to_send: durations,
  time_to_down: durations,
  share_down_within: z.object({ h24: z.number(), h48: z.number(), h72: z.number() }),
  by_registrar: z.array(durations.extend({ name: z.string() })),
  by_hosting: z.array(durations.extend({ name: z.string() })),
});
export type TakedownFigures = z.infer<typeof takedownFigures>;
export const takedownFiguresQuery = z.object({ company_id: z.coerce.number().int().optional() });

const quantile = (sorted: number[], q: number) => {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 100) / 100;
};
const durationsOf = (hours: number[]) => {
  const s = [...hours].sort((a, b) => a - b);
  return { count: s.length, median_hours: quantile(s, 0.5), p90_hours: quantile(s, 0.9) };
};

/** Time to send, time to down (median and p90) overall, per registrar and per hosting network; share down within 24/48/72 h. */
export function takedownFiguresOf(
  rows: {
    created_at: Date | string;
    sent_at: Date | string | null;
    down_at: Date | string | null;
    registrar: string | null;
    hosting: string | null;
  }[],
): TakedownFigures {
  const h = (a: Date | string, b: Date | string) => (new Date(b).getTime() - new Date(a).getTime()) / 3600_000;
  const sent = rows.filter((r) => r.sent_at);
  const toSend = sent.map((r) => h(r.created_at, r.sent_at as Date | string));
  const downs = sent
    .filter((r) => r.down_at)
    .map((r) => ({ ...r, hours: h(r.sent_at as Date | string, r.down_at as Date | string) }));
  const share = (limit: number) =>
    sent.length ? Math.round((downs.filter((d) => d.hours <= limit).length / sent.length) * 1000) / 1000 : 0;
  const by = (key: 'registrar' | 'hosting') => {
    const groups = new Map<string, number[]>();
    for (const d of downs) {
      const k = d[key] ?? '—';
      groups.set(k, [...(groups.get(k) ?? []), d.hours]);
    }
    return [...groups.entries()].map(([name, hs]) => ({ name, ...durationsOf(hs) })).sort((a, b) => b.count - a.count);
  };
  return {
    requests: rows.length,
    sent: sent.length,
    down: downs.length,
    time_to_send: durationsOf(toSend),
    time_to_down: durationsOf(downs.map((d) => d.hours)),
    share_down_within: { h24: share(24), h48: share(48), h72: share(72) },
    by_registrar: by('registrar'),
    by_hosting: by('hosting'),
  };
}
