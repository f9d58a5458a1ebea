import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { ChannelsPage } from '../../../../features/telegram/ChannelsPage';
import { parseChannelsSearch } from '../../../../features/telegram/search';

export const Route = createFileRoute('/_auth/_app/telegram/channels')({
  validateSearch: parseChannelsSearch,
  beforeLoad: requirePermission('telegram.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ChannelsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })} />
  );
}
