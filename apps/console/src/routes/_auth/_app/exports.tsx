import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../features/auth/guards';
import { ExportsPage } from '../../../features/exports/ExportsPage';

export const Route = createFileRoute('/_auth/_app/exports')({
  beforeLoad: requirePermission('events.export'),
  component: ExportsPage,
});
