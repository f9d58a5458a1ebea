import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { parseTagsSearch } from '../../../../features/settings/search';
import { TagsPage } from '../../../../features/settings/tags/TagsPage';

export const Route = createFileRoute('/_auth/_app/settings/tags')({
  validateSearch: parseTagsSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <TagsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
