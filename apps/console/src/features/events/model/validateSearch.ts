/*
 * `validateSearch` of an event list (`/domains?q=…&page=2`), apart from the rest of search.ts: the route
 * tree needs it before any page loads, so it is in the sign-in page's bundle and must not bring the module
 * registry or zod with it (issue #16).
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@forpost/contract/enums';

export interface EventSearch {
  q?: string;
  page?: number;
  page_size?: number;
  sort?: string;
  /** Status codes, comma-joined. */
  status?: string;
  priority?: string;
  decision?: string;
  source?: string;
  ml_state?: string;
  whitelist_kind?: string;
  /** Tag ids, comma-joined. */
  tags?: string;
  created_from?: string;
  created_to?: string;
  detected_from?: string;
  detected_to?: string;
  /** Module filters (`domain`, `similarity_from`, …) and keys of other features (`companyId`). */
  [key: string]: string | number | undefined;
}

const positiveInt = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** `validateSearch` of the list route: keeps scalar values as trimmed strings, page numbers as numbers. */
export function validateEventSearch(raw: Record<string, unknown>): EventSearch {
  const out: EventSearch = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'page' || key === 'page_size') continue;
    let s: string | undefined;
    if (typeof value === 'string') s = value.trim();
    else if (typeof value === 'number' || typeof value === 'boolean') s = String(value);
    else if (Array.isArray(value)) s = value.filter((x) => typeof x === 'string' || typeof x === 'number').join(',');
    if (s) out[key] = s.slice(0, 500);
  }
  const page = positiveInt(raw.page);
  if (page && page > 1) out.page = page;
  const size = positiveInt(raw.page_size);
  if (size && size !== DEFAULT_PAGE_SIZE) out.page_size = Math.min(size, MAX_PAGE_SIZE);
  return out;
}
