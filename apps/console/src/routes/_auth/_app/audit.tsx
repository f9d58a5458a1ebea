import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../components/list/urlSearchProps';
import { AuditPage } from '../../../features/audit/AuditPage';
import { parseAuditSearch } from '../../../features/audit/search';
import { requirePermission } from '../../../features/auth/guards';

export const Route = createFileRoute('/_auth/_app/audit')({
  validateSearch: parseAuditSearch,
  beforeLoad: requirePermission('audit.read'),
  component: Page,
});

function Page() {
  return <AuditPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
