import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { MediaTypesPage } from '../../../../features/settings/media-types/MediaTypesPage';
import { parseRefListSearch } from '../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/media-types')({
  validateSearch: parseRefListSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  return <MediaTypesPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
