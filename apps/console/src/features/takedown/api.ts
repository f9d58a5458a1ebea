/* Queries and mutations of takedown requests (#32): the list, one request, drafting, recipients, sending, steps, figures. */
import type {
  RecipientKind,
  TakedownAction,
  TakedownFigures,
  TakedownRequest,
  TakedownState,
  takedownList,
} from '@forpost/contract/takedown';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';

export type TakedownListResponse = z.infer<typeof takedownList>;
export interface TakedownListParams {
  state?: TakedownState;
  q?: string;
  event_id?: number;
  company_id?: number;
  page: number;
  per_page: number;
}

export const takedownKeys = {
  all: ['takedown'] as const,
  list: (p: TakedownListParams) => [...takedownKeys.all, 'list', p] as const,
  one: (id: number) => [...takedownKeys.all, 'one', id] as const,
  figures: (companyId?: number) => [...takedownKeys.all, 'figures', companyId ?? null] as const,
};

const clean = (p: object) =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

export function useTakedownList(p: TakedownListParams, enabled = true) {
  return useQuery({
    queryKey: takedownKeys.list(p),
    queryFn: () => http.get('takedown/requests', { searchParams: clean(p) }).json<TakedownListResponse>(),
    enabled,
  });
}

export function useTakedown(id: number | null) {
  return useQuery({
    queryKey: takedownKeys.one(id ?? 0),
    queryFn: () => http.get(`takedown/requests/${id}`).json<TakedownRequest>(),
    enabled: id !== null,
  });
}

export function useTakedownFigures(companyId?: number) {
  return useQuery({
    queryKey: takedownKeys.figures(companyId),
    queryFn: () =>
      http
        .get('takedown/figures', { searchParams: clean({ company_id: companyId }), context: { errorMode: 'silent' } })
        .json<TakedownFigures>(),
  });
}

function useSaved() {
  const qc = useQueryClient();
  return (r: TakedownRequest) => {
    qc.setQueryData(takedownKeys.one(r.id), r);
    void qc.invalidateQueries({ queryKey: [...takedownKeys.all, 'list'] });
    void qc.invalidateQueries({ queryKey: [...takedownKeys.all, 'figures'] });
  };
}

export function useCreateTakedown() {
  const saved = useSaved();
  return useMutation({
    mutationFn: (b: { event_id: number; comment?: string }) =>
      http.post('takedown/requests', { json: b }).json<TakedownRequest>(),
    onSuccess: saved,
  });
}

export function useBulkTakedown() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (event_ids: number[]) =>
      http
        .post('takedown/requests/bulk', { json: { event_ids } })
        .json<{ created: number[]; skipped: { event_id: number; reason: string }[] }>(),
    onSuccess: () => void qc.invalidateQueries({ queryKey: takedownKeys.all }),
  });
}

export function useSetRecipients(id: number) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (recipients: { kind: RecipientKind; email: string; name?: string | null; send: boolean }[]) =>
      http.put(`takedown/requests/${id}/recipients`, { json: { recipients } }).json<TakedownRequest>(),
    onSuccess: saved,
  });
}

export function useSendTakedown(id: number) {
  const saved = useSaved();
  return useMutation({
    mutationFn: () => http.post(`takedown/requests/${id}/send`, { json: {} }).json<TakedownRequest>(),
    onSuccess: saved,
  });
}

export function useTakedownStep(id: number) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (b: { action: TakedownAction; comment?: string }) =>
      http.post(`takedown/requests/${id}/step`, { json: b }).json<TakedownRequest>(),
    onSuccess: saved,
  });
}
