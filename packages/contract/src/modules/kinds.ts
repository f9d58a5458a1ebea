/*
 * Field kinds: what each field type means to every layer that is not the API's SQL or the console's
 * widgets, in one table keyed by FieldType — a new type fails to compile until it has its row here
 * (and in the API's and the console's own per-type tables; kinds.compile.test.ts lists them all).
 */
import type { FieldDescriptor, FieldType, IndicatorKind } from './types';

/** STIX 2.1 cyber-observable object types a field's value can be (the interop export picks by the value's form). */
export type StixObservableType = 'domain-name' | 'ipv4-addr' | 'ipv6-addr' | 'url' | 'email-addr';

/** The whitelist subject slot a field fills; `host` = domain or IP by the value's form (whitelist.events.ts). */
export type WhitelistSlot = 'domain' | 'host' | 'url' | 'email' | 'ip' | 'inn';

export interface FieldKind {
  /** The JSON type of a stored value on the wire (dates, options and card masks are strings). */
  json: 'string' | 'number' | 'boolean' | 'string_list';
  /**
   * What the list's filter on such a field compares: `date` (a range of days or instants), `number`
   * (numeric equality and ranges), `id` (reference ids), `text` (the value as text).
   */
  filterValue: 'text' | 'number' | 'date' | 'datetime' | 'id';
  /** The list sorts by such a field unless the field says otherwise (long texts, lists, cards do not). */
  sortable: boolean;
  /** The indicator kind of a value by default (FieldDescriptor.indicator overrides; indicators.ts). */
  indicator: IndicatorKind | 'host' | 'url' | null;
  /** The whitelist subject slot the value fills, or null (not compared with the whitelist). */
  whitelist: WhitelistSlot | null;
  /** The stored form of a validated value: date-times in UTC ISO form, so that text comparison orders them. */
  store: ((v: string) => string) | null;
  /** A mail digest's text of the value (options by label); null: not shown there (long text, reference ids). */
  mailText: ((v: unknown, f: FieldDescriptor) => string) | null;
  /** When a message becomes an event: its link goes to the first `link` field, its text to the first `body` one. */
  fromMessage: 'link' | 'body' | null;
  /** STIX 2.1 observable types the value can be, or null (no STIX observable: phone, ИНН, card, plain data). */
  stix: readonly [StixObservableType, ...StixObservableType[]] | null;
}

const plainText = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
const optionText = (v: unknown, f: FieldDescriptor) => f.options?.find((o) => o.value === v)?.label ?? String(v);
const utcIso = (v: string) => new Date(v).toISOString();
const HOST_STIX = ['domain-name', 'ipv4-addr', 'ipv6-addr'] as const;

const k = (o: Partial<FieldKind> & Pick<FieldKind, 'json'>): FieldKind => ({
  filterValue: 'text',
  sortable: true,
  indicator: null,
  whitelist: null,
  store: null,
  mailText: plainText,
  fromMessage: null,
  stix: null,
  ...o,
});

export const FIELD_KINDS: Record<FieldType, FieldKind> = {
  string: k({ json: 'string' }),
  text: k({ json: 'string', sortable: false, mailText: null, fromMessage: 'body' }),
  domain: k({ json: 'string', indicator: 'domain', whitelist: 'domain', stix: HOST_STIX }),
  host: k({ json: 'string', indicator: 'host', whitelist: 'host', stix: HOST_STIX }),
  url: k({ json: 'string', indicator: 'url', whitelist: 'url', fromMessage: 'link', stix: ['url'] }),
  email: k({ json: 'string', indicator: 'email', whitelist: 'email', stix: ['email-addr'] }),
  ip: k({ json: 'string', indicator: 'ip', whitelist: 'ip', stix: ['ipv4-addr', 'ipv6-addr'] }),
  phone: k({ json: 'string', indicator: 'phone' }),
  integer: k({ json: 'number', filterValue: 'number' }),
  number: k({ json: 'number', filterValue: 'number' }),
  boolean: k({ json: 'boolean', mailText: (v) => (v ? 'Да' : 'Нет') }),
  date: k({ json: 'string', filterValue: 'date' }),
  datetime: k({ json: 'string', filterValue: 'datetime', store: utcIso }),
  enum: k({ json: 'string', mailText: optionText }),
  card: k({ json: 'string', sortable: false }),
  inn: k({ json: 'string', indicator: 'inn', whitelist: 'inn' }),
  ogrn: k({ json: 'string', indicator: 'ogrn' }),
  string_list: k({ json: 'string_list', sortable: false }),
  ref: k({ json: 'number', filterValue: 'id', mailText: null }),
};

/** A validated value in its stored form (null and undefined as they are). */
export function storedValue(f: Pick<FieldDescriptor, 'type'>, v: unknown): unknown {
  const store = FIELD_KINDS[f.type].store;
  return store && typeof v === 'string' ? store(v) : v;
}

/** The first of the fields a message's link (`link`) or text (`body`) goes to. */
export const messageTarget = <F extends Pick<FieldDescriptor, 'type'>>(fields: readonly F[], slot: 'link' | 'body') =>
  fields.find((f) => FIELD_KINDS[f.type].fromMessage === slot);
