import type { Report } from '@forpost/contract/reports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';
import { sendPending } from '../sendState';

export interface ReportListParams {
  page: number;
  page_size: number;
  company_id?: number;
}

export const reportKeys = {
  all: ['reports'] as const,
  lists: () => [...reportKeys.all, 'list'] as const,
  list: (p: ReportListParams) => [...reportKeys.lists(), p] as const,
};

const busy = (r: Report) => r.status === 'queued' || r.status === 'rendering' || sendPending(r.last_send);

/** GET /tools/reports; polled every 2 s while a report is being rendered or sent. */
export function useReportsQuery(params: ReportListParams) {
  return useQuery({
    queryKey: reportKeys.list(params),
    queryFn: () => http.get('tools/reports', { searchParams: { ...params } }).json<Page<Report>>(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(busy) ? 2000 : false),
  });
}
