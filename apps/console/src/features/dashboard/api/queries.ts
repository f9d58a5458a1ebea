import type { MatrixResponse, TimeSeriesResponse } from '@forpost/contract/analytics';
import { DASHBOARD_CHARTS, type DashboardChart } from '@forpost/contract/analytics-period';
import type { MlSummary } from '@forpost/contract/classifier';
import type { SlaSummaryResponse } from '@forpost/contract/sla';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** What every dashboard chart is asked for (the company comes from the header selector). */
export interface DashboardParams {
  company_id?: number;
  period?: string;
  from?: string;
  to?: string;
  modules?: string[];
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  charts: () => [...dashboardKeys.all, 'chart'] as const,
  chart: (chart: DashboardChart, p: DashboardParams) => [...dashboardKeys.charts(), chart, p] as const,
  mlSummary: (companyId?: number) => [...dashboardKeys.all, 'ml-summary', companyId ?? -1] as const,
  sla: (p: DashboardParams) => [...dashboardKeys.all, 'sla', p] as const,
};

type ChartData<C extends DashboardChart> = (typeof DASHBOARD_CHARTS)[C]['shape'] extends 'matrix'
  ? MatrixResponse
  : TimeSeriesResponse;

/** GET /modules/analytics/dashboard/… for one chart. */
export function useDashboardChart<C extends DashboardChart>(chart: C, params: DashboardParams) {
  return useQuery({
    queryKey: dashboardKeys.chart(chart, params),
    queryFn: () =>
      http
        .get(`modules/analytics/dashboard/${DASHBOARD_CHARTS[chart].path}`, {
          searchParams: { ...params },
          // The page shows one error for all its charts and each chart its own «Повторить»: no toasts.
          context: { errorMode: 'silent' },
        })
        .json<ChartData<C>>(),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** GET /classifier/summary: queued, in flight and failed events. */
export function useMlSummary(companyId?: number) {
  return useQuery({
    queryKey: dashboardKeys.mlSummary(companyId),
    queryFn: () => http.get('classifier/summary', { searchParams: { company_id: companyId } }).json<MlSummary>(),
    refetchInterval: 15_000,
  });
}

/** GET /modules/analytics/dashboard/common/sla: overdue now and median times, per module and company. */
export function useSlaSummary(params: DashboardParams) {
  return useQuery({
    queryKey: dashboardKeys.sla(params),
    queryFn: () =>
      http
        .get('modules/analytics/dashboard/common/sla', { searchParams: { ...params }, context: { errorMode: 'silent' } })
        .json<SlaSummaryResponse>(),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
