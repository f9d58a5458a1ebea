import type { Delivery, Mailing, MailingFilterOptions, MailingParamOptions } from '@forpost/contract/mailings';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export interface MailingListParams {
  page: number;
  page_size: number;
  company_id?: number;
  q?: string;
}

export const mailingKeys = {
  all: ['mailings'] as const,
  lists: () => [...mailingKeys.all, 'list'] as const,
  list: (p: MailingListParams) => [...mailingKeys.lists(), p] as const,
  details: () => [...mailingKeys.all, 'detail'] as const,
  detail: (id: number) => [...mailingKeys.details(), id] as const,
  deliveries: (id: number, page: number) => [...mailingKeys.detail(id), 'deliveries', page] as const,
  filters: () => [...mailingKeys.all, 'filters'] as const,
  params: () => [...mailingKeys.all, 'params'] as const,
  preview: (body: unknown) => [...mailingKeys.all, 'preview', body] as const,
};

/** GET /notifications/mailings. */
export function useMailingsQuery(params: MailingListParams) {
  return useQuery({
    queryKey: mailingKeys.list(params),
    queryFn: () => http.get('notifications/mailings', { searchParams: { ...params } }).json<Page<Mailing>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /notifications/mailings/{id}; a missing one shows the 404 page. */
export function useMailingQuery(id: number | undefined) {
  return useQuery({
    queryKey: mailingKeys.detail(id ?? 0),
    queryFn: () => http.get(`notifications/mailings/${id}`, { context: { errorMode: 'global' } }).json<Mailing>(),
    enabled: id !== undefined,
  });
}

/** GET /notifications/mailings/{id}/deliveries: the emails sent, failed or waiting. */
export function useDeliveriesQuery(id: number | undefined, page: number) {
  return useQuery({
    queryKey: mailingKeys.deliveries(id ?? 0, page),
    queryFn: () =>
      http.get(`notifications/mailings/${id}/deliveries`, { searchParams: { page, page_size: 10 } }).json<Page<Delivery>>(),
    enabled: id !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: 20_000,
  });
}

export function useMailingFilterOptions() {
  return useQuery({
    queryKey: mailingKeys.filters(),
    queryFn: () => http.get('notifications/mailings/filters').json<MailingFilterOptions>(),
    staleTime: 60_000,
  });
}

export function useMailingParamOptions() {
  return useQuery({
    queryKey: mailingKeys.params(),
    queryFn: () => http.get('notifications/mailings/params').json<MailingParamOptions>(),
    staleTime: 10 * 60_000,
  });
}
