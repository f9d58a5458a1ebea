import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { ApiKeysPage } from '../../../../features/apikeys/ApiKeysPage';
import { parseApiKeysSearch } from '../../../../features/apikeys/search';
import { requirePermission } from '../../../../features/auth/guards';

export const Route = createFileRoute('/_auth/_app/api-keys/')({
  validateSearch: parseApiKeysSearch,
  beforeLoad: requirePermission('apikeys.read'),
  component: Page,
});

function Page() {
  return <ApiKeysPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
