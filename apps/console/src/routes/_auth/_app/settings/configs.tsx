import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { ConfigsPage } from '../../../../features/settings/configs/ConfigsPage';

export const Route = createFileRoute('/_auth/_app/settings/configs')({
  beforeLoad: requirePermission('configs.manage'),
  component: ConfigsPage,
});
