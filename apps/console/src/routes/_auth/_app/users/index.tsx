import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SectionPending } from '../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/users/')({
  beforeLoad: requirePermission('users.read'),
  component: () => <SectionPending title="Пользователи" />,
});
