import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { MessagePage } from '../../../../features/messages/MessagePage';
import { parseMessageSearch } from '../../../../features/messages/search';
import { idParams } from '../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/messages/$id')({
  validateSearch: parseMessageSearch,
  beforeLoad: requirePermission('messages.read'),
  params: idParams,
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  const { q } = Route.useSearch();
  return <MessagePage key={id} id={Number(id)} q={q} />;
}
