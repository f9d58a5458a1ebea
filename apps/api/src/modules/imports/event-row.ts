/*
 * A file row → the record of an event to write, or the row's errors (Russian, per column). The
 * common columns (company, title, status …) are read by name against the lookups loaded once per
 * job; the module's own columns by their field descriptor (cells.ts).
 */
import { IMPORT_MSG, type ImportField } from '@forpost/contract/imports';
import {
  EVENT_MSG,
  fieldOf,
  hasDecisions,
  ML_STATE_LABELS,
  type ModuleDescriptor,
  optionsOf,
  SOURCE_LABELS,
  storedValue,
} from '@forpost/contract/modules';
import type { CardVault, Refs } from '../events/index';
import { MODULE_DISABLED_MSG, type NewEventSpec, newEventData } from '../events/index';
import { matchOption, type NameIndex, optionList, parseDateTime, parseField } from './cells';
import type { SourceRow } from './rows';
import { type ImportContext, type RowError, rowError } from './targets';

export interface EventLookups {
  companies: NameIndex;
  /** Companies with a list of enabled modules that does not include this one. */
  disabled: Set<number>;
  tags: NameIndex;
  refs: Partial<Record<string, NameIndex>>;
}

/** A valid row: what a new event is given (module input: only the cells that had a value). */
export interface EventRecord extends NewEventSpec {
  row: number;
  /** Whitelist mark of a new event (set by `enrich`; undefined = not looked up yet). */
  whitelistKind?: string | null;
  /** No whitelist entry can match this row's company (nothing to look up). */
  noWhitelist?: boolean;
}

/** What a row is read with. */
export interface RowReader {
  m: ModuleDescriptor;
  fields: readonly ImportField[];
  refs: Refs;
  vault: CardVault;
}

type Draft = Omit<Partial<EventRecord>, 'companyId'> & { input: Record<string, unknown>; companyId: number | null };
/** Reads one common cell into the draft; returns the error, if any. */
type CommonCell = (raw: string, rr: RowReader, lookups: EventLookups, rec: Draft) => string | undefined;

const SOURCE_OPTIONS = optionsOf(SOURCE_LABELS);
const ML_OPTIONS = optionsOf(ML_STATE_LABELS);

/** A status, priority or decision by its number, name or code. */
function byCode(list: readonly { id: number; code: string; name: string }[], raw: string): number | undefined {
  const t = raw.trim().toLowerCase();
  if (/^\d+$/.test(t)) return list.find((x) => x.id === Number(t))?.id;
  return list.find((x) => x.name.toLowerCase() === t || x.code.toLowerCase() === t)?.id;
}

/** Tag names separated by commas, semicolons or line breaks; the first unknown one is the error. */
function readTags(raw: string, tags: NameIndex, rec: Draft): string | undefined {
  const ids: number[] = [];
  rec.tags = ids;
  for (const name of raw
    .split(/[,;\n]/)
    .map((x) => x.trim())
    .filter(Boolean)) {
    const id = tags.byName.get(name.toLowerCase());
    if (id === undefined) return IMPORT_MSG.unknownTag(name);
    if (!ids.includes(id)) ids.push(id);
  }
  return undefined;
}

const COMMON_CELLS: Record<string, CommonCell> = {
  company_id(raw, _rr, lookups, rec) {
    const t = raw.trim().toLowerCase();
    const id =
      lookups.companies.byName.get(t) ?? (/^\d+$/.test(t) && lookups.companies.ids.has(Number(t)) ? Number(t) : undefined);
    if (id === undefined) return IMPORT_MSG.companyUnknown;
    rec.companyId = id;
  },
  title(raw, _rr, _l, rec) {
    if (raw.length > 500) return IMPORT_MSG.titleTooLong;
    rec.title = raw;
  },
  status_id(raw, rr, _l, rec) {
    rec.statusId = byCode(rr.refs.statuses(rr.m.code), raw);
    if (rec.statusId === undefined) return IMPORT_MSG.unknownStatus;
  },
  priority_id(raw, rr, _l, rec) {
    rec.priorityId = byCode(rr.refs.priorities(rr.m.code), raw);
    if (rec.priorityId === undefined) return IMPORT_MSG.unknownPriority;
  },
  decision_id(raw, rr, _l, rec) {
    rec.decisionId = hasDecisions(rr.m) ? byCode(rr.refs.decisions(rr.m.code), raw) : undefined;
    if (rec.decisionId === undefined) return IMPORT_MSG.unknownDecision;
  },
  source(raw, _rr, _l, rec) {
    rec.source = matchOption(SOURCE_OPTIONS, raw) ?? undefined;
    if (rec.source === undefined) return IMPORT_MSG.option(optionList(SOURCE_OPTIONS));
  },
  ml_state(raw, _rr, _l, rec) {
    rec.mlState = matchOption(ML_OPTIONS, raw) ?? undefined;
    if (rec.mlState === undefined) return IMPORT_MSG.option(optionList(ML_OPTIONS));
  },
  tags: (raw, _rr, lookups, rec) => readTags(raw, lookups.tags, rec),
  detected_at(raw, _rr, _l, rec) {
    rec.detectedAt = parseDateTime(raw) ?? undefined;
    if (rec.detectedAt === undefined) return IMPORT_MSG.datetime;
  },
};

/** A module field's cell (derived fields are never read); returns the error, if any. */
function readModuleCell(rr: RowReader, key: string, raw: string, lookups: EventLookups, rec: Draft): string | undefined {
  const f = fieldOf(rr.m, key);
  if (!f || f.derived) return undefined;
  const p = parseField(f, raw, (x) => (x.ref ? lookups.refs[x.ref] : undefined));
  if (!p.ok) return p.error;
  rec.input[key] = storedValue(f, p.value);
}

/** The import fields by key, built once per field list (a job reads every row with the same one). */
const FIELD_INDEX = new WeakMap<readonly ImportField[], Map<string, ImportField>>();
function fieldIndex(fields: readonly ImportField[]): Map<string, ImportField> {
  let index = FIELD_INDEX.get(fields);
  if (!index) {
    index = new Map(fields.map((f) => [f.key, f]));
    FIELD_INDEX.set(fields, index);
  }
  return index;
}

/** The row's record, or its errors: cell by cell, then the row as a whole (required columns, its company). */
export function prepareEventRow(
  rr: RowReader,
  r: SourceRow,
  mapping: readonly (string | null)[],
  headers: readonly string[],
  lookups: EventLookups,
  ctx: ImportContext,
): { record?: EventRecord; errors: RowError[] } {
  const errors: RowError[] = [];
  const rec: Draft = { row: r.row, input: Object.create(null), companyId: ctx.defaultCompanyId };
  const seen = new Set<string>();
  for (let i = 0; i < mapping.length; i++) {
    const key = mapping[i];
    if (!key) continue;
    seen.add(key);
    const raw = r.cells[i] ?? '';
    const f = fieldIndex(rr.fields).get(key);
    const error =
      raw === ''
        ? f?.required && !f.fill_from
          ? IMPORT_MSG.required
          : undefined
        : Object.hasOwn(COMMON_CELLS, key)
          ? (COMMON_CELLS[key] as CommonCell)(raw, rr, lookups, rec)
          : readModuleCell(rr, key, raw, lookups, rec);
    if (error) errors.push(rowError(r, headers, i, error));
  }
  // A field without a value taken from another cell (fillFrom: the domain from the URL's host).
  for (const f of rr.fields) {
    if (!f.fill_from || rec.input[f.key] !== undefined) continue;
    const own = mapping.indexOf(f.key);
    if (own >= 0 && r.cells[own]) continue; // its own cell had a value, and an error
    const src = mapping.indexOf(f.fill_from);
    const raw = src >= 0 ? (r.cells[src] ?? '') : '';
    const value = raw ? fieldOf(rr.m, f.key)?.fillFrom?.read(raw) : null;
    const error = value
      ? readModuleCell(rr, f.key, value, lookups, rec)
      : f.required
        ? `${IMPORT_MSG.required}: «${f.label}»`
        : undefined;
    // On its own column when mapped (empty), else on the cell it was to be read from.
    if (error) errors.push(rowError(r, headers, own >= 0 ? own : src >= 0 ? src : null, error));
  }
  for (const f of rr.fields)
    if (f.required && !seen.has(f.key) && rec.input[f.key] === undefined && !(f.fill_from && seen.has(f.fill_from)))
      errors.push(rowError(r, headers, null, `${IMPORT_MSG.required}: «${f.label}»`));
  const companyId = rec.companyId;
  if (companyId == null) errors.push(rowError(r, headers, null, EVENT_MSG.companyRequired));
  else if (lookups.disabled.has(companyId)) {
    const col = mapping.indexOf('company_id');
    errors.push(rowError(r, headers, col >= 0 && r.cells[col] ? col : null, MODULE_DISABLED_MSG));
  }
  if (errors.length || companyId == null) return { errors };
  return { record: { ...(rec as EventRecord), companyId, ...newEventData(rr.m, rec.input, rr.vault) }, errors };
}
