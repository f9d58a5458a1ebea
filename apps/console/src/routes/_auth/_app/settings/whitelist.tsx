import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { parseWhitelistSearch } from '../../../../features/whitelist/search';
import { WhitelistPage } from '../../../../features/whitelist/WhitelistPage';

export const Route = createFileRoute('/_auth/_app/settings/whitelist')({
  validateSearch: parseWhitelistSearch,
  beforeLoad: requirePermission('whitelist.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <WhitelistPage
      search={search}
      onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })}
    />
  );
}
