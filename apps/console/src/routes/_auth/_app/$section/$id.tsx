import { createFileRoute, notFound } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { EventDetailPage } from '../../../../features/events/detail/EventDetailPage';

export const Route = createFileRoute('/_auth/_app/$section/$id')({
  beforeLoad: requirePermission('events.read'),
  // Only a positive integer can be an event id; anything else is the 404 page.
  params: {
    parse: ({ id }) => {
      if (!/^\d{1,15}$/.test(id) || Number(id) < 1) throw notFound();
      return { id };
    },
    stringify: ({ id }) => ({ id }),
  },
  component: Page,
});

function Page() {
  const { section } = Route.useRouteContext();
  const { id } = Route.useParams();
  return <EventDetailPage key={`${section.section}/${id}`} section={section} id={Number(id)} />;
}
