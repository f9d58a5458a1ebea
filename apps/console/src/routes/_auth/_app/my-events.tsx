import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../components/list/urlSearchProps';
import { requirePermission } from '../../../features/auth/guards';
import { MyEventsPage } from '../../../features/my-events/MyEventsPage';
import { parseMyEventsSearch } from '../../../features/my-events/search';

export const Route = createFileRoute('/_auth/_app/my-events')({
  validateSearch: parseMyEventsSearch,
  beforeLoad: requirePermission('events.read'),
  component: Page,
});

function Page() {
  return <MyEventsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
