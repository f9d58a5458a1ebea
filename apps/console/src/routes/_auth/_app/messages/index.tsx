import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { MessagesPage } from '../../../../features/messages/MessagesPage';
import { parseMessagesSearch } from '../../../../features/messages/search';

export const Route = createFileRoute('/_auth/_app/messages/')({
  validateSearch: parseMessagesSearch,
  beforeLoad: requirePermission('messages.read'),
  component: Page,
});

function Page() {
  return <MessagesPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
