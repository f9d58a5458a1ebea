import { createFileRoute } from '@tanstack/react-router';
import { searchInt, searchSchema } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { ImportPage } from '../../../../features/imports/ImportPage';

const parseImportSearch = searchSchema({ id: searchInt() });

export const Route = createFileRoute('/_auth/_app/$section/import')({
  beforeLoad: requirePermission('events.import'),
  validateSearch: parseImportSearch,
  component: Page,
});

function Page() {
  const { section } = Route.useRouteContext();
  const { id } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ImportPage
      key={section.section}
      target={{ kind: 'module', code: section.module }}
      title={`${section.label}: импорт`}
      subtitle="Загрузка событий из файла CSV или Excel"
      back={{ to: '/$section', params: { section: section.section }, label: `К списку «${section.label}»` }}
      section={section.section}
      currentId={id}
      onCurrent={(next) => void navigate({ search: next === undefined ? {} : { id: next } })}
    />
  );
}
