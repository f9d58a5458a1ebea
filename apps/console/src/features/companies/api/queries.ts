import type {
  activationListResponse,
  companyDetailResponse,
  companyResponse,
  productKeyResponse,
} from '@forpost/contract/companies';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type Company = z.infer<typeof companyResponse>;
export type CompanyDetail = z.infer<typeof companyDetailResponse>;
export type ProductKey = z.infer<typeof productKeyResponse>;
export type Activation = z.infer<typeof activationListResponse>['items'][number];

export interface CompanyListParams {
  page: number;
  page_size: number;
  q?: string;
  is_active?: 'true' | 'false';
}

export const companyKeys = {
  all: ['companies'] as const,
  lists: () => [...companyKeys.all, 'list'] as const,
  list: (p: CompanyListParams) => [...companyKeys.lists(), p] as const,
  options: () => [...companyKeys.all, 'options'] as const,
  details: () => [...companyKeys.all, 'detail'] as const,
  detail: (id: number) => [...companyKeys.details(), id] as const,
  keys: (id: number) => [...companyKeys.detail(id), 'keys'] as const,
};

const modulesKeys = { all: ['modules'] as const };

/** GET /companies (search, active filter, pages). */
export function useCompaniesQuery(params: CompanyListParams) {
  return useQuery({
    queryKey: companyKeys.list(params),
    queryFn: () => http.get('companies', { searchParams: { ...params } }).json<Page<Company>>(),
    placeholderData: keepPreviousData,
  });
}

/** Every company the user may see (for selects and name lookups); the API's page limit is 500. */
const companyOptionsQuery = queryOptions({
  queryKey: companyKeys.options(),
  queryFn: () => http.get('companies', { searchParams: { page: 1, page_size: 500 } }).json<Page<Company>>(),
  staleTime: 60_000,
});
export function useCompanyOptions() {
  const q = useQuery(companyOptionsQuery);
  const items = q.data?.items ?? [];
  return {
    ...q,
    items,
    options: items.map((c) => ({ value: c.id, label: c.is_active ? c.name : `${c.name} (отключена)` })),
    nameOf: (id: number | null | undefined) => (id == null ? undefined : items.find((c) => c.id === id)?.name),
  };
}

/** GET /companies/{id}: the company with its members. A missing one shows the 404 page. */
export function useCompanyQuery(id: number | undefined) {
  return useQuery({
    queryKey: companyKeys.detail(id ?? 0),
    queryFn: () => http.get(`companies/${id}`, { context: { errorMode: 'global' } }).json<CompanyDetail>(),
    enabled: id !== undefined,
  });
}

/** GET /companies/{id}/keys: the company's product keys. */
export function useProductKeysQuery(id: number | undefined, enabled = true) {
  return useQuery({
    queryKey: companyKeys.keys(id ?? 0),
    queryFn: () => http.get(`companies/${id}/keys`).json<{ items: ProductKey[] }>(),
    enabled: id !== undefined && enabled,
  });
}

export interface ModuleOption {
  code: string;
  name: string;
}

/**
 * The event modules for pickers: GET /modules ({items: [{id, code, name}]}) when the server has it,
 * otherwise the contract's module registry. Loaded once and cached.
 */
export function useModuleOptions() {
  const q = useQuery({
    queryKey: modulesKeys.all,
    queryFn: async (): Promise<ModuleOption[]> => {
      try {
        const res = await http.get('modules', { context: { errorMode: 'silent' }, retry: 0 }).json<{ items: ModuleOption[] }>();
        if (Array.isArray(res.items) && res.items.length) return res.items.map((m) => ({ code: m.code, name: m.name }));
      } catch {
        // No /modules on this server: the registry has the same list.
      }
      return MODULE_SECTIONS.map((m) => ({ code: m.code, name: m.name }));
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const list = q.data ?? MODULE_SECTIONS.map((m) => ({ code: m.code, name: m.name }));
  return {
    list,
    options: list.map((m) => ({ value: m.code, label: m.name })),
    nameOf: (code: string) => list.find((m) => m.code === code)?.name ?? code,
  };
}
