import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { parseUsersSearch } from '../../../../features/users/search';
import { UsersPage } from '../../../../features/users/UsersPage';

export const Route = createFileRoute('/_auth/_app/users/')({
  validateSearch: parseUsersSearch,
  beforeLoad: requirePermission('users.read'),
  component: Page,
});

function Page() {
  return <UsersPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
