import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { EventDetailPage } from '../../../../features/events/detail/EventDetailPage';
import { idParams } from '../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/$section/$id')({
  beforeLoad: requirePermission('events.read'),
  params: idParams,
  component: Page,
});

function Page() {
  const { section } = Route.useRouteContext();
  const { id } = Route.useParams();
  return <EventDetailPage key={`${section.section}/${id}`} section={section} id={Number(id)} />;
}
