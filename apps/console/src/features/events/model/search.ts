/*
 * The list's state in the URL: `/domains?q=сбер&status=new,in_progress&sort=-created_at&page=2`.
 * Values stay strings (multi-values joined with commas, as the API takes them); statuses,
 * priorities and decisions are written by their code (readable, stable links), tags and reference
 * ids by id, dates as YYYY-MM-DD.
 */
import { DEFAULT_PAGE_SIZE } from '@forpost/contract/events';
import { type FilterDescriptor, filtersOf, type ModuleDescriptor } from '@forpost/contract/modules';
import type { SearchParams } from '../../../lib/http';
import type { EventSearch } from './validateSearch';

export const DEFAULT_SORT = '-created_at';
export const PAGE_SIZES = [20, 50, 100, 200] as const;

export { type EventSearch, validateEventSearch } from './validateSearch';

/** Splits a comma-joined URL value. */
export const splitList = (v: string | number | undefined): string[] =>
  v === undefined || v === ''
    ? []
    : String(v)
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
export const joinList = (values: readonly (string | number)[]): string | undefined =>
  values.length ? values.join(',') : undefined;

/** URL keys a module's filter uses (`created` → `created_from`, `created_to`). */
export function paramsOfFilter(f: FilterDescriptor): string[] {
  return f.kind === 'range' ? [`${f.param}_from`, `${f.param}_to`] : [f.param];
}

/** Filters of the list the filter bar offers (company comes from the header selector). */
export function listFiltersOf(m: ModuleDescriptor): FilterDescriptor[] {
  return filtersOf(m).filter((f) => f.kind !== 'company');
}

/** Every URL key that filters the list (reset clears exactly these). */
export function filterKeysOf(m: ModuleDescriptor): string[] {
  return listFiltersOf(m).flatMap(paramsOfFilter);
}

export function hasActiveFilters(m: ModuleDescriptor, search: EventSearch): boolean {
  return filterKeysOf(m).some((k) => search[k] !== undefined && search[k] !== '');
}

/** The search without any filter (page size and sort are kept). */
export function resetFilters(m: ModuleDescriptor, search: EventSearch): EventSearch {
  const keys = new Set([...filterKeysOf(m), 'page']);
  return Object.fromEntries(Object.entries(search).filter(([k]) => !keys.has(k))) as EventSearch;
}

/** Code → id lookups for the reference filters written by code in the URL. */
export interface RefCodes {
  statuses: readonly { id: number; code: string }[];
  priorities: readonly { id: number; code: string }[];
  decisions: readonly { id: number; code: string }[];
}

/** URL key → the reference list its codes come from. */
const CODED: Record<string, keyof RefCodes> = { status: 'statuses', priority: 'priorities', decision: 'decisions' };

/** Codes (or ids) from the URL → ids for the API. Unknown codes give id 0, which matches nothing. */
export function codesToIds(list: readonly { id: number; code: string }[], value: string | number | undefined): number[] {
  return splitList(value).map((v) => (/^\d+$/.test(v) ? Number(v) : (list.find((x) => x.code === v)?.id ?? 0)));
}

/** The API query of a list page: only parameters the module's list accepts (the API refuses others). */
export function toApiParams(
  m: ModuleDescriptor,
  search: EventSearch,
  refs: RefCodes,
  companyId: number | undefined,
): SearchParams {
  const params: SearchParams = {
    page: search.page ?? 1,
    page_size: search.page_size ?? DEFAULT_PAGE_SIZE,
    sort: search.sort ?? DEFAULT_SORT,
    status_counts: true,
    company_id: companyId,
  };
  for (const key of filterKeysOf(m)) {
    const value = search[key];
    if (value === undefined || value === '') continue;
    const coded = CODED[key];
    if (coded) params[key] = codesToIds(refs[coded], value);
    else params[key] = String(value);
  }
  return params;
}

/** `sort=-created_at` ⇄ antd's sortOrder. */
export function sortOrderOf(search: EventSearch, key: string): 'ascend' | 'descend' | null {
  const sort = search.sort ?? DEFAULT_SORT;
  if (sort === key) return 'ascend';
  if (sort === `-${key}`) return 'descend';
  return null;
}

/** The last list search per section, so «К списку» on a detail page returns to the same filters. */
const lastSearch = new Map<string, EventSearch>();
export const rememberListSearch = (section: string, search: EventSearch) => lastSearch.set(section, search);
export const lastListSearch = (section: string): EventSearch => lastSearch.get(section) ?? {};
