import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../components/list/urlSearchProps';
import { requirePermission } from '../../../features/auth/guards';
import { ReportsPage } from '../../../features/reports/ReportsPage';
import { parseReportsSearch } from '../../../features/reports/search';

export const Route = createFileRoute('/_auth/_app/reports')({
  validateSearch: parseReportsSearch,
  beforeLoad: requirePermission('reports.read'),
  component: Page,
});

function Page() {
  return <ReportsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
