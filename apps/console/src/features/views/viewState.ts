/* A saved view ⇄ the list's URL state: filters (as in the URL) and sort; the columns come with the view. */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { listFilterKeysOf, type ViewState } from '@forpost/contract/views';
import { DEFAULT_SORT, type EventSearch } from '../events/model/search';

/** The view state of the list as it is now. */
export function stateOfSearch(m: ModuleDescriptor, search: EventSearch, columns: readonly string[]): ViewState {
  const filters: Record<string, string> = {};
  for (const k of listFilterKeysOf(m)) {
    const v = search[k];
    if (v !== undefined && v !== '') filters[k] = String(v);
  }
  return { filters, ...(search.sort && search.sort !== DEFAULT_SORT ? { sort: search.sort } : {}), columns: [...columns] };
}

/** The list's search of a view: its filters and sort; paging restarts, the page size and other keys stay. */
export function searchOfView(m: ModuleDescriptor, state: ViewState, search: EventSearch): EventSearch {
  const drop = new Set([...listFilterKeysOf(m), 'page', 'sort']);
  const kept = Object.fromEntries(Object.entries(search).filter(([k]) => !drop.has(k))) as EventSearch;
  return { ...kept, ...state.filters, ...(state.sort && state.sort !== DEFAULT_SORT ? { sort: state.sort } : {}) };
}

const key = (s: ViewState) =>
  JSON.stringify([
    Object.entries(s.filters).sort(([a], [b]) => a.localeCompare(b)),
    s.sort && s.sort !== DEFAULT_SORT ? s.sort : null,
  ]);

/** Do two states select the same list (same filters and sort; columns aside)? */
export const sameList = (a: ViewState, b: ViewState) => key(a) === key(b);

/** Does the URL name no filter and no sort (the list as opened from the menu)? */
export const isPlainSearch = (m: ModuleDescriptor, search: EventSearch) =>
  !search.sort && listFilterKeysOf(m).every((k) => search[k] === undefined || search[k] === '');
