/* Integrations (#33): webhook endpoints, syslog outputs, their delivery logs and mutations. */
import type { IntegrationDelivery, IntegrationTarget } from '@forpost/contract/integrations';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

export type { IntegrationDelivery, IntegrationTarget };

const keys = { all: ['integrations'] as const };

/** GET /integrations (integrations.manage), of one company or all the caller manages. */
export function useIntegrationsQuery(companyId: number | undefined) {
  return useQuery({
    queryKey: [...keys.all, 'list', companyId ?? null],
    queryFn: () =>
      http
        .get('integrations', { searchParams: companyId ? { company_id: companyId } : {} })
        .json<{ items: IntegrationTarget[] }>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /integrations/{id}/deliveries: the newest attempts first. */
export function useDeliveriesQuery(id: number | null) {
  return useQuery({
    queryKey: [...keys.all, 'deliveries', id],
    queryFn: () =>
      http.get(`integrations/${id}/deliveries`, { searchParams: { limit: 200 } }).json<{ items: IntegrationDelivery[] }>(),
    enabled: id !== null,
  });
}

export interface Created {
  target: IntegrationTarget;
  secret: string | null;
}

export function useCreateIntegrationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body }: { kind: 'webhooks' | 'syslog'; body: Record<string, unknown> }) =>
      http.post(`integrations/${kind}`, { json: body, context: { errorMode: 'silent' } }).json<Created>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function usePatchIntegrationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Record<string, unknown> }) =>
      http.patch(`integrations/${id}`, { json: body }).json<IntegrationTarget>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteIntegrationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`integrations/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useRotateMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post(`integrations/${id}/rotate`, { json: { grace_hours: 24 } }).json<Created>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useResendMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, delivery }: { id: number; delivery: number }) =>
      http.post(`integrations/${id}/deliveries/${delivery}/resend`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}
