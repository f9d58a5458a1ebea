import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { IntegrationsPage } from '../../../../features/integrations/IntegrationsPage';

export const Route = createFileRoute('/_auth/_app/settings/integrations')({
  beforeLoad: requirePermission('integrations.manage'),
  component: IntegrationsPage,
});
