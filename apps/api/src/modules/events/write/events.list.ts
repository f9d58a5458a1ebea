/*
 * The list of a module's events (an operation of the events service over EventsDeps): one page, its
 * total, per-status counts when asked, the rules' marks — kept for a moment by the list cache.
 */
import { COUNT_CAP, type EventListQuery, SEARCH_COUNT_CAP } from '@forpost/contract/events';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { Caller } from '../../../lib/caller';
import type { EventRow, SearchStatusCounts } from '../events.repo';
import { afterCondition, and, KEYSET_SORTS, keysetCursor, orderBy, orderedSort } from '../list/events.query';
import { listCacheKey } from '../list/list-cache';
import { listFilter, listWhere } from '../list/list-filter';
import type { EventsDeps } from './events.deps';
import { toView } from './events.reads';

/** One page of the list, its total and, when asked, its per-status counts (listEvents keeps it for a moment). */
async function listPage(deps: EventsDeps, c: Caller, m: ModuleDescriptor, q: EventListQuery) {
  const { repo } = deps;
  const page = q.page;
  const pageSize = q.page_size;
  const f = await listFilter(c, m, q, { vault: deps.vault, resolveQuery: repo.resolveQuery });
  if (!f) return { items: [], total: 0, page, page_size: pageSize, total_capped: false };
  const { base, own, text, anyRule, rules, searching } = f;
  const where = listWhere(f);
  const ruleConds = rules?.conds;
  const cap = searching ? SEARCH_COUNT_CAP : COUNT_CAP;
  // Keyset paging: the page after the cursor's event (`page` is then ignored).
  const after = q.after === undefined ? undefined : afterCondition(q.sort, q.after);
  const offset = after ? 0 : (page - 1) * pageSize;
  // A free-text search in an indexed order: page, count and per-status counts by the search plan
  // (events.repo searchList).
  const search =
    text && orderedSort(q.sort) && !after
      ? repo.searchList({
          base: and(base),
          filter: and([...own, ...anyRule]),
          text,
          order: orderBy(m, q.sort),
          limit: pageSize,
          offset,
          rules: ruleConds,
          cap,
          statusWhere: q.status_counts ? and([...f.ownButStatus, ...anyRule]) : undefined,
          byStatus: f.own.length !== f.ownButStatus.length,
        })
      : undefined;
  const pageQuery: Promise<{ rows: EventRow[]; counted: number; statusCounts?: SearchStatusCounts }> =
    search ??
    repo.list({
      where,
      order: orderBy(m, q.sort),
      limit: pageSize,
      offset,
      cap,
      rules: ruleConds,
      after,
      prepared: !text && offset === 0,
    });
  const [{ rows, counted, statusCounts: searchStatusCounts }, listStatusCounts] = await Promise.all([
    pageQuery,
    !q.status_counts || search
      ? undefined
      : searching
        ? // A search reads at most cap + 1 matches, then gives up the per-status numbers.
          repo.statusCounts({ where: and([...base, ...f.ownButStatus, ...(text ? [text] : []), ...anyRule]), cap })
        : // A list counts each status up to the cap (an index walk per status).
          repo
            .statusCountsPerStatus({ module: m.code, where: and([...base, ...f.ownButStatus, ...anyRule]), cap })
            .then((items) => ({ items, capped: false })),
  ]);
  const statusCounts = searchStatusCounts ?? listStatusCounts;
  return {
    items: rows.map((r) => toView(m, r)),
    total: Math.min(counted, cap),
    page,
    page_size: pageSize,
    total_capped: counted > cap,
    ...(KEYSET_SORTS.includes(q.sort)
      ? { next_cursor: rows.length === pageSize ? keysetCursor(rows[rows.length - 1] as EventRow) : null }
      : {}),
    ...(statusCounts ? { status_counts: statusCounts.items, status_counts_capped: statusCounts.capped } : {}),
    ...(rules
      ? {
          rules: rules.raw,
          rules_map: rows.filter((r) => r.rule_index != null).map((r) => ({ item_id: r.id, rule_index: Number(r.rule_index) })),
        }
      : {}),
  };
}
type ListPage = Awaited<ReturnType<typeof listPage>>;

/**
 * A page of the module's list: the same page for the same scope and query is answered from this
 * instance's memory until any change of events, users or companies (list-cache.ts).
 */
export async function listEvents(deps: EventsDeps, c: Caller, m: ModuleDescriptor, q: EventListQuery) {
  const key = listCacheKey(c, m, q);
  // The page and its list of items are frozen; the items themselves are not: Object.freeze on 20
  // objects of ~30 fields cost 0.35 ms a page (half of what reading it costs), and nothing after
  // listEvents() writes to them — the route only serializes them.
  return (await deps.listCache.through(key, async () => {
    const p = await listPage(deps, c, m, q);
    Object.freeze(p.items);
    return Object.freeze(p);
  })) as ListPage;
}
