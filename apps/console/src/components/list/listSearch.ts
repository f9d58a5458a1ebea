import { z } from 'zod';

/**
 * Building blocks for list pages whose filters and page live in the URL (TanStack Router
 * `validateSearch`). A bad value in a hand-edited URL is dropped instead of breaking the page.
 */
export const searchInt = (min = 1, max = 2_147_483_647) => z.coerce.number().int().min(min).max(max).optional().catch(undefined);

/** Free text (the router may hand a number for '123'). */
export const searchText = (max = 200) =>
  z
    .preprocess((v) => (v === undefined || v === null ? undefined : String(v)), z.string().trim().max(max).optional())
    .transform((s) => (s === '' ? undefined : s))
    .catch(undefined);

export const searchBool = z
  .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional())
  .catch(undefined);

/** A calendar day, `YYYY-MM-DD`. */
export const searchDay = z
  .preprocess(
    (v) => (v === undefined || v === null ? undefined : String(v)),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  )
  .catch(undefined);

/** The page and page size of a paged list (`...pageFields` in its schema). */
export const pageFields = { page: searchInt(), page_size: searchInt(1, 500) };

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];
export const DEFAULT_PAGE_SIZE = 20;

/** Drops empty values so the URL stays short. */
export function cleanSearch<T extends Record<string, unknown>>(s: T): Partial<T> {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

/** The patch a list page asks for; a filter change goes back to page 1. */
export type SearchPatch<T> = Partial<{ [K in keyof T]: T[K] | undefined }>;
export const withPageReset = <T extends { page?: number }>(patch: SearchPatch<T>): SearchPatch<T> =>
  'page' in patch ? patch : { ...patch, page: undefined };

/**
 * The filters of a list page, named by their URL keys: whether any is set, `set` to change some
 * (back to page 1), and `reset` for «Сбросить фильтры» (undefined while no filter is set).
 */
export function listFilters<T extends { page?: number }>(
  search: T,
  onSearch: (patch: SearchPatch<T>) => void,
  keys: readonly (keyof T)[],
) {
  const filtered = keys.some((k) => search[k] !== undefined);
  const cleared = Object.fromEntries([...keys, 'page'].map((k) => [k, undefined])) as SearchPatch<T>;
  return {
    filtered,
    set: (patch: SearchPatch<T>) => onSearch(withPageReset(patch)),
    reset: filtered ? () => onSearch(cleared) : undefined,
  };
}
