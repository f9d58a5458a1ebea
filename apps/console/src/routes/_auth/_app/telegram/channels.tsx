import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { ChannelsPage } from '../../../../features/telegram/ChannelsPage';
import { parseChannelsSearch } from '../../../../features/telegram/search';

export const Route = createFileRoute('/_auth/_app/telegram/channels')({
  validateSearch: parseChannelsSearch,
  beforeLoad: requirePermission('telegram.read'),
  component: Page,
});

function Page() {
  return <ChannelsPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
