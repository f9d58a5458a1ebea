import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { requirePermission } from '../../../../features/auth/guards';
import { EventListPage } from '../../../../features/events/list/EventListPage';
import { type EventSearch, validateEventSearch } from '../../../../features/events/model/validateSearch';

export const Route = createFileRoute('/_auth/_app/$section/')({
  beforeLoad: requirePermission('events.read'),
  validateSearch: validateEventSearch,
  component: Page,
});

function Page() {
  const { section } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = useCallback((next: EventSearch) => void navigate({ search: next }), [navigate]);
  // A new key per section: filters, selection and scroll state never leak from one module to another.
  return <EventListPage key={section.section} section={section} search={search} onSearch={onSearch} />;
}
