import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { LeakTypesPage } from '../../../../features/settings/leak-types/LeakTypesPage';
import { parseQSearch } from '../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/leaks-types')({
  validateSearch: parseQSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LeakTypesPage
      search={search}
      onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })}
    />
  );
}
