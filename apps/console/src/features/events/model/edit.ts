/*
 * The pure part of «Изменить» on the detail page: stored value ↔ form value ↔ wire value for every
 * field type of the registry, and which fields a duplicate (409) belongs to.
 */
import { type FieldDescriptor, inputFields, type ModuleDescriptor } from '@forpost/contract/modules';
import dayjs, { type Dayjs } from 'dayjs';

/** Long values (texts, links, lists) take a whole row, after the short ones — on the detail card and in its form. */
export const isWide = (f: FieldDescriptor) => f.type === 'text' || f.type === 'url' || f.type === 'string_list';

/** Stored value → form value. */
export function toForm(f: FieldDescriptor, v: unknown): unknown {
  // Unset stays unset (a switch shows «off» but sends nothing unless touched).
  if (v === null || v === undefined) return undefined;
  if (f.sensitive === 'card') return undefined; // never the number itself
  if (f.type === 'date' && typeof v === 'string') return dayjs(v, 'YYYY-MM-DD');
  if (f.type === 'datetime' && typeof v === 'string') return dayjs(v);
  return v;
}

/** Form value → wire value (null clears an optional field). */
export function toWire(f: FieldDescriptor, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) {
    const items = v.map((x) => String(x).trim()).filter(Boolean);
    return items.length ? items : null;
  }
  if (f.type === 'date') return dayjs.isDayjs(v) ? (v as Dayjs).format('YYYY-MM-DD') : v;
  if (f.type === 'datetime') return dayjs.isDayjs(v) ? (v as Dayjs).toISOString() : v;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  return v;
}

/** The input fields behind the module's fingerprint (a derived `x_punycode` stands for `x`). */
export function fingerprintInputs(m: ModuleDescriptor): string[] {
  const keys = new Set(inputFields(m).map((f) => f.key));
  return m.fingerprint.map((k) => (keys.has(k) ? k : k.replace(/_punycode$/, ''))).filter((k) => keys.has(k));
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
