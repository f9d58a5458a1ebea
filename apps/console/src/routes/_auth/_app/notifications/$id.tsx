import { createFileRoute, notFound } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { MailingPage } from '../../../../features/notifications/MailingPage';

export const Route = createFileRoute('/_auth/_app/notifications/$id')({
  beforeLoad: (ctx) => {
    requirePermission('mailings.read')(ctx);
    const { id } = ctx.params;
    if (id !== 'new' && !/^[1-9]\d{0,9}$/.test(id)) throw notFound();
  },
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  return <MailingPage id={id === 'new' ? 'new' : Number(id)} />;
}
