/*
 * The analyst's own settings of the event lists: user preferences (theme, visible columns per module,
 * default view per module) and saved views (filters + sort + visible columns of a module's list,
 * personal or shared with a company).
 */
import { z } from 'zod';
import { bodyId, isoDate } from './common';
import { THEME_LABELS, THEMES, type ThemePreference } from './enums';
import { eventFilterShape, memo } from './events';
import { MSG } from './messages';
import {
  COMMON_FIELDS,
  type ColumnDescriptor,
  columnOf,
  filtersOf,
  hasDecisions,
  isModuleCode,
  LIST_ONLY_FIELDS,
  MODULE_LIST,
  type ModuleDescriptor,
  sortKeysOf,
} from './modules';

export const VIEW_MSG = {
  notFound: 'Вид не найден',
  invalid: 'Недопустимое значение',
  moduleNotFound: 'Модуль не найден',
  unknownKey: 'Неизвестная настройка',
  companyForShared: 'Выберите компанию, с которой поделиться видом',
  notOwner: 'Изменять вид может только его автор',
  columnUnknown: (key: string) => `Неизвестная колонка: ${key}`,
  columnTwice: (key: string) => `Колонка указана дважды: ${key}`,
  filterUnknown: (key: string) => `Неизвестный фильтр: ${key}`,
  sortUnknown: 'Такой сортировки нет',
} as const;

// ---------------------------------------------------------------------------
// Columns of a module's list
// ---------------------------------------------------------------------------

/** Common fields the list may show besides the module's own columns (company comes with «Все компании»). */
const EXTRA_COMMON = [...COMMON_FIELDS, ...LIST_ONLY_FIELDS]
  .map((f) => f.key)
  .filter((k) => k !== 'company_id' && k !== 'whitelist_kind');

/** Every column the chooser offers for a module, in the default order (the descriptor's columns first). */
export const listColumnKeysOf = memo((m: ModuleDescriptor): string[] => {
  const keys = new Set<string>(m.columns);
  for (const k of EXTRA_COMMON) if (k !== 'decision_id' || hasDecisions(m)) keys.add(k);
  for (const f of m.fields) keys.add(f.key);
  return [...keys];
});
export const listColumnsOf = memo((m: ModuleDescriptor): ColumnDescriptor[] => listColumnKeysOf(m).map((k) => columnOf(m, k)));

/**
 * Triage columns: pinned to the right edge of the list whenever shown, never hidden (with the number and
 * the primary column on the left). `assignee_id` counts once a module's list offers it.
 */
export const TRIAGE_KEYS = ['status_id', 'priority_id', 'decision_id', 'assignee_id', 'tags'] as const;
/** The column that names the event: the first of the module's own in the descriptor. */
export const primaryColumnOf = (m: ModuleDescriptor): string | undefined =>
  m.columns.find((k) => !COMMON_FIELDS.some((c) => c.key === k));
/** Columns that are always shown: the primary column (it links to the event) and the module's triage columns. */
export const pinnedColumnsOf = memo((m: ModuleDescriptor): string[] => {
  const all = new Set(listColumnKeysOf(m));
  const primary = primaryColumnOf(m);
  return [...(primary ? [primary] : []), ...TRIAGE_KEYS.filter((k) => all.has(k))];
});

/** An ordered list of a module's column keys, each once. */
const columnList = (m: ModuleDescriptor) =>
  z
    .array(z.string().max(100), { error: VIEW_MSG.invalid })
    .max(200)
    .superRefine((keys, ctx) => {
      const known = new Set(listColumnKeysOf(m));
      const seen = new Set<string>();
      keys.forEach((k, i) => {
        if (!known.has(k)) ctx.addIssue({ code: 'custom', path: [i], message: VIEW_MSG.columnUnknown(k.slice(0, 100)) });
        else if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i], message: VIEW_MSG.columnTwice(k) });
        seen.add(k);
      });
    });

// ---------------------------------------------------------------------------
// A view's state: the list's URL state
// ---------------------------------------------------------------------------

/** URL keys of the list's filters (`created` → `created_from`, `created_to`; company comes from the header). */
export const listFilterKeysOf = memo((m: ModuleDescriptor): string[] =>
  filtersOf(m)
    .filter((f) => f.kind !== 'company')
    .flatMap((f) => (f.kind === 'range' ? [`${f.param}_from`, `${f.param}_to`] : [f.param])),
);
/** Filters written by code in the URL (the API takes ids): checked as codes, not by the API's schema. */
const CODED = new Set(['status', 'priority', 'decision']);
const CODE_LIST = /^[a-z0-9_-]+(,[a-z0-9_-]+)*$/i;

const viewFilters = (m: ModuleDescriptor) =>
  z
    .record(
      z.string().max(100),
      z
        .string()
        .trim()
        .min(1, { error: MSG.required })
        .max(500, { error: MSG.tooLong(500) }),
    )
    .superRefine((filters, ctx) => {
      const keys = new Set(listFilterKeysOf(m));
      const shape = eventFilterShape(m);
      for (const [k, v] of Object.entries(filters)) {
        if (!keys.has(k)) {
          ctx.addIssue({ code: 'custom', path: [k], message: VIEW_MSG.filterUnknown(k.slice(0, 100)) });
          continue;
        }
        if (CODED.has(k)) {
          if (!CODE_LIST.test(v)) ctx.addIssue({ code: 'custom', path: [k], message: VIEW_MSG.invalid });
          continue;
        }
        const r = shape[k]?.safeParse(v);
        if (r && !r.success) ctx.addIssue({ code: 'custom', path: [k], message: r.error.issues[0]?.message ?? VIEW_MSG.invalid });
      }
    });

/** What a view holds: the list's filters (as in its URL), the sort and the visible columns (absent: the user's own). */
export const viewState = memo((m: ModuleDescriptor) =>
  z.strictObject({
    filters: viewFilters(m).default({}),
    sort: z
      .string()
      .max(100)
      .refine((s) => sortKeysOf(m).includes(s.replace(/^-/, '')), { error: VIEW_MSG.sortUnknown })
      .optional(),
    columns: columnList(m).optional(),
  }),
);
export type ViewState = { filters: Record<string, string>; sort?: string; columns?: string[] };

export const viewName = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(100, { error: MSG.tooLong(100) });

export const savedViewItem = z.object({
  id: z.number().int(),
  module: z.string(),
  name: z.string(),
  owner_id: z.number().int(),
  owner_name: z.string(),
  /** The company a shared view is shared with (a personal view may name one too). */
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  shared: z.boolean(),
  state: z.object({
    filters: z.record(z.string(), z.string()),
    sort: z.string().optional(),
    columns: z.array(z.string()).optional(),
  }),
  /** The caller may rename, share, update and delete it (its owner; a shared one: also its company's administrators). */
  can_edit: z.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type SavedView = z.infer<typeof savedViewItem>;
export const savedViewList = z.object({ items: z.array(savedViewItem) });
export const savedViewListQuery = z
  .object({ company_id: z.coerce.number({ error: VIEW_MSG.invalid }).int().min(-1).max(2_147_483_647).optional() })
  .strict();

export const savedViewCreate = memo((m: ModuleDescriptor) =>
  z.strictObject({
    name: viewName,
    shared: z.boolean().default(false),
    company_id: bodyId().nullish(),
    state: viewState(m),
  }),
);
export const savedViewPatch = memo((m: ModuleDescriptor) =>
  z.strictObject({
    name: viewName.optional(),
    shared: z.boolean().optional(),
    company_id: bodyId().nullish(),
    state: viewState(m).optional(),
  }),
);
export const viewParams = z.object({ id: z.coerce.number({ error: VIEW_MSG.invalid }).int().positive().max(2_147_483_647) });

// ---------------------------------------------------------------------------
// User preferences
// ---------------------------------------------------------------------------

export { THEME_LABELS, THEMES, type ThemePreference };

export const columnsPrefKey = (code: string) => `columns:${code}`;
export const defaultViewPrefKey = (code: string) => `default_view:${code}`;

/**
 * The schema of a preference's value by key (null: not a known key). A null value resets the
 * preference (the stored row is removed).
 */
export function preferenceSchema(key: string): z.ZodType | null {
  if (key === 'theme') return z.enum(THEMES, { error: VIEW_MSG.invalid }).nullable();
  const [kind, code] = key.split(':');
  if (code === undefined || !isModuleCode(code)) return null;
  const m = MODULE_LIST.find((x) => x.code === code) as ModuleDescriptor;
  if (kind === 'columns') return columnList(m).min(1, { error: MSG.required }).nullable();
  if (kind === 'default_view') return bodyId().nullable();
  return null;
}
export const preferenceKeyParams = z.object({ key: z.string().max(100) });
export const preferencePut = z.strictObject({ value: z.unknown() });
export const preferenceItem = z.object({ key: z.string(), value: z.unknown(), updated_at: isoDate });
export const preferencesResponse = z.object({ items: z.array(preferenceItem) });
