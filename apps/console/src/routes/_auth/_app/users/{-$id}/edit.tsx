import { createFileRoute, notFound } from '@tanstack/react-router';
import { requirePermission } from '../../../../../features/auth/guards';
import { UserEditPage } from '../../../../../features/users/UserEditPage';

export const Route = createFileRoute('/_auth/_app/users/{-$id}/edit')({
  beforeLoad: requirePermission('users.manage'),
  params: {
    parse: ({ id }) => {
      if (id === undefined) return { id: undefined };
      if (!/^\d+$/.test(id)) throw notFound();
      return { id };
    },
    stringify: ({ id }) => ({ id }),
  },
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <UserEditPage key={id ?? 'new'} id={id === undefined ? undefined : Number(id)} />;
}
