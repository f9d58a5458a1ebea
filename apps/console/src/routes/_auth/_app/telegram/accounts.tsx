import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { AccountsPage } from '../../../../features/telegram/AccountsPage';
import { parseAccountsSearch } from '../../../../features/telegram/search';

export const Route = createFileRoute('/_auth/_app/telegram/accounts')({
  validateSearch: parseAccountsSearch,
  beforeLoad: requirePermission('telegram.read'),
  component: Page,
});

function Page() {
  return <AccountsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
