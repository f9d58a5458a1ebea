/*
 * The message filter: Telegram messages posted by a collector (API key with messages.collect),
 * matched against the keyword rules of the channel's company.
 */
import { z } from 'zod';
import { BIGSERIAL_MAX, companyQuery, listResponse, pageQuery, textId } from './common';
import { MSG } from './messages';
import { MODULE_CODES } from './modules/types';
import { channelRefSchema } from './telegram';
import { isUrl } from './validation';

export const FILTRATOR_MSG = {
  unknownChannel: 'Канал не найден: сначала добавьте его в источники Telegram',
  notFound: 'Сообщение не найдено',
  dateRange: 'Дата начала позже даты окончания',
  unknownField: (key: string) => `Поле «${key}» не относится к выбранному модулю`,
  eventsUnavailable: 'Создание событий недоступно',
  badChar: 'Недопустимый символ в тексте',
  notMatched: 'Сообщение не совпало с ключевыми словами ни одной компании, подписанной на канал, и не сохранено',
} as const;

export const TEXT_MAX = 100_000;

const text = () => z.string().refine((s) => !s.includes('\u0000'), { error: FILTRATOR_MSG.badChar });

export const collectMessageRequest = z.strictObject({
  /** '@username' (or a https://t.me/username link) of a channel registered in Telegram sources. */
  channel: channelRefSchema,
  /** The message's id inside its channel. Together with the channel it identifies the message. */
  message_id: z.number({ error: MSG.required }).int().positive().max(Number.MAX_SAFE_INTEGER),
  /** NUL characters (which PostgreSQL text cannot hold) are removed by the server. */
  text: z.string({ error: MSG.required }).max(TEXT_MAX, MSG.tooLong(TEXT_MAX)),
  posted_at: z.iso.datetime({ offset: true, error: 'Неверная дата публикации' }),
  author: z.string().trim().max(300, MSG.tooLong(300)).nullable().optional(),
  /** «Forwarded from»: the channel or sender the post was forwarded from. */
  forwarded_from: z.string().trim().max(300, MSG.tooLong(300)).nullable().optional(),
  views: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  /**
   * Telegram's edit time of the post. A message already stored is updated when this is later than
   * its stored edit time: the new text, its keyword rules re-matched (a text that no longer matches
   * keeps the rules it was stored for), marked edited.
   */
  edited_at: z.iso.datetime({ offset: true, error: 'Неверная дата изменения' }).nullable().optional(),
  url: z
    .string()
    .trim()
    .max(2000, MSG.tooLong(2000))
    .refine((s) => s === '' || isUrl(s), { error: MSG.url })
    .nullable()
    .optional(),
});
export type CollectMessageRequest = z.infer<typeof collectMessageRequest>;
/** 202 of a collected message: no subscribing company's keywords match it, so nothing is stored. */
export const collectSkippedResponse = z.object({ stored: z.literal(false), message: z.string() });

/** Which keyword rule matched: the channel (item) holding the keyword list and the keyword's position. */
export const ruleRef = z.object({ item_id: z.number().int(), rule_index: z.number().int() });
export type RuleRef = z.infer<typeof ruleRef>;

const channelRef = z.object({ id: z.number().int(), username: z.string(), title: z.string().nullable() });

export const messageResponse = z.object({
  id: z.number().int(),
  channel: channelRef,
  company: z.object({ id: z.number().int(), name: z.string() }),
  message_id: z.number().int(),
  text: z.string(),
  /** The signature of a signed post (a channel's unsigned post: the channel's name in the preview, null by account). */
  author: z.string().nullable(),
  /** «Forwarded from»: the channel (title and @name) or hidden sender's name; null when not forwarded. */
  forwarded_from: z.string().nullable(),
  /** Views when the post was read; null when the source shows none. */
  views: z.number().int().nullable(),
  /** Telegram's edit time of the post («изменено»); null when never edited. */
  edited_at: z.string().nullable(),
  /** When the collector saw the post deleted in Telegram («удалено»; the row is kept). */
  deleted_at: z.string().nullable(),
  url: z.string().nullable(),
  /** Link to the original post: https://t.me/<username>/<message_id>. */
  link: z.string(),
  posted_at: z.string(),
  created_at: z.string(),
  /** The matched keywords. */
  rules: z.array(z.string()),
  rules_map: z.array(ruleRef),
});
export type Message = z.infer<typeof messageResponse>;

export const messageListItem = messageResponse.extend({
  /**
   * The text (or a fragment of it) HTML-escaped, with the search words — or, without a search,
   * the matched keywords — wrapped in <mark>…</mark>. The only markup it ever contains is <mark>.
   */
  highlight: z.string(),
});
export type MessageListItem = z.infer<typeof messageListItem>;

const dateOrDatetime = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)), {
    error: 'Неверная дата',
  });

export const messageListQuery = pageQuery
  .extend({
    /** Full-text search (Russian word forms): words, "phrases", -excluded. */
    q: text().trim().max(500).optional(),
    /** Channel id or @username. */
    channel: text().trim().max(100).optional(),
    company_id: companyQuery,
    /** posted_at ≥ date_from; a bare date means its start (UTC). */
    date_from: dateOrDatetime.optional(),
    /** posted_at ≤ date_to; a bare date includes that whole day (UTC). */
    date_to: dateOrDatetime.optional(),
    /** Only messages that matched this keyword. */
    rule: text().trim().max(200).optional(),
    sort: z.enum(['posted_at', '-posted_at', 'created_at', '-created_at']).default('-posted_at'),
  })
  .refine((q) => !q.date_from || !q.date_to || dateStart(q.date_from) <= dateEnd(q.date_to), {
    error: FILTRATOR_MSG.dateRange,
    path: ['date_to'],
  });
export type MessageListQuery = z.infer<typeof messageListQuery>;
export const messageListResponse = listResponse(messageListItem);

/** Start of a bare date or the instant given. */
export function dateStart(s: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00Z`) : new Date(s);
}
/** End of a bare date (inclusive) or the instant given. */
export function dateEnd(s: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T23:59:59.999Z`) : new Date(s);
}

export const messageIdParam = z.object({ id: textId(BIGSERIAL_MAX) });

/** POST /modules/filtrator/messages/{id}/to-event: make an event of `module` from the message. */
export const messageToEventRequest = z.strictObject({
  module: z.enum(MODULE_CODES, { error: 'Неизвестный модуль' }),
  /** Default: the first line of the message. */
  title: z.string().trim().min(1, MSG.required).max(500, MSG.tooLong(500)).optional(),
  /**
   * The module's own fields. Unless given here, the link to the post fills the module's first URL
   * field and the message text its first text field; company, source (Telegram) and detection time
   * come from the message.
   */
  fields: z.record(z.string(), z.unknown()).optional(),
});
export type MessageToEventRequest = z.infer<typeof messageToEventRequest>;
export const messageToEventResponse = z.object({
  module: z.enum(MODULE_CODES),
  event_id: z.number().int(),
  /** Console route of the new event, e.g. /domains/15. */
  route: z.string(),
});
