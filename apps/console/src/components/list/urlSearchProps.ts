import { cleanSearch, type SearchPatch } from './listSearch';

/** A route's `navigate` narrowed to what a list page does with it: rewrite the search. */
type SearchNavigate<S> = (opts: { search: (prev: S) => Partial<S> }) => Promise<void>;

/**
 * The `search` / `onSearch` pair of a list page whose filters live in the URL, from its route's
 * `Route.useSearch()` and `Route.useNavigate()`: a patch is merged into the current search and
 * empty values are dropped, so the URL stays short.
 */
export function urlSearchProps<S extends Record<string, unknown>>(search: S, navigate: SearchNavigate<NoInfer<S>>) {
  const onSearch = (patch: SearchPatch<S>) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) });
  return { search, onSearch };
}
