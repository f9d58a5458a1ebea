import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { MediaTypesPage } from '../../../../features/settings/media-types/MediaTypesPage';
import { parseRefListSearch } from '../../../../features/settings/search';

export const Route = createFileRoute('/_auth/_app/settings/media-types')({
  validateSearch: parseRefListSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <MediaTypesPage
      search={search}
      onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })}
    />
  );
}
