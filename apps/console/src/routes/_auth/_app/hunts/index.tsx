import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { HuntsPage } from '../../../../features/hunts/HuntsPage';

export const Route = createFileRoute('/_auth/_app/hunts/')({
  beforeLoad: requirePermission('hunts.manage'),
  component: HuntsPage,
});
