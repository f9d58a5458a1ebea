import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { AccountsPage } from '../../../../features/telegram/AccountsPage';
import { parseAccountsSearch } from '../../../../features/telegram/search';

export const Route = createFileRoute('/_auth/_app/telegram/accounts')({
  validateSearch: parseAccountsSearch,
  beforeLoad: requirePermission('telegram.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AccountsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
