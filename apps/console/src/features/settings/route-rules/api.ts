/* Route rules (redirects): the settings list and its mutations, and the lookup of an unknown path. */
import type { RouteRule, RouteRuleCreate, RouteRuleLookup } from '@forpost/contract/route-rules';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';
import type { RefListParams } from '../api/queries';

export type { RouteRule, RouteRuleCreate };

const PATH = 'settings/route-rules';
const keys = { all: ['settings', 'route-rules'] as const };

/** GET /settings/route-rules (settings.manage). */
export function useRouteRulesQuery(p: RefListParams) {
  return useQuery({
    queryKey: [...keys.all, 'list', p],
    queryFn: () => http.get(PATH, { searchParams: { ...p } }).json<Page<RouteRule>>(),
    placeholderData: keepPreviousData,
  });
}

/** POST (no id) or PATCH one rule; errors come back to the form (silent). */
export function useSaveRouteRuleMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: RouteRuleCreate }) =>
      (id === undefined
        ? http.post(PATH, { json: body, context: { errorMode: 'silent' } })
        : http.patch(`${PATH}/${id}`, { json: body, context: { errorMode: 'silent' } })
      ).json<RouteRule>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteRouteRuleMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`${PATH}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

/** GET /route-rules/lookup?path= — the redirect for a path that is no console route (errors: no redirect). */
export function useRouteRuleLookup(path: string) {
  return useQuery({
    queryKey: ['route-rules', 'lookup', path],
    queryFn: () =>
      http.get('route-rules/lookup', { searchParams: { path }, context: { errorMode: 'silent' } }).json<RouteRuleLookup>(),
    retry: false,
    staleTime: 60_000,
  });
}
