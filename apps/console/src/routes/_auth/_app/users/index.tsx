import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { parseUsersSearch } from '../../../../features/users/search';
import { UsersPage } from '../../../../features/users/UsersPage';

export const Route = createFileRoute('/_auth/_app/users/')({
  validateSearch: parseUsersSearch,
  beforeLoad: requirePermission('users.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <UsersPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
