import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { LeakTypesPage } from '../../../../features/settings/leak-types/LeakTypesPage';
import { parseQSearch } from '../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/leaks-types')({
  validateSearch: parseQSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  return <LeakTypesPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
