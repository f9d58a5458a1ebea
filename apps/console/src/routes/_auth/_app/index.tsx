import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { companyFilter } from '../../../features/company/useCompanyId';
import { dashboardParams, prefetchDashboard } from '../../../features/dashboard/api/queries';
import { DashboardPage } from '../../../features/dashboard/DashboardPage';
import { type DashboardSearch, validateDashboardSearch } from '../../../features/dashboard/search';

export const Route = createFileRoute('/_auth/_app/')({
  validateSearch: validateDashboardSearch,
  loaderDeps: ({ search }) => search,
  // The page's requests leave now, while the shell and the page render (not awaited); not when the
  // router merely preloads the route (a hovered link to the home page).
  loader: ({ context, deps, preload }) => {
    if (!preload) prefetchDashboard(context.queryClient, dashboardParams(deps, companyFilter()));
  },
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = useCallback((next: DashboardSearch) => void navigate({ search: next }), [navigate]);
  return <DashboardPage search={search} onSearch={onSearch} />;
}
