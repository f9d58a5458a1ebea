/* Assignment queries: the assignee picker of a module and «Мои события». */
import type { AssigneeItem, MyEventItem } from '@forpost/contract/assignment';
import type { ModuleCode } from '@forpost/contract/modules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, type SearchParams } from '../../../lib/http';

export const assignKeys = {
  assignees: (code: ModuleCode, companyId: number | null, q: string) => ['assignees', code, companyId, q] as const,
  mine: (params: SearchParams) => ['events', 'assigned', params] as const,
};

/** Who may be assigned the module's events of a company (none given: the caller's only company, or staff). */
export function useAssignees(code: ModuleCode, companyId: number | null, q: string, enabled = true) {
  return useQuery({
    queryKey: assignKeys.assignees(code, companyId, q),
    queryFn: ({ signal }) =>
      http
        .get(`modules/${code}/assignees`, {
          searchParams: { ...(companyId ? { company_id: companyId } : {}), ...(q ? { q } : {}) },
          signal,
          context: { errorMode: 'silent' },
        })
        .json<{ items: AssigneeItem[] }>(),
    select: (r) => r.items,
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export interface MyEventsPage {
  items: MyEventItem[];
  total: number;
  page: number;
  page_size: number;
  total_capped: boolean;
}

export function useMyEvents(params: SearchParams) {
  return useQuery({
    queryKey: assignKeys.mine(params),
    queryFn: ({ signal }) =>
      http.get('events/assigned', { searchParams: params, signal, context: { errorMode: 'silent' } }).json<MyEventsPage>(),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
