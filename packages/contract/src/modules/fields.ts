/* Field builders: one call per module field, carrying its label, validation and list/filter/import metadata. */
import { z } from 'zod';
import { refang } from '../helpers';
import { MSG } from '../messages';
import { cardNumberSchema, emailSchema, innSchema, isDomain, isIPv4, isIPv6, isUrl, ogrnSchema } from '../validation';
import { EVENT_MSG } from './common';
import { FIELD_KINDS } from './kinds';
import type { FieldDescriptor, FieldOption, FieldType, FilterKind, IndicatorKind, RefList } from './types';

export interface FieldOpts {
  required?: boolean;
  search?: boolean;
  filter?: FilterKind;
  sortable?: boolean;
  aliases?: readonly string[];
  hint?: string;
  indicator?: IndicatorKind | false;
  fillFrom?: FieldDescriptor['fillFrom'];
  /** The list column's width in px, when the type's default is too narrow (an event's long title). */
  listWidth?: number;
}

const isIp = (s: string) => isIPv4(s) || isIPv6(s);

/** A type error message that still says 'Обязательное поле' when the value is missing. */
export const typeError =
  (message: string) =>
  (iss: { input?: unknown }): string =>
    iss.input === undefined || iss.input === null ? MSG.required : message;

/** 'YYYY-MM-DD' naming a day that exists (no 30 February). */
export function isRealDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const str = () => z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true });
/** An indicator field: a defanged value («evil[.]com», «hxxps://…») is stored as it is meant (`refang`). */
const indicator = () => str().overwrite(refang);

export const ipSchema = indicator().refine(isIp, { error: EVENT_MSG.ip });
/**
 * Longest URL a field stores, characters: kept in full (feeds carry tracking URLs of several
 * thousand characters; a row is never dropped for its URL's length below this).
 */
export const URL_MAX_LENGTH = 32_768;
/**
 * A domain field: a host name, or an IPv4/IPv6 address where a feed has no name (lower-cased). The
 * same rule for the API and the import.
 */
export const domainFieldSchema = indicator()
  .toLowerCase()
  .refine((s) => isIp(s) || isDomain(s), { error: MSG.domain });
export const hostSchema = indicator()
  .toLowerCase()
  .refine((s) => isIp(s) || isDomain(s), { error: EVENT_MSG.host });
export const phoneSchema = str().refine((s) => /^\+?[\d\s()-]{7,20}$/.test(s) && s.replace(/\D/g, '').length >= 7, {
  error: EVENT_MSG.phone,
});
export const dateSchema = str().refine(isRealDate, { error: EVENT_MSG.date });
/** ISO 8601 date-time with an offset (`2026-03-01T10:00:00Z`, `…+03:00`). */
export const datetimeSchema = z.iso.datetime({ offset: true, error: EVENT_MSG.datetime });

function base(
  key: string,
  label: string,
  type: FieldType,
  input: z.ZodType,
  o: FieldOpts = {},
  extra: Partial<FieldDescriptor> = {},
): FieldDescriptor {
  return {
    key,
    label,
    type,
    input,
    required: o.required ?? false,
    derived: false,
    search: o.search ?? false,
    filter: o.filter ?? null,
    sortable: o.sortable ?? FIELD_KINDS[type].sortable,
    aliases: o.aliases ?? [],
    ...(o.hint ? { hint: o.hint } : {}),
    ...(o.indicator !== undefined ? { indicator: o.indicator } : {}),
    ...(o.fillFrom ? { fillFrom: o.fillFrom } : {}),
    ...(o.listWidth ? { listWidth: o.listWidth } : {}),
    ...extra,
  };
}

/** Builders of module fields, by type. */
export const field = {
  string: (key: string, label: string, o: FieldOpts & { max?: number; pattern?: [RegExp, string] } = {}) => {
    const max = o.max ?? 500;
    let s = str().max(max, { error: MSG.tooLong(max) });
    if (o.pattern) {
      const [re, msg] = o.pattern;
      s = s.regex(re, { error: msg });
    }
    return base(key, label, 'string', s, o);
  },
  text: (key: string, label: string, o: FieldOpts & { max?: number } = {}) => {
    const max = o.max ?? 5000;
    return base(key, label, 'text', str().max(max, { error: MSG.tooLong(max) }), o);
  },
  domain: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'domain', domainFieldSchema, o),
  host: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'host', hostSchema, o),
  url: (key: string, label: string, o: FieldOpts = {}) =>
    base(
      key,
      label,
      'url',
      indicator()
        .refine(isUrl, { error: MSG.url })
        .refine((s) => s.length <= URL_MAX_LENGTH, { error: MSG.tooLong(URL_MAX_LENGTH) }),
      o,
    ),
  email: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'email', emailSchema, o),
  ip: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'ip', ipSchema, o),
  phone: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'phone', phoneSchema, o),
  integer: (key: string, label: string, o: FieldOpts & { min?: number; max?: number } = {}) => {
    let s = z.number({ error: typeError(EVENT_MSG.integer) }).int({ error: EVENT_MSG.integer });
    s = s.min(o.min ?? 0, { error: EVENT_MSG.tooSmall(o.min ?? 0) });
    s = s.max(o.max ?? Number.MAX_SAFE_INTEGER, { error: EVENT_MSG.tooBig(o.max ?? Number.MAX_SAFE_INTEGER) });
    return base(key, label, 'integer', s, o);
  },
  number: (key: string, label: string, o: FieldOpts & { min?: number; max?: number } = {}) => {
    let s = z.number({ error: typeError(EVENT_MSG.number) });
    if (o.min !== undefined) s = s.min(o.min, { error: EVENT_MSG.tooSmall(o.min) });
    if (o.max !== undefined) s = s.max(o.max, { error: EVENT_MSG.tooBig(o.max) });
    return base(key, label, 'number', s, o);
  },
  boolean: (key: string, label: string, o: FieldOpts = {}) =>
    base(key, label, 'boolean', z.boolean({ error: typeError(EVENT_MSG.boolean) }), { filter: 'bool', ...o }),
  date: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'date', dateSchema, { filter: 'range', ...o }),
  datetime: (key: string, label: string, o: FieldOpts = {}) =>
    base(key, label, 'datetime', datetimeSchema, { filter: 'range', ...o }),
  enum: (key: string, label: string, options: readonly FieldOption[], o: FieldOpts = {}) => {
    const values = options.map((x) => x.value) as [string, ...string[]];
    return base(key, label, 'enum', z.enum(values, { error: typeError(EVENT_MSG.option) }), { filter: 'in', ...o }, { options });
  },
  card: (key: string, label: string, o: FieldOpts = {}) =>
    base(key, label, 'card', cardNumberSchema, { filter: 'eq', ...o }, { sensitive: 'card' }),
  inn: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'inn', innSchema, { filter: 'eq', ...o }),
  ogrn: (key: string, label: string, o: FieldOpts = {}) => base(key, label, 'ogrn', ogrnSchema, { filter: 'eq', ...o }),
  stringList: (key: string, label: string, o: FieldOpts & { item?: z.ZodType<string>; maxItems?: number } = {}) => {
    const maxItems = o.maxItems ?? 100;
    const item = o.item ?? str().max(200, { error: MSG.tooLong(200) });
    return base(
      key,
      label,
      'string_list',
      z.array(item, { error: typeError(EVENT_MSG.list) }).max(maxItems, { error: EVENT_MSG.listTooLong(maxItems) }),
      o,
    );
  },
  ref: (key: string, label: string, ref: RefList, o: FieldOpts = {}) =>
    base(
      key,
      label,
      'ref',
      z
        .number({ error: typeError(EVENT_MSG.integer) })
        .int({ error: EVENT_MSG.integer })
        .positive({ error: EVENT_MSG.unknownRef }),
      { filter: 'in', ...o },
      { ref },
    ),
  /** A field the server computes (never accepted on input). */
  derived: (key: string, label: string, type: FieldType, o: FieldOpts = {}, extra: Partial<FieldDescriptor> = {}) => ({
    ...base(key, label, type, z.never(), o, extra),
    derived: true,
  }),
};

/** Common platforms where impersonation is found (brand, management). */
export const PLATFORM_OPTIONS: readonly FieldOption[] = [
  { value: 'website', label: 'Сайт' },
  { value: 'social', label: 'Социальная сеть' },
  { value: 'telegram', label: 'Telegram' },
  { value: 'marketplace', label: 'Маркетплейс' },
  { value: 'app_store', label: 'Магазин приложений' },
  { value: 'ads', label: 'Реклама' },
  { value: 'other', label: 'Другое' },
];
