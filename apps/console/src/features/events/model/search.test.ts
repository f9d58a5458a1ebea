import { eventListQuery } from '@forpost/contract/events';
import { getModule, MODULE_LIST } from '@forpost/contract/modules';
import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import {
  codesToIds,
  filterKeysOf,
  hasActiveFilters,
  resetFilters,
  sortOrderOf,
  toApiParams,
  validateEventSearch,
} from './search';

const refs = {
  statuses: [
    { id: 11, code: 'new' },
    { id: 12, code: 'in_progress' },
  ],
  priorities: [{ id: 21, code: 'high' }],
  decisions: [{ id: 31, code: 'block' }],
};

/** What `http` sends: arrays joined with commas, undefined dropped. */
const asQuery = (p: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(p)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  );

describe('event list search (URL ⇄ API)', () => {
  it('keeps URL values as strings, pages as numbers, and drops defaults', () => {
    expect(
      validateEventSearch({
        q: '  сбер ',
        status: 'new,in_progress',
        tags: 5,
        page: '3',
        page_size: 20,
        sort: '-domain',
        empty: '',
      }),
    ).toEqual({
      q: 'сбер',
      status: 'new,in_progress',
      tags: '5',
      page: 3,
      sort: '-domain',
    });
    expect(validateEventSearch({ page: '1', page_size: '100000' })).toEqual({ page_size: 500 });
    expect(validateEventSearch({ page: '-2', page_size: 'x' })).toEqual({});
  });

  it('turns status codes into ids; unknown codes match nothing; numeric ids pass', () => {
    expect(codesToIds(refs.statuses, 'in_progress,new')).toEqual([12, 11]);
    expect(codesToIds(refs.statuses, 'bogus')).toEqual([0]);
    expect(codesToIds(refs.statuses, '7')).toEqual([7]);
  });

  it('sends only parameters the module accepts — every module’s query passes the contract', () => {
    for (const m of MODULE_LIST) {
      const search = Object.fromEntries(filterKeysOf(m).map((k) => [k, undefined]));
      const params = toApiParams(
        m,
        {
          ...search,
          q: 'тест',
          status: 'new',
          priority: 'high',
          decision: 'block',
          tags: '1,2',
          created_from: '2026-01-01',
          companyId: '5',
          foreign: 'x',
        },
        refs,
        7,
      );
      expect(params.foreign).toBeUndefined();
      expect(params.companyId).toBeUndefined();
      expect(params.company_id).toBe(7);
      const parsed = eventListQuery(m).safeParse(asQuery(params));
      expect(parsed.success, `${m.code}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(params.status).toEqual([11]);
      // Decisions only where the module has them.
      expect('decision' in params).toBe(Boolean(m.decisions?.length));
    }
  });

  it('knows the module filters, resets them but keeps sort and page size', () => {
    const domains = getModule('domains');
    expect(filterKeysOf(domains)).toEqual(
      expect.arrayContaining(['q', 'status', 'decision', 'domain', 'similarity_from', 'similarity_to', 'created_from']),
    );
    expect(filterKeysOf(domains)).not.toContain('company_id');
    const search = { q: 'x', similarity_from: '80', sort: 'domain', page: 3, page_size: 50, companyId: '2' };
    expect(hasActiveFilters(domains, search)).toBe(true);
    expect(resetFilters(domains, search)).toEqual({ sort: 'domain', page_size: 50, companyId: '2' });
    expect(hasActiveFilters(domains, { sort: 'domain' })).toBe(false);
  });

  it('maps sort to the table’s order', () => {
    expect(sortOrderOf({}, 'created_at')).toBe('descend');
    expect(sortOrderOf({ sort: 'domain' }, 'domain')).toBe('ascend');
    expect(sortOrderOf({ sort: 'domain' }, 'created_at')).toBeNull();
  });
});

describe('the search box text reaches the API as typed', () => {
  it('a host, an IP, an event number or a URL part survive the URL and the validator unchanged', () => {
    const m = getModule('domains');
    for (const q of [
      'vtb-l',
      'vtb-lk.r',
      '№601',
      '#601',
      '601',
      '95.88.',
      '95.10',
      '1e5',
      '?id=',
      'login.php?id=',
      '2001:db8::1',
    ]) {
      // As the router writes the URL and reads it back (JSON-like values stay strings), then validates it.
      const back = validateEventSearch(defaultParseSearch(defaultStringifySearch({ q })) as Record<string, unknown>);
      expect(back.q, q).toBe(q);
      expect(toApiParams(m, back, refs, undefined).q, q).toBe(q);
    }
  });
});
