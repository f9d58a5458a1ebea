import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { MailingsPage } from '../../../../features/notifications/MailingsPage';
import { parseMailingsSearch } from '../../../../features/notifications/search';

export const Route = createFileRoute('/_auth/_app/notifications/')({
  validateSearch: parseMailingsSearch,
  beforeLoad: requirePermission('mailings.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <MailingsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
