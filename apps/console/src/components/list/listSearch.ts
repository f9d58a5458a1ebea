/**
 * Building blocks for list pages whose filters and page live in the URL (TanStack Router
 * `validateSearch`). A bad value in a hand-edited URL is dropped instead of breaking the page.
 *
 * Plain functions, not zod: every route's `validateSearch` is in the console's entry chunk, which
 * /login loads too (issue #16 budget). They keep the rules the zod schemas had, key for key
 * (`listSearch.test.ts` checks them against those schemas on random input).
 */

/** Reads one URL value: the value, or undefined when it is missing or bad. */
export type SearchField<T> = (value: unknown) => T | undefined;
type Shape = Record<string, SearchField<unknown>>;
/** The search object a shape reads: every key optional. */
export type SearchOf<S extends Shape> = { [K in keyof S]?: S[K] extends SearchField<infer T> ? T : never };

/**
 * `validateSearch` of a shape: the shape's keys in its order, others dropped. A key in the URL stays
 * a key (undefined when its value was bad); a missing one stays missing.
 */
export function searchSchema<S extends Shape>(shape: S): (raw: Record<string, unknown>) => SearchOf<S> {
  return (raw) => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const value = field(raw[key]);
      if (value !== undefined || key in raw) out[key] = value;
    }
    return out as SearchOf<S>;
  };
}

/** An integer in [min, max]; numeric strings ('7', ' 7', '1e2') count, as `Number()` reads them. */
export const searchInt =
  (min = 1, max = 2_147_483_647): SearchField<number> =>
  (v) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
  };

/** Free text, trimmed, at most `max` characters (the router may hand a number for '123'). */
export const searchText =
  (max = 200): SearchField<string> =>
  (v) => {
    if (v === undefined || v === null) return undefined;
    const s = String(v).trim();
    return s !== '' && s.length <= max ? s : undefined;
  };

/** `true` / `false`, or the strings 'true' / 'false'. */
export const searchBool: SearchField<boolean> = (v) =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;

/** 'true' / 'false' kept as text (the router may hand a boolean). */
export const searchBoolText: SearchField<'true' | 'false'> = (v) =>
  v === true || v === 'true' ? 'true' : v === false || v === 'false' ? 'false' : undefined;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day, `YYYY-MM-DD`. */
export const searchDay: SearchField<string> = (v) => {
  if (v === undefined || v === null) return undefined;
  const s = String(v);
  return DAY.test(s) ? s : undefined;
};

/** One of `values`, exactly. */
export const searchEnum =
  <const T extends string>(values: readonly T[]): SearchField<T> =>
  (v) =>
    (values as readonly unknown[]).includes(v) ? (v as T) : undefined;

/** The page and page size of a paged list (`...pageFields` in its shape). */
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
