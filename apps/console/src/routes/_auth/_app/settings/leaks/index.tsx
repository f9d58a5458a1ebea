import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../../features/auth/guards';
import { LeaksPage } from '../../../../../features/settings/leaks/LeaksPage';
import { parseLeaksSearch } from '../../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/leaks/')({
  validateSearch: parseLeaksSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  return <LeaksPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
