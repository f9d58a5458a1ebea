/*
 * System configurations: a typed registry of run-time settings (SUPER_ADMIN only).
 * Values live in PostgreSQL; the server reads them through its ConfigsService.
 */
import { z } from 'zod';
import { MSG } from './messages';
import { isEmail, isIPv4, isIPv6, isUrl } from './validation';

export const CONFIG_TYPES = ['string', 'integer', 'url', 'email', 'secret'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

export const CONFIG_GROUPS = ['mail', 'files', 'sessions', 'security', 'integrations', 'discovery', 'general'] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];
export const CONFIG_GROUP_LABELS: Record<ConfigGroup, string> = {
  mail: 'Почта',
  files: 'Файлы и выгрузки',
  sessions: 'Сессии',
  security: 'Защита от подбора пароля',
  integrations: 'Интеграции',
  discovery: 'Поиск доменов',
  general: 'Общие',
};

export const CONFIG_MSG = {
  integer: 'Введите целое число',
  text: 'Введите строку',
  min: (n: number) => `Значение должно быть не меньше ${n}`,
  max: (n: number) => `Значение должно быть не больше ${n}`,
  smtpUrl: 'Неверный адрес SMTP: ожидается smtp://… или smtps://…',
  mailFrom: 'Неверный адрес отправителя: укажите email или «Имя <email>»',
  unknownKey: 'Неизвестная настройка',
  alreadySet: 'Значение этой настройки уже задано — измените его',
  notSet: 'Значение этой настройки не задано',
  /** An integration's address in a private, loopback or link-local network (the server's SSRF guard). */
  privateAddress: 'Адрес во внутренней сети недоступен для интеграций',
} as const;

const requiredOr = (msg: string) => (iss: { input?: unknown }) => (iss.input == null ? MSG.required : msg);

const integer = (min: number, max: number) =>
  z
    .number({ error: requiredOr(CONFIG_MSG.integer) })
    .int({ error: CONFIG_MSG.integer })
    .min(min, { error: CONFIG_MSG.min(min) })
    .max(max, { error: CONFIG_MSG.max(max) });

const text = (min: number, max: number) =>
  z
    .string({ error: requiredOr(CONFIG_MSG.text) })
    .trim()
    .min(min, { error: MSG.required })
    .max(max, { error: MSG.tooLong(max) });

/** '' = not set. */
const optionalUrl = z
  .string({ error: requiredOr(MSG.url) })
  .trim()
  .max(2000, { error: MSG.tooLong(2000) })
  .refine((s) => s === '' || isUrl(s), { error: MSG.url });

export function isSmtpUrl(s: string): boolean {
  if (/\s/.test(s) || !/^smtps?:\/\/[^/?#]/i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** 'noreply@x.ru' or 'Форпост <noreply@x.ru>'. */
export function isMailFrom(s: string): boolean {
  const m = /^([^<>]*)<([^<>]+)>$/.exec(s.trim());
  if (!m) return isEmail(s.trim());
  return isEmail((m[2] ?? '').trim());
}

/** A comma- (or space-) separated setting → its items. */
export const splitList = (s: string): string[] =>
  s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A DNS resolver: IPv4, IPv6, `IPv4:port` or `[IPv6]:port`. */
export function isResolverAddress(s: string): boolean {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(s);
  if (m) {
    const port = Number(m[3]);
    const host = m[1] ?? m[2] ?? '';
    return port >= 1 && port <= 65535 && (isIPv4(host) || isIPv6(host));
  }
  return isIPv4(s) || isIPv6(s);
}

/** `ru=https://…, *=https://…` → {ru: url, '*': url}; null when malformed. */
export function parseRdapServers(s: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const item of s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const i = item.indexOf('=');
    if (i <= 0) return null;
    const zone = item.slice(0, i).trim().toLowerCase().replace(/^\./, '');
    const url = item.slice(i + 1).trim();
    if (!(zone === '*' || /^[a-z0-9-]+$/.test(zone)) || !isUrl(url)) return null;
    out[zone] = url;
  }
  return out;
}

interface ConfigDef<S extends z.ZodType> {
  title: string;
  description: string;
  group: ConfigGroup;
  type: ConfigType;
  schema: S;
  default: z.output<S>;
  secret?: boolean;
  unit?: string;
  min?: number;
  max?: number;
}
const def = <S extends z.ZodType>(d: ConfigDef<S>) => d;
const int = (d: Omit<ConfigDef<ReturnType<typeof integer>>, 'schema' | 'type'> & { min: number; max: number }) =>
  def({ ...d, type: 'integer', schema: integer(d.min, d.max) });

/** The registry: every setting the server reads at run time. A new setting is one entry here. */
export const CONFIG_REGISTRY = {
  smtp_url: def({
    title: 'Адрес SMTP-сервера',
    description:
      'smtp://пользователь:пароль@хост:порт или smtps://… Пусто — письма сохраняются как .eml-файлы в каталоге данных. Значение не показывается после сохранения.',
    group: 'mail',
    type: 'secret',
    secret: true,
    schema: z
      .string({ error: requiredOr(CONFIG_MSG.smtpUrl) })
      .trim()
      .max(2000, { error: MSG.tooLong(2000) })
      .refine((s) => s === '' || isSmtpUrl(s), { error: CONFIG_MSG.smtpUrl }),
    default: '',
  }),
  mail_from: def({
    title: 'Адрес отправителя',
    description: 'От чьего имени уходят письма: email или «Имя <email>».',
    group: 'mail',
    type: 'string',
    schema: text(3, 300).refine(isMailFrom, { error: CONFIG_MSG.mailFrom }),
    default: 'Форпост <noreply@forpost.local>',
  }),
  export_retention_days: int({
    title: 'Срок хранения выгрузок',
    description: 'Через сколько дней готовые выгрузки и отчёты удаляются.',
    group: 'files',
    unit: 'дн.',
    min: 1,
    max: 3650,
    default: 30,
  }),
  upload_screenshot_max_mb: int({
    title: 'Максимальный размер скриншота',
    description: 'Ограничение на загрузку одного скриншота.',
    group: 'files',
    unit: 'МБ',
    min: 1,
    max: 1024,
    default: 10,
  }),
  upload_sample_max_mb: int({
    title: 'Максимальный размер образца',
    description: 'Ограничение на загрузку одного образца (файла-доказательства).',
    group: 'files',
    unit: 'МБ',
    min: 1,
    max: 4096,
    default: 50,
  }),
  upload_avatar_max_mb: int({
    title: 'Максимальный размер аватара',
    description: 'Ограничение на загрузку изображения профиля.',
    group: 'files',
    unit: 'МБ',
    min: 1,
    max: 50,
    default: 2,
  }),
  upload_report_max_mb: int({
    title: 'Максимальный размер отчёта',
    description: 'Ограничение на загрузку файла отчёта.',
    group: 'files',
    unit: 'МБ',
    min: 1,
    max: 4096,
    default: 50,
  }),
  import_file_max_mb: int({
    title: 'Максимальный размер файла импорта',
    description: 'Ограничение на размер файла CSV/XLSX при импорте событий.',
    group: 'files',
    unit: 'МБ',
    min: 1,
    max: 10240,
    default: 200,
  }),
  session_idle_minutes: int({
    title: 'Время жизни сессии без активности',
    description: 'Сессия завершается, если пользователь не работал столько минут.',
    group: 'sessions',
    unit: 'мин.',
    min: 5,
    max: 43_200,
    default: 720,
  }),
  session_absolute_hours: int({
    title: 'Максимальное время жизни сессии',
    description: 'После этого срока нужно войти заново, даже при постоянной работе.',
    group: 'sessions',
    unit: 'ч',
    min: 1,
    max: 8760,
    default: 336,
  }),
  access_token_ttl_seconds: int({
    title: 'Время жизни токена доступа',
    description: 'Как часто браузер обновляет короткоживущий токен доступа.',
    group: 'sessions',
    unit: 'с',
    min: 5,
    max: 86_400,
    default: 900,
  }),
  lockout_max_failures: int({
    title: 'Неудачных попыток до блокировки',
    description: 'Сколько неверных паролей подряд блокируют вход для учётной записи или IP.',
    group: 'security',
    min: 1,
    max: 1000,
    default: 5,
  }),
  lockout_window_minutes: int({
    title: 'Окно подсчёта неудачных попыток',
    description: 'За какой период считаются неудачные попытки входа.',
    group: 'security',
    unit: 'мин.',
    min: 1,
    max: 1440,
    default: 15,
  }),
  lockout_minutes: int({
    title: 'Длительность блокировки',
    description: 'На сколько минут блокируется вход после превышения порога.',
    group: 'security',
    unit: 'мин.',
    min: 1,
    max: 1440,
    default: 15,
  }),
  classifier_url: def({
    title: 'Адрес сервиса классификации (ML)',
    description:
      'HTTP(S)-адрес внешнего сервиса машинного обучения (POST JSON, ответ за 10 с). Пусто — работает встроенный классификатор (тональность СМИ, фишинговые домены).',
    group: 'integrations',
    type: 'url',
    schema: optionalUrl,
    default: '',
  }),
  telegram_preview_url: def({
    title: 'Telegram: адрес веб-просмотра каналов',
    description:
      'Откуда сборщик читает публичные каналы без аккаунта: страницы <адрес>/s/<канал> (старые посты — ?before=<номер>). Только публичные каналы, задержка до интервала опроса, правки и удаления постов не видны. Пусто — сбор по веб-просмотру выключен.',
    group: 'integrations',
    type: 'url',
    schema: optionalUrl,
    default: 'https://t.me',
  }),
  telegram_preview_interval_seconds: int({
    title: 'Telegram: интервал опроса канала',
    description: 'Как часто сборщик перечитывает веб-просмотр одного канала (новые посты появятся не позже).',
    group: 'integrations',
    unit: 'с',
    min: 10,
    max: 86_400,
    default: 300,
  }),
  telegram_preview_pages: int({
    title: 'Telegram: страниц за проход',
    description:
      'Сколько страниц веб-просмотра (около 20 постов каждая) сборщик читает за один проход, догоняя пропущенное; при первом чтении канала — сколько последних страниц взять.',
    group: 'integrations',
    unit: 'стр.',
    min: 1,
    max: 100,
    default: 5,
  }),
  telegram_account_channels: int({
    title: 'Telegram: каналов на один аккаунт',
    description:
      'Сколько каналов в режиме «Аккаунт» читает один аккаунт-сборщик. Больше каналов на аккаунт — выше риск ограничений (FLOOD_WAIT) и блокировки; каналы сверх предела ждут свободного аккаунта.',
    group: 'integrations',
    unit: 'шт.',
    min: 1,
    max: 500,
    default: 20,
  }),
  classifier_modules: def({
    title: 'Модули для внешнего классификатора',
    description:
      'Коды модулей через запятую (например: domains,media), события которых отправляются во внешний сервис. Пусто — все модули.',
    group: 'integrations',
    type: 'string',
    schema: text(0, 500).refine((s) => s === '' || /^[a-z]+(\s*,\s*[a-z]+)*$/.test(s), {
      error: 'Ожидаются коды модулей через запятую',
    }),
    default: '',
  }),
  snapshot_timeout_seconds: int({
    title: 'Снимки доменов: таймаут проверки',
    description: 'Сколько секунд ждать ответа сайта (DNS, соединение и загрузка страницы) при снимке домена.',
    group: 'integrations',
    unit: 'с',
    min: 1,
    max: 120,
    default: 15,
  }),
  snapshot_max_body_kb: int({
    title: 'Снимки доменов: предел размера страницы',
    description: 'Сколько килобайт страницы читать при снимке; больше — загрузка обрывается, снимок записывается с причиной.',
    group: 'integrations',
    unit: 'КБ',
    min: 16,
    max: 20_480,
    default: 2048,
  }),
  snapshot_max_redirects: int({
    title: 'Снимки доменов: число перенаправлений',
    description: 'Сколько HTTP-перенаправлений проходить при снимке домена (каждый адрес проверяется заново).',
    group: 'integrations',
    min: 0,
    max: 10,
    default: 5,
  }),
  snapshot_on_create: int({
    title: 'Снимки доменов: снимок нового события',
    description:
      '1 — новые события модуля «Домены» (созданные в консоли, через API или импортом) в течение 30 с получают снимок; 0 — только по действию «Перепроверить». Домены, найденные поиском (DNS и CT), получают снимок всегда.',
    group: 'integrations',
    min: 0,
    max: 1,
    default: 0,
  }),
  snapshot_chromium_path: def({
    title: 'Снимки доменов: путь к Chromium',
    description:
      'Исполняемый файл браузера для скриншотов. Пусто — переменная окружения CHROMIUM_PATH или /usr/bin/chromium; если браузера нет, снимок сохраняется без скриншота.',
    group: 'integrations',
    type: 'string',
    schema: text(0, 500).refine((s) => s === '' || s.startsWith('/'), { error: 'Укажите абсолютный путь (начинается с /)' }),
    default: '',
  }),
  discovery_enabled: int({
    title: 'Поиск доменов: включён',
    description:
      '1 — запуски по расписанию и наблюдение за журналами сертификатов (CT) работают; 0 — только ручные запуски со страницы «Поиск доменов».',
    group: 'discovery',
    min: 0,
    max: 1,
    default: 0,
  }),
  discovery_schedule_hours: int({
    title: 'Поиск доменов: интервал запусков',
    description: 'Через сколько часов после прошлого запуска поиск по компании запускается снова (при включённом поиске).',
    group: 'discovery',
    unit: 'ч',
    min: 1,
    max: 720,
    default: 24,
  }),
  discovery_dns_servers: def({
    title: 'Поиск доменов: DNS-серверы',
    description: 'Адреса резолверов через запятую: IP или IP:порт (например: 77.88.8.8, 8.8.8.8). Запросы DNS идут только к ним.',
    group: 'discovery',
    type: 'string',
    schema: text(0, 500).refine((s) => s === '' || splitList(s).every(isResolverAddress), {
      error: 'Ожидаются IP-адреса (или IP:порт) через запятую',
    }),
    default: '77.88.8.8, 8.8.8.8',
  }),
  discovery_dns_concurrency: int({
    title: 'Поиск доменов: параллельных запросов DNS',
    description: 'Сколько имён проверяется одновременно.',
    group: 'discovery',
    min: 1,
    max: 1000,
    default: 50,
  }),
  discovery_dns_timeout_ms: int({
    title: 'Поиск доменов: таймаут DNS',
    description: 'Сколько ждать ответа резолвера на один запрос.',
    group: 'discovery',
    unit: 'мс',
    min: 50,
    max: 30_000,
    default: 2000,
  }),
  discovery_dns_retries: int({
    title: 'Поиск доменов: повторы DNS',
    description: 'Сколько раз повторить запрос после таймаута или SERVFAIL.',
    group: 'discovery',
    min: 0,
    max: 10,
    default: 2,
  }),
  discovery_dns_rate: int({
    title: 'Поиск доменов: запросов DNS в секунду',
    description: 'Предел частоты запросов ко всем резолверам вместе.',
    group: 'discovery',
    unit: 'в с',
    min: 1,
    max: 100_000,
    default: 200,
  }),
  discovery_rdap_servers: def({
    title: 'Поиск доменов: серверы RDAP',
    description:
      'Серверы RDAP сверх файла bootstrap: зона=адрес через запятую, * — для зон, которых нет ни здесь, ни в файле (например: ru=https://rdap.example.ru/). Зона, заданная здесь, важнее файла. Пусто — только серверы из файла.',
    group: 'discovery',
    type: 'string',
    schema: text(0, 2000).refine((s) => s === '' || parseRdapServers(s) !== null, {
      error: 'Ожидается зона=https://адрес через запятую (зона * — для остальных)',
    }),
    default: '',
  }),
  discovery_rdap_bootstrap: def({
    title: 'Поиск доменов: файл bootstrap RDAP',
    description:
      'Адрес файла IANA (RFC 9224) со списком серверов RDAP по зонам: загружается раз в сутки и хранится в памяти; серверы из него считаются заданными для своих зон. Пусто — только серверы, заданные вручную; пусто и там — без RDAP.',
    group: 'discovery',
    type: 'string',
    schema: optionalUrl,
    default: 'https://data.iana.org/rdap/dns.json',
  }),
  discovery_rdap_timeout_ms: int({
    title: 'Поиск доменов: таймаут RDAP',
    description: 'Сколько ждать ответа сервера RDAP на один запрос.',
    group: 'discovery',
    unit: 'мс',
    min: 100,
    max: 60_000,
    default: 5000,
  }),
  discovery_ct_logs: def({
    title: 'Поиск доменов: журналы сертификатов (CT)',
    description:
      'Адреса журналов Certificate Transparency (RFC 6962) через запятую. Пусто — наблюдение за сертификатами выключено.',
    group: 'discovery',
    type: 'string',
    schema: text(0, 2000).refine((s) => s === '' || splitList(s).every(isUrl), {
      error: 'Ожидаются адреса http(s):// через запятую',
    }),
    default: '',
  }),
  discovery_ct_threshold: int({
    title: 'Поиск доменов: порог схожести для CT',
    description: 'Имя из сертификата считается похожим на защищаемый домен от этой схожести (в процентах).',
    group: 'discovery',
    unit: '%',
    min: 1,
    max: 100,
    default: 80,
  }),
  discovery_ct_interval_seconds: int({
    title: 'Поиск доменов: опрос журналов CT',
    description: 'Как часто проверять журналы сертификатов на новые записи.',
    group: 'discovery',
    unit: 'с',
    min: 5,
    max: 86_400,
    default: 60,
  }),
  product_name: def({
    title: 'Название продукта',
    description: 'Показывается в заголовке страниц и в письмах.',
    group: 'general',
    type: 'string',
    schema: text(1, 100),
    default: 'Форпост',
  }),
} as const satisfies Record<string, ConfigDef<z.ZodType>>;

export type ConfigKey = keyof typeof CONFIG_REGISTRY;
export const CONFIG_KEYS = Object.keys(CONFIG_REGISTRY) as [ConfigKey, ...ConfigKey[]];
export type ConfigValues = { [K in ConfigKey]: z.output<(typeof CONFIG_REGISTRY)[K]['schema']> };
export type ConfigValue<K extends ConfigKey> = ConfigValues[K];

export const isConfigKey = (k: string): k is ConfigKey => Object.hasOwn(CONFIG_REGISTRY, k);

/** Checks a value against its setting's type; the message is Russian and safe to show. */
export function validateConfigValue<K extends ConfigKey>(
  key: K,
  value: unknown,
): { ok: true; value: ConfigValue<K> } | { ok: false; message: string } {
  const r = (CONFIG_REGISTRY[key].schema as z.ZodType).safeParse(value);
  if (r.success) return { ok: true, value: r.data as ConfigValue<K> };
  return { ok: false, message: r.error.issues[0]?.message ?? MSG.generic };
}

/* --- HTTP shapes --- */

export const configValue = z.union([
  z
    .string()
    .max(5000, { error: MSG.tooLong(5000) })
    .refine((v) => !v.includes('\u0000'), { error: 'Недопустимый символ в тексте' }),
  z.number(),
  z.boolean(),
  z.null(),
]);

export const createConfigRequest = z.strictObject({
  key: z.enum(CONFIG_KEYS, { error: CONFIG_MSG.unknownKey }),
  value: configValue,
});
export const updateConfigRequest = z.strictObject({ value: configValue });
/** `{id}` of /configs/{id} is the setting's key, e.g. /configs/product_name. */
export const configKeyParam = z.object({ id: z.string().max(100) });

export const configResponse = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  group: z.enum(CONFIG_GROUPS),
  type: z.enum(CONFIG_TYPES),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  is_secret: z.boolean(),
  /** The effective value; always null for secrets (write-only). */
  value: configValue,
  /** The value used when nothing is stored (environment or built-in); null for secrets. */
  default: configValue,
  /** A value is stored in the database (for secrets: the only thing revealed). */
  has_value: z.boolean(),
  updated_at: z.string().nullable(),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type ConfigItem = z.infer<typeof configResponse>;

export const configListQuery = z.object({ group: z.enum(CONFIG_GROUPS).optional() });
export const configListResponse = z.object({
  items: z.array(configResponse),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
