/*
 * Telegram sources: collector accounts (credentials are write-only secrets) and monitored
 * channels with the keyword rules their company's messages are matched against.
 */
import { z } from 'zod';
import { bodyId, listResponse, pageQuery, textId } from './common';
import { TELEGRAM_ACCOUNT_STATUSES, type TelegramAccountStatus } from './enums';
import { MSG } from './messages';

export { TELEGRAM_ACCOUNT_STATUSES, type TelegramAccountStatus };
export const TELEGRAM_ACCOUNT_STATUS_LABELS: Record<TelegramAccountStatus, string> = {
  active: 'Активен',
  paused: 'Приостановлен',
  banned: 'Заблокирован',
};

/** The collector's state of a channel: waiting for its first pass, collecting, no such public channel, failing. */
export const TELEGRAM_COLLECTOR_STATES = ['pending', 'ok', 'not_found', 'error'] as const;
export type TelegramCollectorState = (typeof TELEGRAM_COLLECTOR_STATES)[number];
export const TELEGRAM_COLLECTOR_STATE_LABELS: Record<TelegramCollectorState, string> = {
  pending: 'Ожидает первого чтения',
  ok: 'Собирается',
  not_found: 'Канал не найден',
  error: 'Ошибка сбора',
};

/** How a channel is read: the public web preview (no account) or a signed-in collector account. */
export const TELEGRAM_COLLECT_MODES = ['preview', 'account'] as const;
export type TelegramCollectMode = (typeof TELEGRAM_COLLECT_MODES)[number];
export const TELEGRAM_COLLECT_MODE_LABELS: Record<TelegramCollectMode, string> = {
  preview: 'Веб-просмотр',
  account: 'Аккаунт',
};

export const TELEGRAM_MSG = {
  phone: 'Неверный формат телефона: укажите номер в формате +7XXXXXXXXXX или +<код страны><номер>',
  channel: 'Неверная ссылка на канал: укажите https://t.me/имя или @имя',
  apiId: 'api_id — это число',
  phoneTaken: 'Аккаунт с этим номером телефона уже добавлен',
  channelTaken: 'Этот канал уже добавлен для этой компании',
  accountNotFound: 'Аккаунт не найден',
  channelNotFound: 'Канал не найден',
  companyNotFound: 'Компания не найдена',
  keyword: 'Ключевое слово не может быть пустым',
  badChar: 'Недопустимый символ в тексте',
  /* MTProto sign-in («Войти»): Telegram's errors in Russian; never the code, password or session. */
  loginNoCredentials: 'Для входа укажите api_id и api_hash аккаунта',
  loginNotStarted: 'Вход не начат или истёк: нажмите «Войти» ещё раз',
  codeInvalid: 'Неверный код',
  codeExpired: 'Срок действия кода истёк: запросите новый',
  passwordInvalid: 'Неверный облачный пароль',
  phoneInvalid: 'Telegram не принимает этот номер телефона',
  apiIdInvalid: 'Telegram не принимает этот api_id/api_hash',
  banned: 'Аккаунт заблокирован или удалён в Telegram',
  floodWait: (until: string) => `Telegram просит подождать: вход возможен после ${until}`,
  tooManyAttempts: 'Слишком много попыток входа: повторите через 10 минут',
  telegramError: 'Telegram отклонил запрос: повторите попытку позже',
} as const;

/** The account's state as the console shows it (derived from status, session and Telegram's errors). */
export const TELEGRAM_ACCOUNT_STATES = ['active', 'needs_login', 'flood_wait', 'paused', 'banned'] as const;
export type TelegramAccountState = (typeof TELEGRAM_ACCOUNT_STATES)[number];
export const TELEGRAM_ACCOUNT_STATE_LABELS: Record<TelegramAccountState, string> = {
  active: 'Активен',
  needs_login: 'Нужен вход',
  flood_wait: 'Flood-wait',
  paused: 'Приостановлен',
  banned: 'Заблокирован',
};

/** PostgreSQL text cannot hold NUL: refuse it instead of failing at the database. */
const text = () => z.string().refine((s) => !s.includes('\u0000'), { error: TELEGRAM_MSG.badChar });

// ---------------------------------------------------------------------------
// Phones
// ---------------------------------------------------------------------------

/**
 * '+7 (912) 345-67-89', '8 912 345 67 89', '79123456789' → '+79123456789'; other countries as
 * E.164 ('+44 20 7946 0958' → '+442079460958'). Null when it is not a phone number.
 */
export function normalisePhone(input: string): string | null {
  const s = input.trim();
  if (!/^\+?[\d\s()-]+$/.test(s)) return null;
  const plus = s.startsWith('+');
  let digits = s.replace(/\D/g, '');
  if (!plus) {
    if (digits.length === 11 && (digits.startsWith('8') || digits.startsWith('7'))) digits = `7${digits.slice(1)}`;
    else if (digits.length === 10 && digits.startsWith('9')) digits = `7${digits}`;
    else return null;
  }
  if (!/^[1-9]\d{7,14}$/.test(digits)) return null;
  if (digits.startsWith('7') && digits.length !== 11) return null;
  return `+${digits}`;
}

export const phoneSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .transform((s, ctx) => {
    const p = normalisePhone(s);
    if (p === null) {
      ctx.addIssue({ code: 'custom', message: TELEGRAM_MSG.phone });
      return z.NEVER;
    }
    return p;
  });

// ---------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------

const USERNAME = /^[a-z][a-z0-9_]{3,30}[a-z0-9]$/i;
const RESERVED = new Set(['joinchat', 'addstickers', 'addemoji', 'share', 'proxy', 'socks', 'login', 'iv', 'c', 's']);

/** A public Telegram username: 5–32 of a–z, 0–9, '_', starting with a letter, no '__', not ending in '_'. */
export function isTelegramUsername(s: string): boolean {
  return USERNAME.test(s) && !s.includes('__') && !RESERVED.has(s.toLowerCase());
}

/**
 * 'https://t.me/Name', 't.me/s/name', 'https://telegram.me/name/', '@Name' → '@name'.
 * Invite links (t.me/+…, t.me/joinchat/…) and post links are refused: the collector needs the
 * public username. Null when not a channel reference.
 */
export function normaliseChannel(input: string): string | null {
  const s = input.trim();
  let name: string | undefined;
  if (s.startsWith('@')) name = s.slice(1);
  else {
    const m = /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:s\/)?([^/?#]+)\/?(?:\?[^#]*)?$/i.exec(s);
    name = m?.[1];
  }
  if (!name || !isTelegramUsername(name)) return null;
  return `@${name.toLowerCase()}`;
}

export const channelRefSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .max(300, { error: TELEGRAM_MSG.channel, abort: true })
  .transform((s, ctx) => {
    const c = normaliseChannel(s);
    if (c === null) {
      ctx.addIssue({ code: 'custom', message: TELEGRAM_MSG.channel });
      return z.NEVER;
    }
    return c;
  });

/** '@name' → 'https://t.me/name'; with a message id → the post's link. */
export const telegramLink = (username: string, messageId?: number | string) =>
  `https://t.me/${username.replace(/^@/, '')}${messageId === undefined ? '' : `/${messageId}`}`;

export const KEYWORDS_MAX = 500;
const keyword = text().trim().min(1, TELEGRAM_MSG.keyword).max(200, MSG.tooLong(200));
/** Keyword rules, trimmed; case-insensitive repeats dropped, order kept (rule_index = position). */
export const keywordsSchema = z
  .array(keyword)
  .max(KEYWORDS_MAX, `Не более ${KEYWORDS_MAX} ключевых слов`)
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((k) => {
      const key = k.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

// ---------------------------------------------------------------------------
// HTTP shapes
// ---------------------------------------------------------------------------

const secret = (max: number) => z.string().trim().min(1, MSG.required).max(max, MSG.tooLong(max));

export const createTelegramAccountRequest = z.strictObject({
  name: text().trim().min(1, MSG.required).max(200, MSG.tooLong(200)),
  phone: phoneSchema,
  status: z.enum(TELEGRAM_ACCOUNT_STATUSES).default('active'),
  /** Write-only: stored encrypted, never returned. */
  api_id: secret(20).regex(/^\d+$/, TELEGRAM_MSG.apiId).optional(),
  api_hash: secret(200).optional(),
  session: secret(10_000).optional(),
  comment: text().trim().max(1000, MSG.tooLong(1000)).nullable().optional(),
});
/** A secret set to null is erased; absent keeps what is stored. */
export const updateTelegramAccountRequest = z.strictObject({
  name: text().trim().min(1, MSG.required).max(200, MSG.tooLong(200)).optional(),
  phone: phoneSchema.optional(),
  status: z.enum(TELEGRAM_ACCOUNT_STATUSES).optional(),
  api_id: secret(20).regex(/^\d+$/, TELEGRAM_MSG.apiId).nullable().optional(),
  api_hash: secret(200).nullable().optional(),
  session: secret(10_000).nullable().optional(),
  comment: text().trim().max(1000, MSG.tooLong(1000)).nullable().optional(),
  last_activity_at: z.iso.datetime({ offset: true }).nullable().optional(),
});
export const telegramAccountResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  status: z.enum(TELEGRAM_ACCOUNT_STATUSES),
  comment: z.string().nullable(),
  has_api_id: z.boolean(),
  has_api_hash: z.boolean(),
  has_session: z.boolean(),
  /** active / needs_login / flood_wait (until flood_wait_until) / paused / banned. */
  state: z.enum(TELEGRAM_ACCOUNT_STATES),
  flood_wait_until: z.string().nullable(),
  last_activity_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TelegramAccount = z.infer<typeof telegramAccountResponse>;
export const telegramAccountListQuery = pageQuery.extend({
  q: text().trim().max(200).optional(),
  status: z.enum(TELEGRAM_ACCOUNT_STATUSES).optional(),
  sort: z.enum(['name', '-name', 'created_at', '-created_at', 'last_activity_at', '-last_activity_at']).default('name'),
});
export const telegramAccountListResponse = listResponse(telegramAccountResponse);

/** «Войти»: step 1 sends the code to the account's phone. */
export const telegramLoginStartRequest = z.strictObject({});
export const telegramLoginCodeRequest = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{4,8}$/, TELEGRAM_MSG.codeInvalid),
});
export const telegramLoginPasswordRequest = z.strictObject({
  password: z.string().min(1, MSG.required).max(256, MSG.tooLong(256)),
});
/** Next step of the sign-in: enter the code, the cloud password, or done (session stored sealed). */
export const telegramLoginResponse = z.object({
  step: z.enum(['code', 'password', 'done']),
  /** The cloud password's hint (set by the user in Telegram), when the password step is next. */
  password_hint: z.string().nullable(),
  account: telegramAccountResponse,
});
export type TelegramLoginResponse = z.infer<typeof telegramLoginResponse>;

export const createTelegramChannelRequest = z.strictObject({
  /** https://t.me/name or @name; stored as @name. */
  link: channelRefSchema,
  title: text().trim().max(300, MSG.tooLong(300)).nullable().optional(),
  company_id: bodyId(MSG.required),
  keywords: keywordsSchema.default([]),
  is_active: z.boolean().default(true),
  /** How the channel is read (shared by every company following it); omitted: unchanged, 'preview' for a new one. */
  collect_mode: z.enum(TELEGRAM_COLLECT_MODES).optional(),
});
export const updateTelegramChannelRequest = z.strictObject({
  link: channelRefSchema.optional(),
  title: text().trim().max(300, MSG.tooLong(300)).nullable().optional(),
  company_id: bodyId().optional(),
  keywords: keywordsSchema.optional(),
  is_active: z.boolean().optional(),
  collect_mode: z.enum(TELEGRAM_COLLECT_MODES).optional(),
});
export const telegramChannelResponse = z.object({
  id: z.number().int(),
  username: z.string(),
  link: z.string(),
  title: z.string().nullable(),
  company: z.object({ id: z.number().int(), name: z.string() }),
  keywords: z.array(z.string()),
  is_active: z.boolean(),
  last_message_at: z.string().nullable(),
  /** Messages stored for this subscription (each matched its company's keywords). */
  messages_count: z.number().int(),
  /** Of them, posted since the start of today (UTC). */
  messages_today: z.number().int(),
  /** The collector of the channel (shared by every company following it); null before its first pass. */
  collector: z
    .object({
      state: z.enum(TELEGRAM_COLLECTOR_STATES),
      error: z.string().nullable(),
      collected_at: z.string().nullable(),
      /** The collector account reading the channel (mode 'account', once assigned). */
      account: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    })
    .nullable(),
  /** How the channel is read (shared by every company following it). */
  collect_mode: z.enum(TELEGRAM_COLLECT_MODES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TelegramChannel = z.infer<typeof telegramChannelResponse>;
export const telegramChannelListQuery = pageQuery.extend({
  q: text().trim().max(200).optional(),
  company_id: textId().optional(),
  is_active: z.enum(['true', 'false']).optional(),
  sort: z.enum(['username', '-username', 'created_at', '-created_at', 'last_message_at', '-last_message_at']).default('username'),
});
export const telegramChannelListResponse = listResponse(telegramChannelResponse);
