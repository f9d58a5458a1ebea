import { createFileRoute, notFound } from '@tanstack/react-router';
import { ApiKeyPage } from '../../../../features/apikeys/ApiKeyPage';
import { requirePermission } from '../../../../features/auth/guards';

export const Route = createFileRoute('/_auth/_app/api-keys/$id')({
  params: {
    parse: ({ id }) => {
      if (!/^\d+$/.test(id)) throw notFound();
      return { id };
    },
    stringify: ({ id }) => ({ id }),
  },
  beforeLoad: requirePermission('apikeys.read'),
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <ApiKeyPage key={id} id={Number(id)} />;
}
