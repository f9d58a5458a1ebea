import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { RouteRulesPage } from '../../../../features/settings/route-rules/RouteRulesPage';
import { parseRefListSearch } from '../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/redirects')({
  validateSearch: parseRefListSearch,
  beforeLoad: requirePermission('route_rules.manage'),
  component: Page,
});

function Page() {
  return <RouteRulesPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
