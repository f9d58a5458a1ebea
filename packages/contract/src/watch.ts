/*
 * The watch (#31): every watched domain event is observed again on a schedule (DNS, HTTP(S), TLS,
 * RDAP), each distinct state is kept with the time range it held, and each change between two
 * observations is classified into transitions with Russian names. One table of transitions below;
 * the request and response schemas of /watch/… and of an event's timeline.
 */
import { z } from 'zod';

/** The kinds of transition, in the order they are reported within one observation. */
export const TRANSITION_KINDS = [
  'parked',
  'mx_appeared',
  'web_live',
  'login_form',
  'content_changed',
  'cert_issued',
  'offline',
  'came_back',
] as const;
export type TransitionKind = (typeof TRANSITION_KINDS)[number];

/** One table: the Russian name of each transition and what it means. */
export const TRANSITIONS: Record<TransitionKind, { label: string; hint: string }> = {
  parked: { label: 'Припаркован', hint: 'Домен делегирован, но не работает: только NS или NS парковщика' },
  mx_appeared: { label: 'Появилась почта (MX)', hint: 'С домена можно отправлять и принимать письма' },
  web_live: { label: 'Сайт заработал', hint: 'Домен отвечает страницей (HTTP 2xx/3xx)' },
  login_form: { label: 'Появилась форма входа', hint: 'На странице есть поле пароля' },
  content_changed: { label: 'Изменилось содержимое', hint: 'Хэш нормализованной страницы изменился' },
  cert_issued: {
    label: 'Выпущен сертификат',
    hint: 'Сайт предъявляет новый TLS-сертификат, или новый сертификат на имя появился в журналах CT',
  },
  offline: { label: 'Перестал работать', hint: 'NXDOMAIN, нет A/AAAA или сайт больше не отвечает страницей' },
  came_back: { label: 'Снова работает', hint: 'Домен, который перестал работать, снова отвечает' },
};
export const transitionLabel = (k: TransitionKind) => TRANSITIONS[k].label;

/** Priority codes a rule may raise to (the common priorities of events). */
export const WATCH_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type WatchPriority = (typeof WATCH_PRIORITIES)[number];

/** Per transition: the priority the event is raised to (never lowered), or absent = unchanged. */
export type WatchRules = Partial<Record<TransitionKind, WatchPriority>>;
export const DEFAULT_WATCH_RULES: WatchRules = { mx_appeared: 'high', login_form: 'high' };
export const DEFAULT_WATCH_INTERVAL_MINUTES = 360;
export const MIN_WATCH_INTERVAL_MINUTES = 15;
export const MAX_WATCH_INTERVAL_MINUTES = 30 * 24 * 60;

export const WATCH_MSG = {
  interval: `Интервал — от ${MIN_WATCH_INTERVAL_MINUTES} минут до 30 дней`,
  notDomain: 'Наблюдение доступно только для событий модуля «Домены»',
  eventNotFound: 'Событие не найдено',
  companyNotFound: 'Компания не найдена',
  reopened: 'Домен из списка разрешённых изменился',
} as const;

/** One observation of a domain (what is stored per distinct state). */
export interface WatchState {
  /** DNS: registered | nxdomain | servfail | timeout | error. */
  dns: string;
  a: string[];
  aaaa: string[];
  ns: string[];
  mx: string[];
  http_status: number | null;
  final_url: string | null;
  title: string | null;
  /** sha256 (hex, 32 chars) of the normalised HTML; null without a page. */
  content_hash: string | null;
  login_form: boolean;
  tls_issuer: string | null;
  tls_sans: string[];
  /** SHA-256 fingerprint of the certificate (AA:BB:…); of a CT precertificate: of its TBSCertificate. */
  tls_fingerprint: string | null;
  /**
   * Serial number (lower-case hex, no leading zero bytes): a CT precertificate and the certificate the
   * site later serves share it, so they are one certificate for `cert_issued`. Absent in older states.
   */
  tls_serial?: string | null;
  /** Where the certificate was seen: the site's TLS, or (the site serving none) the CT monitor. */
  tls_source?: 'tls' | 'ct' | null;
  /** RDAP status values (English codes) when looked up; null = not looked up. */
  rdap_status: string[] | null;
  /** The HTTP check's Russian error, if any (not part of the state's identity). */
  http_error?: string | null;
  /** The page did not answer in time (twice): no evidence either way (not part of the state's identity). */
  http_timeout?: boolean;
}

/** A registered name with nothing observed yet: the start every state is built from. */
export const BLANK_WATCH_STATE: Readonly<WatchState> = Object.freeze({
  dns: 'registered',
  a: [],
  aaaa: [],
  ns: [],
  mx: [],
  http_status: null,
  final_url: null,
  title: null,
  content_hash: null,
  login_form: false,
  tls_issuer: null,
  tls_sans: [],
  tls_fingerprint: null,
  rdap_status: null,
});

const interval = z
  .number({ error: WATCH_MSG.interval })
  .int({ error: WATCH_MSG.interval })
  .min(MIN_WATCH_INTERVAL_MINUTES, { error: WATCH_MSG.interval })
  .max(MAX_WATCH_INTERVAL_MINUTES, { error: WATCH_MSG.interval });

export const watchRulesSchema = z.partialRecord(z.enum(TRANSITION_KINDS), z.enum(WATCH_PRIORITIES));

export const watchSettings = z.object({
  company_id: z.number().int(),
  enabled: z.boolean(),
  interval_minutes: z.number().int(),
  rules: watchRulesSchema,
  /** Domain events of the company watched now (explicitly or by the «Наблюдать» decision). */
  watched: z.number().int(),
  updated_at: z.string().nullable(),
});
export type WatchSettings = z.infer<typeof watchSettings>;
export const watchSettingsPut = z.object({ enabled: z.boolean(), interval_minutes: interval, rules: watchRulesSchema }).strict();
export const companyIdParams = z.object({ company_id: z.coerce.number().int().positive() });

/** PUT …/events/{id}/watch: on/off (null = follow the «Наблюдать» decision) and the interval override. */
export const eventWatchPut = z
  .object({ watched: z.boolean().nullable(), interval_minutes: interval.nullable().optional() })
  .strict();

const strings = z.array(z.string());
export const watchStateSchema = z.object({
  dns: z.string(),
  a: strings,
  aaaa: strings,
  ns: strings,
  mx: strings,
  http_status: z.number().int().nullable(),
  final_url: z.string().nullable(),
  title: z.string().nullable(),
  content_hash: z.string().nullable(),
  login_form: z.boolean(),
  tls_issuer: z.string().nullable(),
  tls_sans: strings,
  tls_fingerprint: z.string().nullable(),
  rdap_status: strings.nullable(),
  http_error: z.string().nullable().optional(),
  http_timeout: z.boolean().optional(),
  // Optional keys last: the compiled response writer puts them after the required ones.
  tls_serial: z.string().nullable().optional(),
  tls_source: z.enum(['tls', 'ct']).nullable().optional(),
});
const stateItem = z.object({
  id: z.number().int(),
  first_seen: z.string(),
  last_seen: z.string(),
  observations: z.number().int(),
  state: watchStateSchema,
});
const transitionItem = z.object({
  id: z.number().int(),
  kind: z.enum(TRANSITION_KINDS),
  label: z.string(),
  at: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export const eventWatch = z.object({
  event_id: z.number().int(),
  /** The event's own flag: true/false, or null = by the «Наблюдать» decision. */
  flag: z.boolean().nullable(),
  /** Watched now (flag, or the decision), with the company's watch on. */
  watched: z.boolean(),
  company_enabled: z.boolean(),
  interval_minutes: z.number().int().nullable(),
  effective_interval_minutes: z.number().int(),
  last_observed_at: z.string().nullable(),
  next_due_at: z.string().nullable(),
  states: z.array(stateItem),
  transitions: z.array(transitionItem),
});
export type EventWatch = z.infer<typeof eventWatch>;
export type WatchStateItem = z.infer<typeof stateItem>;
export type WatchTransitionItem = z.infer<typeof transitionItem>;
