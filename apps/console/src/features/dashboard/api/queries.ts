import type { MatrixResponse, TimeSeriesResponse } from '@forpost/contract/analytics';
import { DASHBOARD_CHARTS, type DashboardChart } from '@forpost/contract/analytics-period';
import type { MlSummary } from '@forpost/contract/classifier';
import type { SlaSummaryResponse } from '@forpost/contract/sla';
import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { DashboardSearch } from '../search';

/** What every dashboard chart is asked for (the company comes from the header selector). */
export interface DashboardParams {
  company_id?: number;
  period?: string;
  from?: string;
  to?: string;
  modules?: string[];
}

/** The parameters of the page's URL state and the selected company (the page and the prefetch). */
export function dashboardParams(search: DashboardSearch, companyId: number | undefined): DashboardParams {
  const custom = Boolean(search.from && search.to);
  return {
    company_id: companyId,
    ...(custom ? { from: search.from, to: search.to } : { period: search.period ?? '30d' }),
    modules: search.modules ? search.modules.split(',') : undefined,
  };
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

/** GET /modules/analytics/dashboard/… for one chart: the query, for the page and for the prefetch. */
const chartQuery = <C extends DashboardChart>(chart: C, params: DashboardParams) =>
  queryOptions({
    queryKey: dashboardKeys.chart(chart, params),
    queryFn: () =>
      http
        .get(`modules/analytics/dashboard/${DASHBOARD_CHARTS[chart].path}`, {
          searchParams: { ...params },
          // The page shows one error for all its charts and each chart its own «Повторить»: no toasts.
          context: { errorMode: 'silent' },
        })
        .json<ChartData<C>>(),
    staleTime: 60_000,
  });

/** GET /modules/analytics/dashboard/common/sla: overdue now and median times, per module and company. */
const slaQuery = (params: DashboardParams) =>
  queryOptions({
    queryKey: dashboardKeys.sla(params),
    queryFn: () =>
      http
        .get('modules/analytics/dashboard/common/sla', { searchParams: { ...params }, context: { errorMode: 'silent' } })
        .json<SlaSummaryResponse>(),
    staleTime: 60_000,
  });

export function useDashboardChart<C extends DashboardChart>(chart: C, params: DashboardParams) {
  return useQuery({ ...chartQuery(chart, params), placeholderData: keepPreviousData });
}

/**
 * Starts every request of the home page from its route's loader, not awaited: they go out while the
 * shell and the page are still rendering (≈ 1 s on a slow machine, bench/README «console.bench»), and
 * the page's first render finds their answers in the cache instead of sending them after it.
 */
export function prefetchDashboard(qc: QueryClient, params: DashboardParams): void {
  for (const chart of Object.keys(DASHBOARD_CHARTS) as DashboardChart[]) void qc.prefetchQuery(chartQuery(chart, params));
  void qc.prefetchQuery(slaQuery(params));
}

/** GET /classifier/summary: queued, in flight and failed events. */
export function useMlSummary(companyId?: number) {
  return useQuery({
    queryKey: dashboardKeys.mlSummary(companyId),
    queryFn: () => http.get('classifier/summary', { searchParams: { company_id: companyId } }).json<MlSummary>(),
    refetchInterval: 15_000,
  });
}

/** GET /modules/analytics/dashboard/common/sla (slaQuery). */
export function useSlaSummary(params: DashboardParams) {
  return useQuery({ ...slaQuery(params), placeholderData: keepPreviousData });
}
