/*
 * The module registry's API: the descriptors (listed in defs/index.ts, one line per module) and what
 * the API and the console derive from them. Adding a plain module = its descriptor in defs/ plus one
 * line in defs/index.ts, and its id, code, route, name and icon in sections.ts (the console's light list,
 * checked against the descriptors by registry.test.ts).
 */

import { SLA_FILTER_LABELS } from '../sla';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES, ML_STATE_LABELS, optionsOf, SOURCE_LABELS, WHITELIST_KIND_LABELS } from './common';
import { MODULE_CODES, MODULE_LIST, MODULES } from './registry';
import type {
  FieldDescriptor,
  FieldOption,
  FieldType,
  FilterKind,
  ModuleCode,
  ModuleDescriptor,
  PrioritySeed,
  StatusSeed,
} from './types';

export * from './common';
export { PAYMENT_SYSTEMS, paymentSystemOf } from './defs/acquiring';
export { BREACH_CATEGORIES, QUESTIONABLE_CATEGORIES } from './defs/merchant';
export { dateSchema, datetimeSchema, field, hostSchema, ipSchema, isRealDate, PLATFORM_OPTIONS, phoneSchema } from './fields';
export * from './indicators';
export * from './kinds';
export { luhnCheckDigit, sampleCard, sampleInn, sampleOgrn } from './samples';
export * from './stix';
export * from './types';
export { MODULE_LIST, MODULES };

export const isModuleCode = (s: string): s is ModuleCode => (MODULE_CODES as readonly string[]).includes(s);
export const getModule = (code: ModuleCode): ModuleDescriptor => MODULES[code] as ModuleDescriptor;
/** The module whose console route is `route` ('/brands' → brand). */
export const moduleByRoute = (route: string): ModuleDescriptor | undefined => MODULE_LIST.find((m) => m.route === route);

export const hasDecisions = (m: ModuleDescriptor) => Boolean(m.decisions?.length);
export const statusesOf = (_m: ModuleDescriptor): readonly StatusSeed[] => DEFAULT_STATUSES;
export const prioritiesOf = (_m: ModuleDescriptor): readonly PrioritySeed[] => DEFAULT_PRIORITIES;
/** Fields a request may set (derived ones are computed by the server). */
export const inputFields = (m: ModuleDescriptor) => m.fields.filter((f) => !f.derived);
export const fieldOf = (m: ModuleDescriptor, key: string): FieldDescriptor | undefined => m.fields.find((f) => f.key === key);

// ---------------------------------------------------------------------------
// Common event fields: what every module's events have (columns, filters, import headers)
// ---------------------------------------------------------------------------

export type CommonFieldType =
  | 'id'
  | 'company'
  | 'string'
  | 'status'
  | 'priority'
  | 'decision'
  | 'enum'
  | 'tags'
  | 'datetime'
  | 'user'
  | 'import'
  | 'sla';

export interface CommonFieldDescriptor {
  key: string;
  label: string;
  type: CommonFieldType;
  sortable: boolean;
  options?: readonly FieldOption[];
  aliases: readonly string[];
}

export const COMMON_FIELDS: readonly CommonFieldDescriptor[] = [
  { key: 'id', label: '№', type: 'id', sortable: true, aliases: [] },
  { key: 'company_id', label: 'Компания', type: 'company', sortable: true, aliases: ['Компания', 'company', 'company_id'] },
  { key: 'title', label: 'Заголовок', type: 'string', sortable: true, aliases: ['Заголовок', 'Название события', 'title'] },
  { key: 'status_id', label: 'Статус', type: 'status', sortable: true, aliases: ['Статус', 'status'] },
  { key: 'priority_id', label: 'Приоритет', type: 'priority', sortable: true, aliases: ['Приоритет', 'Критичность', 'priority'] },
  { key: 'decision_id', label: 'Решение', type: 'decision', sortable: true, aliases: ['Решение', 'decision'] },
  {
    key: 'source',
    label: 'Источник',
    type: 'enum',
    sortable: true,
    options: optionsOf(SOURCE_LABELS),
    aliases: ['Источник события', 'Канал', 'source'],
  },
  {
    key: 'ml_state',
    label: 'Состояние ML',
    type: 'enum',
    sortable: true,
    options: optionsOf(ML_STATE_LABELS),
    aliases: ['ML', 'ml_state'],
  },
  {
    key: 'whitelist_kind',
    label: 'Белый список',
    type: 'enum',
    sortable: false,
    options: optionsOf(WHITELIST_KIND_LABELS),
    aliases: [],
  },
  { key: 'tags', label: 'Теги', type: 'tags', sortable: false, aliases: ['Теги', 'Метки', 'tags'] },
  {
    key: 'detected_at',
    label: 'Обнаружено',
    type: 'datetime',
    sortable: true,
    aliases: ['Дата обнаружения', 'Обнаружено', 'detected', 'detected_at', 'found at'],
  },
  { key: 'created_at', label: 'Создано', type: 'datetime', sortable: true, aliases: [] },
  { key: 'updated_at', label: 'Изменено', type: 'datetime', sortable: true, aliases: [] },
  { key: 'author_id', label: 'Автор', type: 'user', sortable: false, aliases: [] },
  { key: 'import_id', label: 'Импорт', type: 'import', sortable: false, aliases: [] },
];
/** The name of an event's assignee (events.assignee_id): list column, filter, history. */
export const ASSIGNEE_LABEL = 'Исполнитель';

/**
 * Columns of the lists that are not event fields (neither imported nor exported): the SLA's pending
 * deadline (events.sla_due_at; the cell shows the time left or «Просрочено на …», contract sla.ts).
 */
export const LIST_ONLY_FIELDS: readonly CommonFieldDescriptor[] = [
  { key: 'sla_due_at', label: 'SLA', type: 'sla', sortable: true, aliases: [] },
  // Who works on the event (events.assignee_id; the cell shows assignee_name). Set in the lists and the
  // card, not imported (an assignee is a user of this installation).
  { key: 'assignee_id', label: ASSIGNEE_LABEL, type: 'user', sortable: false, aliases: [] },
];
export const COMMON_KEYS: ReadonlySet<string> = new Set([
  ...COMMON_FIELDS.map((f) => f.key),
  'company_name',
  'author_name',
  'module',
]);

// ---------------------------------------------------------------------------
// Columns
// ---------------------------------------------------------------------------

export interface ColumnDescriptor {
  key: string;
  label: string;
  /** A module field type, or a common field type. */
  type: FieldType | CommonFieldType;
  sortable: boolean;
  /** A common event field (true) or the module's own (false). */
  common: boolean;
  options?: readonly FieldOption[];
  /** The module field's own list width (FieldDescriptor.listWidth). */
  listWidth?: number;
}

/** Keys that `sort` accepts (with or without a leading '-'). */
export function sortKeysOf(m: ModuleDescriptor): string[] {
  const keys = new Set<string>([
    'id',
    'title',
    'status_id',
    'priority_id',
    'source',
    'ml_state',
    'detected_at',
    'created_at',
    'updated_at',
    'company_id',
    'sla_due_at',
  ]);
  if (hasDecisions(m)) keys.add('decision_id');
  for (const f of m.fields) if (f.sortable) keys.add(f.key);
  return [...keys];
}

/** The list columns of a module, resolved to labels and types. */
export function columnsOf(m: ModuleDescriptor): ColumnDescriptor[] {
  return m.columns.map((key) => columnOf(m, key));
}

/** One list column of a module (a module field or a common event field), resolved to label and type. */
export function columnOf(m: ModuleDescriptor, key: string): ColumnDescriptor {
  const sortable = new Set(sortKeysOf(m));
  const mf = fieldOf(m, key);
  if (mf)
    return {
      key,
      label: mf.label,
      type: mf.type,
      sortable: sortable.has(key),
      common: false,
      ...(mf.options ? { options: mf.options } : {}),
      ...(mf.listWidth ? { listWidth: mf.listWidth } : {}),
    };
  const cf = COMMON_FIELDS.find((c) => c.key === key) ?? LIST_ONLY_FIELDS.find((c) => c.key === key);
  if (!cf) throw new Error(`column ${key} of module ${m.code} is not a field`);
  return {
    key,
    label: cf.label,
    type: cf.type,
    sortable: sortable.has(key),
    common: true,
    ...(cf.options ? { options: cf.options } : {}),
  };
}

// ---------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------

export type CommonFilterKind =
  | 'company'
  | 'status'
  | 'priority'
  | 'decision'
  | 'tags'
  | 'text'
  | 'import'
  | 'user'
  | 'assignee'
  | 'indicator';

export interface FilterDescriptor {
  /** Query parameter (for `range`: the base; the request uses `<param>_from` and `<param>_to`). */
  param: string;
  label: string;
  kind: FilterKind | CommonFilterKind;
  /** The field type, for the widget (date picker, number input …). */
  type?: FieldType | CommonFieldType;
  options?: readonly FieldOption[];
  common: boolean;
}

/** Common filters of every module's list (`decision` only where the module has decisions). */
export function commonFiltersOf(m: ModuleDescriptor): FilterDescriptor[] {
  const out: FilterDescriptor[] = [
    { param: 'q', label: 'Поиск', kind: 'text', common: true },
    { param: 'company_id', label: 'Компания', kind: 'company', common: true },
    { param: 'status', label: 'Статус', kind: 'status', common: true },
    { param: 'priority', label: 'Приоритет', kind: 'priority', common: true },
  ];
  if (hasDecisions(m)) out.push({ param: 'decision', label: 'Решение', kind: 'decision', common: true });
  out.push(
    { param: 'source', label: 'Источник', kind: 'in', type: 'enum', options: optionsOf(SOURCE_LABELS), common: true },
    { param: 'ml_state', label: 'Состояние ML', kind: 'in', type: 'enum', options: optionsOf(ML_STATE_LABELS), common: true },
    {
      param: 'whitelist_kind',
      label: 'Белый список',
      kind: 'in',
      type: 'enum',
      options: optionsOf(WHITELIST_KIND_LABELS),
      common: true,
    },
    { param: 'tags', label: 'Теги', kind: 'tags', common: true },
    { param: 'created', label: 'Создано', kind: 'range', type: 'datetime', common: true },
    { param: 'detected', label: 'Обнаружено', kind: 'range', type: 'datetime', common: true },
    { param: 'import_id', label: 'Импорт', kind: 'import', common: true },
    { param: 'author_id', label: 'Автор', kind: 'user', common: true },
    { param: 'assignee', label: ASSIGNEE_LABEL, kind: 'assignee', common: true },
    { param: 'indicator', label: 'Индикатор', kind: 'indicator', common: true },
    { param: 'sla', label: 'SLA', kind: 'in', type: 'enum', options: optionsOf(SLA_FILTER_LABELS), common: true },
  );
  return out;
}

/** Every filter of a module's list: the common ones, then the module's own. */
export function filtersOf(m: ModuleDescriptor): FilterDescriptor[] {
  const own: FilterDescriptor[] = m.fields
    .filter((f) => f.filter)
    .map((f) => ({
      param: f.key,
      label: f.label,
      kind: f.filter as FilterKind,
      type: f.type,
      common: false,
      ...(f.options ? { options: f.options } : {}),
    }));
  return [...commonFiltersOf(m), ...own];
}

// ---------------------------------------------------------------------------
// Import headers
// ---------------------------------------------------------------------------

const normHeader = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s_]+/g, ' ');

/**
 * Import header → field key for a module (case-, `ё`- and `_`-insensitive): the module's fields
 * (their key, label and aliases) first, then the common fields. Unknown headers are absent.
 */
export function importHeaderMap(m: ModuleDescriptor): Map<string, string> {
  const map = new Map<string, string>();
  const add = (alias: string, key: string) => {
    const k = normHeader(alias);
    if (k && !map.has(k)) map.set(k, key);
  };
  for (const f of inputFields(m)) for (const a of [f.key, f.label, ...f.aliases]) add(a, f.key);
  for (const c of COMMON_FIELDS) {
    if (c.key === 'decision_id' && !hasDecisions(m)) continue;
    for (const a of c.aliases) add(a, c.key);
  }
  return map;
}
export const headerKey = (m: ModuleDescriptor, header: string) => importHeaderMap(m).get(normHeader(header));

// ---------------------------------------------------------------------------
// Event history labels
// ---------------------------------------------------------------------------

/** History entries about what a module's extras link to an event (repository files, leaks): not event fields. */
export const HISTORY_LINK_LABELS: Readonly<Record<string, string>> = {
  files: 'Файлы',
  leaks: 'Связанные утечки',
  /** The watch (#31): a transition of a watched domain. */
  watch: 'Наблюдение',
};

/**
 * The Russian name of a history entry's `field` in a module: one of its fields, a common field, one
 * of its actions, or a link; null for anything else (the API's history-labels test keeps it total).
 */
export function historyFieldLabel(m: ModuleDescriptor, field: string): string | null {
  return (
    fieldOf(m, field)?.label ??
    COMMON_FIELDS.find((f) => f.key === field)?.label ??
    (field === 'assignee_id' ? ASSIGNEE_LABEL : undefined) ??
    m.actions?.find((a) => a.code === field)?.label ??
    HISTORY_LINK_LABELS[field] ??
    null
  );
}
