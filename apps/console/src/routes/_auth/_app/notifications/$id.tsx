import { createFileRoute, notFound } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { MailingPage } from '../../../../features/notifications/MailingPage';
import { isRecordId } from '../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/notifications/$id')({
  beforeLoad: (ctx) => {
    requirePermission('mailings.read')(ctx);
    const { id } = ctx.params;
    if (id !== 'new' && !isRecordId(id)) throw notFound();
  },
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <MailingPage id={id === 'new' ? 'new' : Number(id)} />;
}
