import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { parseTagsSearch } from '../../../../features/settings/search';
import { TagsPage } from '../../../../features/settings/tags/TagsPage';

export const Route = createFileRoute('/_auth/_app/settings/tags')({
  validateSearch: parseTagsSearch,
  beforeLoad: requirePermission('settings.read'),
  component: Page,
});

function Page() {
  return <TagsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
