import { describe, expect, it } from 'vitest';
import { parseAuditSearch } from '../../features/audit/search';
import { parseUsersSearch } from '../../features/users/search';
import { cleanSearch, listFilters, withPageReset } from './listSearch';

describe('list filters in the URL', () => {
  it('keeps valid values and drops broken ones instead of failing the page', () => {
    expect(parseUsersSearch({ q: ' ivan ', role: 'ADMIN', company_id: '7', active: 'false', page: 2 })).toEqual({
      q: 'ivan',
      role: 'ADMIN',
      company_id: 7,
      active: false,
      page: 2,
    });
    const bad = parseUsersSearch({ q: '', role: 'KING', company_id: 'x', page: -3, page_size: 100_000 });
    expect(cleanSearch(bad)).toEqual({});
    // The router hands '123' over as a number.
    expect(parseUsersSearch({ q: 123 }).q).toBe('123');
  });

  it('accepts only calendar days for the audit period', () => {
    expect(parseAuditSearch({ from: '2026-01-31', to: '31.01.2026' })).toMatchObject({ from: '2026-01-31', to: undefined });
  });

  it('goes back to the first page when a filter changes, not when the page does', () => {
    expect(withPageReset<{ q?: string; page?: number }>({ q: 'x' })).toEqual({ q: 'x', page: undefined });
    expect(withPageReset<{ q?: string; page?: number }>({ page: 3 })).toEqual({ page: 3 });
  });

  it('knows whether a filter is set, and clears them all back to page 1', () => {
    type S = { q?: string; active?: boolean; page?: number; page_size?: number };
    const patches: unknown[] = [];
    const none = listFilters<S>({ page: 2, page_size: 50 }, (p) => patches.push(p), ['q', 'active']);
    expect(none.filtered).toBe(false);
    expect(none.reset).toBeUndefined();
    const some = listFilters<S>({ active: false, page: 3 }, (p) => patches.push(p), ['q', 'active']);
    expect(some.filtered).toBe(true);
    some.set({ q: 'x' });
    some.reset?.();
    expect(patches).toEqual([
      { q: 'x', page: undefined },
      { q: undefined, active: undefined, page: undefined },
    ]);
  });
});
