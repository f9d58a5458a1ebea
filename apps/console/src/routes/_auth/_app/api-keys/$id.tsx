import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SectionPending } from '../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/api-keys/$id')({
  beforeLoad: requirePermission('apikeys.read'),
  component: () => <SectionPending title="API-ключ" />,
});
