import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { MailingsPage } from '../../../../features/notifications/MailingsPage';
import { parseMailingsSearch } from '../../../../features/notifications/search';

export const Route = createFileRoute('/_auth/_app/notifications/')({
  validateSearch: parseMailingsSearch,
  beforeLoad: requirePermission('mailings.read'),
  component: Page,
});

function Page() {
  return <MailingsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
