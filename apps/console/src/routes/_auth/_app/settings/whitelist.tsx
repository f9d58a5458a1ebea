import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { parseWhitelistSearch } from '../../../../features/whitelist/search';
import { WhitelistPage } from '../../../../features/whitelist/WhitelistPage';

export const Route = createFileRoute('/_auth/_app/settings/whitelist')({
  validateSearch: parseWhitelistSearch,
  beforeLoad: requirePermission('whitelist.read'),
  component: Page,
});

function Page() {
  return <WhitelistPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
