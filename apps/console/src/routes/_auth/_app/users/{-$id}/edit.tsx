import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../../features/auth/guards';
import { SectionPending } from '../../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/users/{-$id}/edit')({
  beforeLoad: requirePermission('users.manage'),
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <SectionPending title={id ? 'Редактирование пользователя' : 'Новый пользователь'} />;
}
