import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SectionPending } from '../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/settings/whitelist')({
  beforeLoad: requirePermission('whitelist.read'),
  component: () => <SectionPending title="Белый список" />,
});
