import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../components/list/listSearch';
import { AuditPage } from '../../../features/audit/AuditPage';
import { parseAuditSearch } from '../../../features/audit/search';
import { requirePermission } from '../../../features/auth/guards';

export const Route = createFileRoute('/_auth/_app/audit')({
  validateSearch: parseAuditSearch,
  beforeLoad: requirePermission('audit.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AuditPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
