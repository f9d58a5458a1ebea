import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../../features/auth/guards';
import { SectionPending } from '../../../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/settings/leaks/import')({
  beforeLoad: requirePermission('settings.manage'),
  component: () => <SectionPending title="Импорт утечек (справочник)" />,
});
