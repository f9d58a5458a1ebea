import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { DashboardPage } from '../../../features/dashboard/DashboardPage';
import { type DashboardSearch, validateDashboardSearch } from '../../../features/dashboard/search';

export const Route = createFileRoute('/_auth/_app/')({
  validateSearch: validateDashboardSearch,
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = useCallback((next: DashboardSearch) => void navigate({ search: next }), [navigate]);
  return <DashboardPage search={search} onSearch={onSearch} />;
}
