/*
 * An event row → the cells of an export: Russian labels instead of codes and ids (status, source,
 * options, references, tags, company), dates as dd.MM.yyyy (Moscow time for date-times), numbers as
 * numbers. Card numbers are masked unless the user may reveal them in the row's company. Every text
 * cell is neutralised against formula injection.
 */
import { exportFieldLabel, neutraliseCell } from '@forpost/contract/exports';
import {
  type FieldDescriptor,
  type FieldType,
  fieldOf,
  ML_STATE_LABELS,
  type ModuleDescriptor,
  SOURCE_LABELS,
  WHITELIST_KIND_LABELS,
} from '@forpost/contract/modules';
import { SLA_STAGE_LABELS } from '@forpost/contract/sla';
import type { CardVault, EventRow, Refs } from '../events/index';

export type Cell = string | number | null;

/** What the Node path reads per row (sql-cells NODE_ROW_COLUMNS): an events page row, timestamps as epoch ms. */
export type ExportRow = Pick<
  EventRow,
  | 'id'
  | 'company_id'
  | 'company_name'
  | 'title'
  | 'status_id'
  | 'priority_id'
  | 'decision_id'
  | 'source'
  | 'ml_state'
  | 'whitelist_kind'
  | 'data'
  | 'author_id'
  | 'author_name'
  | 'import_id'
  | 'assignee_id'
  | 'assignee_name'
  | 'sla_stage'
> & {
  tags: number[] | null;
  /** Timestamps as epoch milliseconds (cheaper to read than timestamptz text). */
  detected_at: number | null;
  created_at: number;
  updated_at: number;
  sla_due_at: number | null;
  /** The deadline has passed (computed by the query: `sla_due_at < now()`, one instant for the whole export). */
  sla_overdue: boolean;
};

const MSK_MS = 3 * 3600_000;
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** 'dd.MM.yyyy HH:mm' in Moscow time (UTC+3 all year). */
export function mskDateTime(d: Date | string | number | null | undefined): string | null {
  if (d == null) return null;
  const t = (d instanceof Date ? d.getTime() : typeof d === 'number' ? d : Date.parse(d)) + MSK_MS;
  if (!Number.isFinite(t)) return null;
  const x = new Date(t);
  return `${pad(x.getUTCDate())}.${pad(x.getUTCMonth() + 1)}.${x.getUTCFullYear()} ${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}`;
}

/** 'YYYY-MM-DD' → 'dd.MM.yyyy'. */
function ruDate(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : s;
}

const text = (v: unknown): Cell => (v == null || v === '' ? null : neutraliseCell(String(v)));

export interface CellContext {
  refs: Refs;
  vault: CardVault;
  tagNames: Map<number, string>;
  /** Names of reference lists by list ('leak_types' …) and id. */
  refNames: Partial<Record<string, Map<number, string>>>;
  /** May card numbers of this company be exported in clear? */
  reveal: (companyId: number) => boolean;
}

/** One formatter per selected field, built once per export. */
export function cellFormatters(m: ModuleDescriptor, keys: readonly string[], ctx: CellContext): ((r: ExportRow) => Cell)[] {
  const statuses = new Map(ctx.refs.statuses(m.code).map((s) => [s.id, s.name]));
  const priorities = new Map(ctx.refs.priorities(m.code).map((s) => [s.id, s.name]));
  const decisions = new Map(ctx.refs.decisions(m.code).map((s) => [s.id, s.name]));
  return keys.map((key): ((r: ExportRow) => Cell) => {
    switch (key) {
      case 'id':
        return (r) => r.id;
      case 'company_id':
        return (r) => text(r.company_name);
      case 'title':
        return (r) => text(r.title);
      case 'status_id':
        return (r) => text(statuses.get(r.status_id));
      case 'priority_id':
        return (r) => (r.priority_id == null ? null : text(priorities.get(r.priority_id)));
      case 'decision_id':
        return (r) => (r.decision_id == null ? null : text(decisions.get(r.decision_id)));
      case 'source':
        return (r) => text(SOURCE_LABELS[r.source as keyof typeof SOURCE_LABELS] ?? r.source);
      case 'ml_state':
        return (r) => text(ML_STATE_LABELS[r.ml_state as keyof typeof ML_STATE_LABELS] ?? r.ml_state);
      case 'whitelist_kind':
        return (r) =>
          r.whitelist_kind
            ? text(WHITELIST_KIND_LABELS[r.whitelist_kind as keyof typeof WHITELIST_KIND_LABELS] ?? r.whitelist_kind)
            : null;
      case 'tags':
        return (r) => (r.tags?.length ? text(r.tags.map((t) => ctx.tagNames.get(t) ?? `#${t}`).join(', ')) : null);
      case 'detected_at':
        return (r) => mskDateTime(r.detected_at);
      case 'created_at':
        return (r) => mskDateTime(r.created_at);
      case 'updated_at':
        return (r) => mskDateTime(r.updated_at);
      case 'author_id':
        return (r) => text(r.author_name);
      case 'import_id':
        return (r) => r.import_id;
      case 'assignee_id':
        return (r) => text(r.assignee_name);
      case 'sla_due_at':
        return (r) => mskDateTime(r.sla_due_at);
      case 'sla_stage':
        return (r) => (r.sla_stage ? text(SLA_STAGE_LABELS[r.sla_stage] ?? r.sla_stage) : null);
      case 'sla_overdue':
        return (r) => (r.sla_overdue ? 'Да' : 'Нет');
    }
    const f = fieldOf(m, key);
    if (!f) return () => null;
    return moduleFormatter(f, ctx);
  });
}

type Formatter = (key: string, f: FieldDescriptor, ctx: CellContext) => (r: ExportRow) => Cell;
const asText: Formatter = (key) => (r) => text(r.data[key]);

/** A module field's cell formatter, per field type. */
const FORMATTERS: Record<FieldType, Formatter> = {
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
  card: (key, _f, ctx) => (r) => {
    const sealed = r.data[key];
    if (typeof sealed !== 'string') return null;
    if (ctx.reveal(r.company_id)) {
      try {
        return text(ctx.vault.open(sealed));
      } catch {
        return text(r.data[`${key}_mask`]);
      }
    }
    return text(r.data[`${key}_mask`]);
  },
  integer: (key) => (r) => numeric(r.data[key]),
  number: (key) => (r) => numeric(r.data[key]),
  boolean: (key) => (r) => (r.data[key] === true ? 'Да' : r.data[key] === false ? 'Нет' : null),
  date: (key) => (r) => ruDate(r.data[key]),
  datetime: (key) => (r) => (typeof r.data[key] === 'string' ? mskDateTime(r.data[key] as string) : null),
  enum: (key, f) => {
    const labels = new Map((f.options ?? []).map((o) => [o.value, o.label]));
    return (r) => (r.data[key] == null ? null : text(labels.get(String(r.data[key])) ?? r.data[key]));
  },
  ref: (key, f, ctx) => {
    const names = f.ref ? ctx.refNames[f.ref] : undefined;
    return (r) => {
      const v = r.data[key];
      if (typeof v !== 'number') return null;
      return text(names?.get(v) ?? v);
    };
  },
  string_list: (key) => (r) => (Array.isArray(r.data[key]) ? text((r.data[key] as unknown[]).join(', ')) : null),
};

const numeric = (v: unknown): Cell => (typeof v === 'number' ? v : v == null ? null : text(v));

function moduleFormatter(f: FieldDescriptor, ctx: CellContext): (r: ExportRow) => Cell {
  return FORMATTERS[f.type](f.key, f, ctx);
}

/** Column titles of the selected fields (Russian labels). */
export function headerLabels(m: ModuleDescriptor, keys: readonly string[]): string[] {
  return keys.map((k) => exportFieldLabel(m, k));
}
