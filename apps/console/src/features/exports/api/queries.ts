/* «Мои экспорты»: query keys and hooks. */
import type { ExportItem, ExportList, exportFieldsResponse } from '@forpost/contract/exports';
import type { ModuleCode } from '@forpost/contract/modules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';

export type ExportFields = z.infer<typeof exportFieldsResponse>;

export const exportKeys = {
  all: ['exports'] as const,
  lists: () => [...exportKeys.all, 'list'] as const,
  list: (p: { page: number; page_size: number }) => [...exportKeys.lists(), p] as const,
  fields: (module: ModuleCode) => [...exportKeys.all, 'fields', module] as const,
};

export const exportActive = (e: Pick<ExportItem, 'status'>) => e.status === 'queued' || e.status === 'running';
export const downloadUrl = (id: number) => `/api/v1/modules/exports/${id}/download`;

/** GET /modules/exports: the user's own exports; polled every second while one is being built. */
export function useExportsQuery(p: { page: number; page_size: number }) {
  return useQuery({
    queryKey: exportKeys.list(p),
    queryFn: () => http.get('modules/exports', { searchParams: { ...p } }).json<ExportList>(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(exportActive) ? 1000 : false),
  });
}

/** GET /modules/exports/fields?module=…: what can go into the file, with Russian labels. */
export function useExportFieldsQuery(module: ModuleCode, enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.fields(module),
    queryFn: () => http.get('modules/exports/fields', { searchParams: { module } }).json<ExportFields>(),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
