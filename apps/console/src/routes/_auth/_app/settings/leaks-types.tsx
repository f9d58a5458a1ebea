import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SectionPending } from '../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/settings/leaks-types')({
  beforeLoad: requirePermission('settings.read'),
  component: () => <SectionPending title="Типы утечек" />,
});
