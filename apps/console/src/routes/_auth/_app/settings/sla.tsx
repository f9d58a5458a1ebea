import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SlaSettingsPage } from '../../../../features/sla/SlaSettingsPage';

export const Route = createFileRoute('/_auth/_app/settings/sla')({
  beforeLoad: requirePermission('settings.read'),
  component: SlaSettingsPage,
});
