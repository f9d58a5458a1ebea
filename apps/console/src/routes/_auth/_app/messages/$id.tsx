import { createFileRoute, notFound } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { MessagePage } from '../../../../features/messages/MessagePage';
import { parseMessageSearch } from '../../../../features/messages/search';

export const Route = createFileRoute('/_auth/_app/messages/$id')({
  validateSearch: parseMessageSearch,
  beforeLoad: requirePermission('messages.read'),
  // Only a positive integer can be a message id; anything else is the 404 page.
  params: {
    parse: ({ id }) => {
      if (!/^\d{1,15}$/.test(id) || Number(id) < 1) throw notFound();
      return { id };
    },
    stringify: ({ id }) => ({ id }),
  },
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  const { q } = Route.useSearch();
  return <MessagePage key={id} id={Number(id)} q={q} />;
}
