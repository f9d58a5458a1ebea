import { createFileRoute } from '@tanstack/react-router';
import { searchInt, searchSchema } from '../../../../../components/list/listSearch';
import { requirePermission } from '../../../../../features/auth/guards';
import { ImportPage } from '../../../../../features/imports/ImportPage';

const parseImportSearch = searchSchema({ id: searchInt() });

export const Route = createFileRoute('/_auth/_app/settings/leaks/import')({
  beforeLoad: requirePermission('settings.manage'),
  validateSearch: parseImportSearch,
  component: Page,
});

function Page() {
  const { id } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ImportPage
      target={{ kind: 'catalogue' }}
      title="Импорт каталога утечек"
      subtitle="Известные утечки из файла CSV или Excel: название, тип, дата, число записей, источник"
      back={{ to: '/settings/leaks', label: 'К каталогу утечек' }}
      currentId={id}
      onCurrent={(next) => void navigate({ search: next === undefined ? {} : { id: next } })}
    />
  );
}
