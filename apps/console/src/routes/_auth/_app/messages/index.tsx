import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { MessagesPage } from '../../../../features/messages/MessagesPage';
import { parseMessagesSearch } from '../../../../features/messages/search';

export const Route = createFileRoute('/_auth/_app/messages/')({
  validateSearch: parseMessagesSearch,
  beforeLoad: requirePermission('messages.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <MessagesPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
