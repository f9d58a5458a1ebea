import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../../features/auth/guards';
import { UserEditPage } from '../../../../../features/users/UserEditPage';
import { optionalIdParams } from '../../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/users/{-$id}/edit')({
  beforeLoad: requirePermission('users.manage'),
  params: optionalIdParams,
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <UserEditPage key={id ?? 'new'} id={id === undefined ? undefined : Number(id)} />;
}
