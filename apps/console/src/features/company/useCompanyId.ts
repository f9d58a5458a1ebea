import { useCallback, useSyncExternalStore } from 'react';
import { local, STORAGE_KEYS } from '../../lib/storage';

/** The virtual «Все компании» option of the company selector. */
export const ALL_COMPANIES = -1;
export const ALL_COMPANIES_LABEL = 'Все компании';

const listeners = new Set<() => void>();

/** A stored or linked company id (a company or «all»), or null. */
function parseId(raw: string | null): number | null {
  const id = raw === null || raw === '' ? Number.NaN : Number(raw);
  return Number.isInteger(id) && (id > 0 || id === ALL_COMPANIES) ? id : null;
}

function read(): number {
  return parseId(local.get(STORAGE_KEYS.companyId)) ?? ALL_COMPANIES;
}

/**
 * `?companyId=` of the address the console was opened with (links from mails and reports) applies
 * before the first render, so the first page's requests already carry it. (Later in-app navigation
 * with `?companyId=` goes through the header selector's effect.)
 */
function fromAddress(): number | null {
  if (typeof window === 'undefined') return null;
  return parseId(new URLSearchParams(window.location.search).get('companyId'));
}

let current = read();
{
  const opened = fromAddress();
  if (opened !== null && opened !== current) {
    local.set(STORAGE_KEYS.companyId, String(opened));
    current = opened;
  }
}

/** Sets the selected company (kept in localStorage `companyId`); −1 = all companies. */
export function setCompanyId(id: number): void {
  const next = Number.isInteger(id) && id > 0 ? id : ALL_COMPANIES;
  local.set(STORAGE_KEYS.companyId, String(next));
  if (next === current) return;
  current = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEYS.companyId) return;
    current = read();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const getCompanyId = (): number => current;

/**
 * The company chosen in the header selector: `[companyId, setCompanyId]`, −1 (ALL_COMPANIES) for
 * «Все компании». Lists and dashboards filter by it:
 *
 *   const [companyId] = useCompanyId();
 *   http.get('…', { searchParams: { company_id: companyId === ALL_COMPANIES ? undefined : companyId } })
 */
export function useCompanyId(): [number, (id: number) => void] {
  const id = useSyncExternalStore(subscribe, getCompanyId, getCompanyId);
  const set = useCallback((next: number) => setCompanyId(next), []);
  return [id, set];
}

/** The selected company as an API filter value, outside React (route loaders): undefined for «Все компании». */
export const companyFilter = (): number | undefined => (current === ALL_COMPANIES ? undefined : current);

/** The selected company as an API filter value: undefined for «Все компании». */
export function useCompanyFilter(): number | undefined {
  const [id] = useCompanyId();
  return id === ALL_COMPANIES ? undefined : id;
}
