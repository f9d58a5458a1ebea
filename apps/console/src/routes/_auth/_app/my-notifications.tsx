import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../components/list/urlSearchProps';
import { InboxPage } from '../../../features/inbox/InboxPage';
import { parseInboxSearch } from '../../../features/inbox/search';

/** «Все уведомления»: personal, for every signed-in user (the API's permission `session`). */
export const Route = createFileRoute('/_auth/_app/my-notifications')({
  validateSearch: parseInboxSearch,
  component: Page,
});

function Page() {
  return <InboxPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
