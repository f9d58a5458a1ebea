/* Enumerations, reference seeds and messages shared by every event module. */
import type { FieldOption, PrioritySeed, RefSeed, StatusSeed } from './types';

export const SOURCES = ['Telegram', 'Yandex', 'Google', 'Other', 'Discovery', 'CT'] as const;
export type Source = (typeof SOURCES)[number];
export const SOURCE_LABELS: Record<Source, string> = {
  Telegram: 'Telegram',
  Yandex: 'Яндекс',
  Google: 'Google',
  Other: 'Другое',
  Discovery: 'Поиск доменов',
  CT: 'Журналы сертификатов (CT)',
};

export const ML_STATES = ['NotDetermined', 'InQueueToML', 'SentToML', 'Failed', 'Done'] as const;
export type MlState = (typeof ML_STATES)[number];
export const ML_STATE_LABELS: Record<MlState, string> = {
  NotDetermined: 'Не определено',
  InQueueToML: 'В очереди на ML',
  SentToML: 'Отправлено в ML',
  Failed: 'Ошибка ML',
  Done: 'Обработано ML',
};

export const WHITELIST_KINDS = ['whitelistClient', 'whitelistPartner', 'undefined'] as const;
export type WhitelistKind = (typeof WHITELIST_KINDS)[number];
export const WHITELIST_KIND_LABELS: Record<WhitelistKind, string> = {
  whitelistClient: 'Клиент',
  whitelistPartner: 'Партнёр',
  undefined: 'Не определено',
};

export const CONNOTATIONS = ['Positive', 'Negative', 'Neutral', 'Undefined'] as const;
export type Connotation = (typeof CONNOTATIONS)[number];
export const CONNOTATION_LABELS: Record<Connotation, string> = {
  Positive: 'Позитивная',
  Negative: 'Негативная',
  Neutral: 'Нейтральная',
  Undefined: 'Не определена',
};

export const TRI_STATES = ['not_defined', 'yes', 'no'] as const;
export type TriState = (typeof TRI_STATES)[number];
export const TRI_STATE_LABELS: Record<TriState, string> = { not_defined: 'Не определено', yes: 'Да', no: 'Нет' };

export const PROVIDERS = ['Netoscope'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const PROVIDER_LABELS: Record<Provider, string> = { Netoscope: 'Нетоскоп' };

export const optionsOf = <T extends string>(labels: Record<T, string>): FieldOption[] =>
  (Object.entries(labels) as [T, string][]).map(([value, label]) => ({ value, label }));

/** Statuses every module has unless it declares its own. */
export const DEFAULT_STATUSES: readonly StatusSeed[] = [
  { code: 'new', name: 'Новое', is_final: false, color: 'blue' },
  { code: 'in_progress', name: 'В работе', is_final: false, color: 'gold' },
  { code: 'awaiting', name: 'Ожидает ответа', is_final: false, color: 'purple' },
  { code: 'resolved', name: 'Решено', is_final: true, color: 'green' },
  { code: 'false_positive', name: 'Ложное срабатывание', is_final: true, color: 'default' },
];
/** The status of a new event. */
export const INITIAL_STATUS = 'new';

export const DEFAULT_PRIORITIES: readonly PrioritySeed[] = [
  { code: 'low', name: 'Низкий', level: 1, color: 'default' },
  { code: 'medium', name: 'Средний', level: 2, color: 'blue' },
  { code: 'high', name: 'Высокий', level: 3, color: 'orange' },
  { code: 'critical', name: 'Критический', level: 4, color: 'red' },
];

/** Decisions of modules that judge a found resource (domains, brand, management, repositories). */
export const TAKEDOWN_DECISIONS: readonly RefSeed[] = [
  { code: 'block', name: 'Заблокировать' },
  { code: 'monitor', name: 'Наблюдать' },
  { code: 'ignore', name: 'Игнорировать' },
  { code: 'legitimate', name: 'Легитимный ресурс' },
];

/** Russian messages of the event engine. */
export const EVENT_MSG = {
  ip: 'Неверный IP-адрес',
  host: 'Укажите домен или IP-адрес',
  phone: 'Неверный формат телефона',
  badIndicator: 'Индикатор — вид:значение, например ip:185.1.2.3 или domain:example.ru',
  date: 'Неверная дата (ожидается ГГГГ-ММ-ДД)',
  datetime: 'Неверные дата и время',
  integer: 'Ожидается целое число',
  number: 'Ожидается число',
  option: 'Недопустимое значение',
  boolean: 'Ожидается да или нет',
  tooSmall: (n: number) => `Не меньше ${n}`,
  tooBig: (n: number) => `Не больше ${n}`,
  list: 'Ожидается список значений',
  listTooLong: (n: number) => `Не более ${n} значений`,
  csvInts: 'Ожидается список чисел через запятую',
  port: 'Порт — число от 1 до 65535',
  cve: 'Неверный идентификатор CVE (например, CVE-2024-12345)',
  mcc: 'MCC — четыре цифры',
  okved: 'Неверный код ОКВЭД',
  expiry: 'Срок действия — ММ/ГГ',
  color: 'Цвет — в формате #RRGGBB',
  moduleNotFound: 'Модуль не найден',
  eventNotFound: 'Событие не найдено',
  companyNotFound: 'Компания не найдена',
  companyRequired: 'Укажите компанию',
  duplicate: 'Такое событие уже есть',
  unknownStatus: 'Неизвестный статус',
  unknownPriority: 'Неизвестный приоритет',
  unknownDecision: 'Неизвестное решение',
  unknownTag: 'Неизвестный тег',
  unknownRef: 'Значение не найдено в справочнике',
  batchNotFound: 'Часть событий не найдена — операция не выполнена',
  batchForbidden: 'Нет прав на часть событий — операция не выполнена',
  badRules: 'Неверный формат правил',
  allowlisted: 'Домен в списке разрешённых — событие не создаётся',
  allowlistDuplicate: 'Домен уже в списке разрешённых',
  allowlistNotFound: 'Запись списка разрешённых не найдена',
  actionUnknown: 'Неизвестное действие',
  noCard: 'В событии нет номера карты',
  sortUnknown: 'Сортировка по этому полю недоступна',
  cursorSort: 'Курсор страницы работает только с сортировкой по дате создания (created_at или -created_at)',
  cursorInvalid: 'Неверный курсор страницы: возьмите next_cursor из предыдущего ответа',
  fileNotFound: 'Файл не найден',
  leakNotFound: 'Утечка не найдена',
  leakDuplicate: 'Утечка с таким названием уже есть',
  leakTypeNotFound: 'Тип утечки не найден',
  mediaTypeNotFound: 'Тип СМИ не найден',
  mediaTypeDuplicate: 'Тип СМИ с таким названием уже есть',
  mediaTypeInUse: 'Тип СМИ используется в событиях',
  snapshotNotFound: 'Снимок не найден',
  leakInUse: 'Утечка используется в событиях — сначала измените их',
  leakAlreadyLinked: 'Утечка уже привязана к аккаунту',
  leakNotLinked: 'Утечка не привязана к аккаунту',
  avatarPlacement: 'Аватар не привязывается к событию или компании',
  companyMismatch: 'Компания не совпадает с компанией события',
} as const;
