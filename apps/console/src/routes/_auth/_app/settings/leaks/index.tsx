import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../../components/list/listSearch';
import { requirePermission } from '../../../../../features/auth/guards';
import { LeaksPage } from '../../../../../features/settings/leaks/LeaksPage';
import { parseLeaksSearch } from '../../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/leaks/')({
  validateSearch: parseLeaksSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LeaksPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
