/*
 * A cell's text → the typed value a field takes, or a Russian reason. What a person types in Excel
 * is accepted: «1 234,5», «да», «01.03.2026», «01.03.2026 10:00» (Moscow time), option labels.
 * The field's own validator (the same one the API uses) has the last word.
 */
import { IMPORT_MSG } from '@forpost/contract/imports';
import { type FieldDescriptor, type FieldOption, type FieldType, isRealDate } from '@forpost/contract/modules';

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };
const ok = (value: unknown): Parsed => ({ ok: true, value });
const fail = (error: string): Parsed => ({ ok: false, error });

/** Moscow has been UTC+3 all year since 2014; date-times without an offset are Moscow time. */
const DEFAULT_OFFSET = '+03:00';

export function parseNumber(s: string): number | null {
  let t = s.replace(/[\s\u00a0\u202f']/g, '');
  if (t.includes(',') && t.includes('.')) t = t.replaceAll(',', '');
  else t = t.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const TRUE = new Set(['да', 'yes', 'y', 'true', '1', '+', 'истина', 'д']);
const FALSE = new Set(['нет', 'no', 'n', 'false', '0', '-', 'ложь', 'н']);
export function parseBoolean(s: string): boolean | null {
  const t = s.trim().toLowerCase();
  if (TRUE.has(t)) return true;
  if (FALSE.has(t)) return false;
  return null;
}

const pad = (n: string | number) => String(n).padStart(2, '0');

/**
 * 'YYYY-MM-DD' from ISO, 'DD.MM.YYYY', 'DD/MM/YYYY' (a time part is ignored); null otherwise, and for a
 * day that does not exist — so the error names the formats an import accepts, not only the API's.
 */
export function parseDate(s: string): string | null {
  const t = s.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(t);
  const ru = iso ? null : /^(\d{1,2})[./](\d{1,2})[./](\d{4})(?:\s.*)?$/.exec(t);
  const d = iso
    ? `${iso[1]}-${pad(iso[2] as string)}-${pad(iso[3] as string)}`
    : ru
      ? `${ru[3]}-${pad(ru[2] as string)}-${pad(ru[1] as string)}`
      : null;
  return d && isRealDate(d) ? d : null;
}

/** An ISO 8601 date-time with an offset; input without one is Moscow time. */
export function parseDateTime(s: string): string | null {
  const t = s.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (m) {
    const off = m[8]
      ? m[8].toUpperCase() === 'Z'
        ? 'Z'
        : m[8].includes(':')
          ? m[8]
          : `${m[8].slice(0, 3)}:${m[8].slice(3)}`
      : DEFAULT_OFFSET;
    return `${m[1]}-${m[2]}-${m[3]}T${pad(m[4] as string)}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${off}`;
  }
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (m)
    return `${m[3]}-${pad(m[2] as string)}-${pad(m[1] as string)}T${pad(m[4] ?? '0')}:${m[5] ?? '00'}:${m[6] ?? '00'}${DEFAULT_OFFSET}`;
  const d = parseDate(t);
  if (d && d === t) return `${d}T00:00:00${DEFAULT_OFFSET}`;
  return null;
}

/** An option by its value or its Russian label (case-insensitive). */
export function matchOption(options: readonly FieldOption[], s: string): string | null {
  const t = s.trim().toLowerCase();
  return options.find((o) => o.value.toLowerCase() === t || o.label.toLowerCase() === t)?.value ?? null;
}

export const optionList = (options: readonly FieldOption[]) => options.map((o) => o.label).join(', ');

/** A reference list: lower-cased names → id, and the ids. */
export interface NameIndex {
  byName: Map<string, number>;
  ids: Set<number>;
}
export function nameIndex(rows: readonly { id: number; names: readonly (string | null | undefined)[] }[]): NameIndex {
  const byName = new Map<string, number>();
  const ids = new Set<number>();
  for (const r of rows) {
    ids.add(r.id);
    for (const n of r.names) if (n && !byName.has(n.trim().toLowerCase())) byName.set(n.trim().toLowerCase(), r.id);
  }
  return { byName, ids };
}

type CellParser = (raw: string, f: FieldDescriptor, refs: (f: FieldDescriptor) => NameIndex | undefined) => Parsed;
/** The text as it is: the field's validator reads it. */
const asText: CellParser = (raw) => ok(raw);
const numberCell =
  (error: string): CellParser =>
  (raw) => {
    const n = parseNumber(raw);
    return n === null ? fail(error) : ok(n);
  };

/** A cell's text → the value the field's validator reads next, per field type. */
const CELL_PARSERS: Record<FieldType, CellParser> = {
  string: asText,
  text: asText,
  domain: asText,
  host: asText,
  url: asText,
  email: asText,
  ip: asText,
  phone: asText,
  inn: asText,
  ogrn: asText,
  integer: numberCell(IMPORT_MSG.integer),
  number: numberCell(IMPORT_MSG.number),
  boolean: (raw) => {
    const b = parseBoolean(raw);
    return b === null ? fail(IMPORT_MSG.boolean) : ok(b);
  },
  date: (raw) => {
    const d = parseDate(raw);
    return d ? ok(d) : fail(IMPORT_MSG.date);
  },
  datetime: (raw) => {
    const d = parseDateTime(raw);
    return d ? ok(d) : fail(IMPORT_MSG.datetime);
  },
  enum: (raw, f) => {
    const o = matchOption(f.options ?? [], raw);
    return o === null ? fail(IMPORT_MSG.option(optionList(f.options ?? []))) : ok(o);
  },
  string_list: (raw) =>
    ok(
      raw
        .split(/[,;\n]/)
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  card: (raw) => ok(raw.replace(/[\s-]/g, '')),
  ref: (raw, f, refs) => {
    const index = refs(f);
    const asId = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
    const byName = index?.byName.get(raw.trim().toLowerCase());
    if (byName !== undefined) return ok(byName);
    if (asId !== null && index?.ids.has(asId)) return ok(asId);
    return fail(IMPORT_MSG.unknownRef);
  },
};

/**
 * A module or catalogue field's cell → its input value. `refs` resolves `ref` fields by id or name.
 * Only non-empty cells come here.
 */
export function parseField(f: FieldDescriptor, raw: string, refs: (f: FieldDescriptor) => NameIndex | undefined): Parsed {
  const p = CELL_PARSERS[f.type](raw, f, refs);
  if (!p.ok) return p;
  const r = f.input.safeParse(p.value);
  if (!r.success) return fail(r.error.issues[0]?.message ?? IMPORT_MSG.required);
  return ok(r.data);
}
