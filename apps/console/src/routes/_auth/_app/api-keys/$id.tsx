import { createFileRoute } from '@tanstack/react-router';
import { ApiKeyPage } from '../../../../features/apikeys/ApiKeyPage';
import { requirePermission } from '../../../../features/auth/guards';
import { idParams } from '../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/api-keys/$id')({
  params: idParams,
  beforeLoad: requirePermission('apikeys.read'),
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <ApiKeyPage key={id} id={Number(id)} />;
}
