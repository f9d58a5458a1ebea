import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../components/list/listSearch';
import { requirePermission } from '../../../features/auth/guards';
import { ReportsPage } from '../../../features/reports/ReportsPage';
import { parseReportsSearch } from '../../../features/reports/search';

export const Route = createFileRoute('/_auth/_app/reports')({
  validateSearch: parseReportsSearch,
  beforeLoad: requirePermission('reports.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ReportsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
