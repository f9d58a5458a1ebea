/* Imports of a module's events or of the leaks catalogue: query keys and hooks. */
import {
  IMPORT_ACTIVE,
  type ImportCheck,
  type ImportCheckRequest,
  type ImportItem,
  type ImportList,
} from '@forpost/contract/imports';
import type { ModuleCode } from '@forpost/contract/modules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** What a page imports into: a module's events, or the leaks catalogue. */
export type ImportTarget = { kind: 'module'; code: ModuleCode } | { kind: 'catalogue' };

/** API path of a target's imports (relative to /api/v1). */
export const importsBase = (t: ImportTarget) =>
  t.kind === 'module' ? `modules/${t.code}/events/imports` : 'modules/leaks/imports';
/** Where the browser downloads an import's error report. */
export const errorReportUrl = (t: ImportTarget, id: number) => `/api/v1/${importsBase(t)}/${id}/errors`;

export interface ImportListParams {
  page: number;
  page_size: number;
  company_id?: number;
}

export const importKeys = {
  all: ['imports'] as const,
  target: (base: string) => [...importKeys.all, base] as const,
  lists: (base: string) => [...importKeys.target(base), 'list'] as const,
  list: (base: string, p: ImportListParams) => [...importKeys.lists(base), p] as const,
  detail: (base: string, id: number) => [...importKeys.target(base), 'detail', id] as const,
};

export const isActive = (i: Pick<ImportItem, 'status'>) => IMPORT_ACTIVE.has(i.status);

/** GET …/imports: the history; refreshed every 2 s while one of them runs. */
export function useImportsQuery(t: ImportTarget, params: ImportListParams) {
  const base = importsBase(t);
  return useQuery({
    queryKey: importKeys.list(base, params),
    queryFn: () => http.get(base, { searchParams: { ...params } }).json<ImportList>(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(isActive) ? 2000 : false),
  });
}

/** GET …/imports/{id}: an import and its progress, polled every second while its job runs. */
export function useImportQuery(t: ImportTarget, id: number | undefined) {
  const base = importsBase(t);
  return useQuery({
    queryKey: importKeys.detail(base, id ?? 0),
    queryFn: () => http.get(`${base}/${id}`, { context: { errorMode: 'silent' } }).json<ImportItem>(),
    enabled: id !== undefined,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data) ? 1000 : false),
  });
}

/** The dry run reads the whole file: longer than an ordinary request may take. */
const CHECK_TIMEOUT_MS = 10 * 60_000;

/**
 * POST …/imports/{id}/check: every row of the file checked with `body.mapping` as the import would,
 * nothing written. Re-run when the mapping or the company changes; an outdated run is cancelled.
 */
export function useImportCheck(t: ImportTarget, id: number, body: ImportCheckRequest, enabled: boolean) {
  const base = importsBase(t);
  return useQuery({
    queryKey: [...importKeys.detail(base, id), 'check', body] as const,
    queryFn: ({ signal }) =>
      http
        .post(`${base}/${id}/check`, { json: body, signal, timeout: CHECK_TIMEOUT_MS, context: { errorMode: 'silent' } })
        .json<ImportCheck>(),
    enabled,
    staleTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
