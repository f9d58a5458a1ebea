import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { ApiKeysPage } from '../../../../features/apikeys/ApiKeysPage';
import { parseApiKeysSearch } from '../../../../features/apikeys/search';
import { requirePermission } from '../../../../features/auth/guards';

export const Route = createFileRoute('/_auth/_app/api-keys/')({
  validateSearch: parseApiKeysSearch,
  beforeLoad: requirePermission('apikeys.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ApiKeysPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
