/*
 * The pure part of «Изменить» on the detail page: stored value ↔ form value ↔ wire value for every
 * field type of the registry, and which fields a duplicate (409) belongs to.
 */
import { type FieldDescriptor, type FieldType, inputFields, type ModuleDescriptor } from '@forpost/contract/modules';
import dayjs, { type Dayjs } from 'dayjs';

/** How a field type's value lives in a form. */
interface FormKind {
  /** Long values (texts, links, lists) take a whole row, after the short ones — on the detail card and in its form. */
  wide: boolean;
  /** Stored value → form value (a picker's Dayjs); absent: the value itself. */
  toForm?: (v: string) => unknown;
  /** Form value → wire value; absent: the value itself (strings trimmed). */
  toWire?: (v: unknown) => unknown;
  /** The form holds the wire value, so the field's own validator checks it as typed (not for pickers and switches). */
  checksAsTyped: boolean;
}

const plain: FormKind = { wide: false, checksAsTyped: true };
const wide: FormKind = { wide: true, checksAsTyped: true };

export const FORM_KINDS: Record<FieldType, FormKind> = {
  string: plain,
  text: wide,
  url: wide,
  string_list: wide,
  domain: plain,
  host: plain,
  email: plain,
  ip: plain,
  phone: plain,
  integer: plain,
  number: plain,
  enum: plain,
  card: plain,
  inn: plain,
  ogrn: plain,
  ref: plain,
  boolean: { wide: false, checksAsTyped: false },
  date: {
    wide: false,
    checksAsTyped: false,
    toForm: (v) => dayjs(v, 'YYYY-MM-DD'),
    toWire: (v) => (dayjs.isDayjs(v) ? (v as Dayjs).format('YYYY-MM-DD') : v),
  },
  datetime: {
    wide: false,
    checksAsTyped: false,
    toForm: (v) => dayjs(v),
    toWire: (v) => (dayjs.isDayjs(v) ? (v as Dayjs).toISOString() : v),
  },
};

/** Long values (texts, links, lists) take a whole row, after the short ones — on the detail card and in its form. */
export const isWide = (f: FieldDescriptor) => FORM_KINDS[f.type].wide;

/** Stored value → form value. */
export function toForm(f: FieldDescriptor, v: unknown): unknown {
  // Unset stays unset (a switch shows «off» but sends nothing unless touched).
  if (v === null || v === undefined) return undefined;
  if (f.sensitive === 'card') return undefined; // never the number itself
  const convert = FORM_KINDS[f.type].toForm;
  return convert && typeof v === 'string' ? convert(v) : v;
}

/** Form value → wire value (null clears an optional field). */
export function toWire(f: FieldDescriptor, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) {
    const items = v.map((x) => String(x).trim()).filter(Boolean);
    return items.length ? items : null;
  }
  const convert = FORM_KINDS[f.type].toWire;
  if (convert) return convert(v);
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  return v;
}

/** The input fields behind the module's fingerprint (a derived `x_punycode` stands for `x`). */
export function fingerprintInputs(m: ModuleDescriptor): string[] {
  const keys = new Set(inputFields(m).map((f) => f.key));
  return m.fingerprint.map((k) => (keys.has(k) ? k : k.replace(/_punycode$/, ''))).filter((k) => keys.has(k));
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
