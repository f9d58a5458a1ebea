/*
 * «Следующее / предыдущее» on an event card: the list the user came from (its ids, API query and
 * page) is remembered per section by the list page; the card steps through it and, at a page's
 * edge, loads the next or previous page of the same query — the same filter and sort.
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { http, type SearchParams } from '../../../lib/http';
import { paths } from '../api/paths';
import type { EventList } from '../model/types';

export interface ListPage {
  code: ModuleCode;
  ids: number[];
  /** The API query of the page (page, page_size, sort, filters). */
  params: SearchParams;
  page: number;
  pageSize: number;
  total: number;
}

const pages = new Map<string, ListPage>();
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function rememberListPage(section: string, page: ListPage): void {
  const prev = pages.get(section);
  if (prev && prev.page === page.page && prev.ids.join() === page.ids.join() && prev.total === page.total) return;
  pages.set(section, page);
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export interface Neighbours {
  /** The event's place in the list (1-based) and the list's size; null when it was not opened from a list. */
  position: { index: number; total: number } | null;
  hasPrev: boolean;
  hasNext: boolean;
  /** The id of the previous/next event (loading a page when needed); null at the list's edge. */
  step: (dir: 1 | -1) => Promise<number | null>;
}

export function useNeighbours(section: string, id: number): Neighbours {
  const qc = useQueryClient();
  const page = useSyncExternalStore(subscribe, () => pages.get(section));
  const i = page ? page.ids.indexOf(id) : -1;
  const index = page && i >= 0 ? (page.page - 1) * page.pageSize + i + 1 : 0;
  const step = useCallback(
    async (dir: 1 | -1): Promise<number | null> => {
      const p = pages.get(section);
      if (!p) return null;
      const at = p.ids.indexOf(id);
      if (at < 0) return null;
      const inPage = p.ids[at + dir];
      if (inPage !== undefined) return inPage;
      const target = p.page + dir;
      if (target < 1 || (dir === 1 && p.page * p.pageSize >= p.total)) return null;
      const params = { ...p.params, page: target, status_counts: undefined };
      const data = await qc.fetchQuery({
        queryKey: ['events', p.code, 'list', params],
        queryFn: () => http.get(paths.events(p.code), { searchParams: params }).json<EventList>(),
        staleTime: 10_000,
      });
      const ids = data.items.map((x) => x.id);
      if (!ids.length) return null;
      rememberListPage(section, { ...p, ids, params, page: target, total: data.total });
      return (dir === 1 ? ids[0] : ids[ids.length - 1]) ?? null;
    },
    [qc, section, id],
  );
  return {
    position: page && i >= 0 ? { index, total: page.total } : null,
    hasPrev: index > 1,
    hasNext: index > 0 && page !== undefined && index < page.total,
    step,
  };
}
