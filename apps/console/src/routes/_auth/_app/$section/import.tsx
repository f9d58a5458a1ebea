import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { SectionPending } from '../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/$section/import')({
  beforeLoad: requirePermission('events.import'),
  component: Page,
});

function Page() {
  const { section } = Route.useRouteContext();
  return <SectionPending title={`${section.label}: импорт`} />;
}
