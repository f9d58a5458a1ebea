/* Queries and mutations of SLA policies: the installation default (settings) and a company's override. */
import type { SlaPoliciesResponse, SlaPolicyItem } from '@forpost/contract/sla';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** null: the installation default; a number: that company. */
export type SlaScope = number | null;

const pathOf = (scope: SlaScope) => (scope === null ? 'settings/sla' : `companies/${scope}/sla`);
export const slaKeys = {
  all: ['sla'] as const,
  policies: (scope: SlaScope) => [...slaKeys.all, scope ?? 'default'] as const,
};

export function useSlaPolicies(scope: SlaScope) {
  return useQuery({
    queryKey: slaKeys.policies(scope),
    queryFn: () => http.get(pathOf(scope), { context: { errorMode: 'silent' } }).json<SlaPoliciesResponse>(),
  });
}

/** PUT the policies (a company's `[]` returns it to the default). Errors are shown by the editor. */
export function useSaveSlaPolicies(scope: SlaScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (items: SlaPolicyItem[]) =>
      http.put(pathOf(scope), { json: { items }, context: { errorMode: 'silent' } }).json<SlaPoliciesResponse>(),
    onSuccess: (r) => {
      qc.setQueryData(slaKeys.policies(scope), { items: r.items, overridden: r.overridden });
      // Company answers show the default where they have no override; due times changed in the lists.
      void qc.invalidateQueries({ queryKey: slaKeys.all });
      void qc.invalidateQueries({ queryKey: ['events'] });
    },
  });
}
