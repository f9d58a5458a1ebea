/* Discovery (#17) requests: protected assets of a company, candidate preview, runs. */
import type { Asset, AssetKind, DiscoveryRun, PreviewResponse, SourcesResponse } from '@forpost/contract/discovery';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../components/list/pagination';
import { http } from '../../lib/http';

export type { Asset, DiscoveryRun };

export const discoveryKeys = {
  all: ['discovery'] as const,
  assets: (companyId: number) => [...discoveryKeys.all, 'assets', companyId] as const,
  runs: (p: RunsParams) => [...discoveryKeys.all, 'runs', p] as const,
  preview: (domain: string) => [...discoveryKeys.all, 'preview', domain] as const,
};

export function useAssetsQuery(companyId: number | undefined) {
  return useQuery({
    queryKey: discoveryKeys.assets(companyId ?? 0),
    queryFn: () => http.get(`companies/${companyId}/assets`, { searchParams: { page_size: 500 } }).json<Page<Asset>>(),
    enabled: companyId !== undefined,
  });
}

function useInvalidateAssets(companyId: number) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: discoveryKeys.assets(companyId) }),
      qc.invalidateQueries({ queryKey: [...discoveryKeys.all, 'sources'] }),
    ]);
}

export function useAddAssetMutation(companyId: number) {
  const onSuccess = useInvalidateAssets(companyId);
  return useMutation({
    mutationFn: (body: { kind: AssetKind; value: string }) =>
      http.post(`companies/${companyId}/assets`, { json: body, context: { errorMode: 'silent' } }).json<Asset>(),
    onSuccess,
  });
}

export function useToggleAssetMutation(companyId: number) {
  const onSuccess = useInvalidateAssets(companyId);
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      http.patch(`companies/${companyId}/assets/${id}`, { json: { enabled } }).json<Asset>(),
    onSuccess,
  });
}

export function useDeleteAssetMutation(companyId: number) {
  const onSuccess = useInvalidateAssets(companyId);
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`companies/${companyId}/assets/${id}`);
    },
    onSuccess,
  });
}

/** Every candidate of a domain (POST /discovery/preview); `domain` empty = nothing asked yet. */
export function usePreviewQuery(domain: string) {
  return useQuery({
    queryKey: discoveryKeys.preview(domain),
    queryFn: () => http.post('discovery/preview', { json: { domain }, context: { errorMode: 'silent' } }).json<PreviewResponse>(),
    enabled: domain !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export interface RunsParams {
  company_id?: number;
  page: number;
  page_size: number;
}

/** Runs, refreshed every 3 s while one of the page is queued or running. */
export function useRunsQuery(params: RunsParams) {
  return useQuery({
    queryKey: discoveryKeys.runs(params),
    queryFn: () => http.get('discovery/runs', { searchParams: { ...params } }).json<Page<DiscoveryRun>>(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running') ? 3000 : false),
  });
}

export function useStartRunMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (companyId: number) =>
      http.post('discovery/runs', { json: { company_id: companyId }, context: { errorMode: 'silent' } }).json<DiscoveryRun>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...discoveryKeys.all, 'runs'] }),
  });
}

/** Stops a run (queued: at once; running: its worker ends it within seconds, keeping what it found). */
export function useCancelRunMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      http.post(`discovery/runs/${id}/cancel`, { context: { errorMode: 'silent' } }).json<DiscoveryRun>(),
    onSettled: () => qc.invalidateQueries({ queryKey: [...discoveryKeys.all, 'runs'] }),
  });
}

/**
 * Which sources are missing or down before a run (GET /discovery/sources?probe=1), and the company's
 * enabled domains and words; asked again at most once a minute.
 */
export function useSourcesQuery(companyId: number | undefined) {
  return useQuery({
    queryKey: [...discoveryKeys.all, 'sources', companyId ?? null] as const,
    queryFn: () =>
      http
        .get('discovery/sources', {
          searchParams: { probe: 1, ...(companyId !== undefined ? { company_id: companyId } : {}) },
          context: { errorMode: 'silent' },
        })
        .json<SourcesResponse>(),
    staleTime: 60_000,
    retry: false,
  });
}
