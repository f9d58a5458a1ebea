import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { DiscoveryPage } from '../../../../features/discovery/DiscoveryPage';

export const Route = createFileRoute('/_auth/_app/discovery/')({
  beforeLoad: requirePermission('discovery.read'),
  component: DiscoveryPage,
});
