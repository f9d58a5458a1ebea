import type { apiKeyResponse, apiKeyWithSecretResponse } from '@forpost/contract/apikeys';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type ApiKey = z.infer<typeof apiKeyResponse>;
export type ApiKeyWithSecret = z.infer<typeof apiKeyWithSecretResponse>;

export interface ApiKeyListParams {
  page: number;
  page_size: number;
  company_id?: number;
  q?: string;
}

export const apiKeyKeys = {
  all: ['apikeys'] as const,
  lists: () => [...apiKeyKeys.all, 'list'] as const,
  list: (p: ApiKeyListParams) => [...apiKeyKeys.lists(), p] as const,
  details: () => [...apiKeyKeys.all, 'detail'] as const,
  detail: (id: number) => [...apiKeyKeys.details(), id] as const,
};

/** GET /apikeys (company from the header selector, name search, pages). */
export function useApiKeysQuery(params: ApiKeyListParams) {
  return useQuery({
    queryKey: apiKeyKeys.list(params),
    queryFn: () => http.get('apikeys', { searchParams: { ...params } }).json<Page<ApiKey>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /apikeys/{id}; a missing key shows the 404 page. */
export function useApiKeyQuery(id: number) {
  return useQuery({
    queryKey: apiKeyKeys.detail(id),
    queryFn: () => http.get(`apikeys/${id}`, { context: { errorMode: 'global' } }).json<ApiKey>(),
  });
}
