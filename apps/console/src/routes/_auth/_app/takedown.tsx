import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../features/auth/guards';
import { TakedownPage } from '../../../features/takedown/TakedownPage';

export const Route = createFileRoute('/_auth/_app/takedown')({
  beforeLoad: requirePermission('events.read'),
  component: TakedownPage,
});
