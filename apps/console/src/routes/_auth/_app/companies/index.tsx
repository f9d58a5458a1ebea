import { createFileRoute } from '@tanstack/react-router';
import { cleanSearch } from '../../../../components/list/listSearch';
import { requirePermission } from '../../../../features/auth/guards';
import { CompaniesPage } from '../../../../features/companies/CompaniesPage';
import { parseCompaniesSearch } from '../../../../features/companies/search';

export const Route = createFileRoute('/_auth/_app/companies/')({
  validateSearch: parseCompaniesSearch,
  beforeLoad: requirePermission('companies.read'),
  component: Page,
});

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CompaniesPage
      search={search}
      onSearch={(patch) => void navigate({ search: (prev) => cleanSearch({ ...prev, ...patch }) })}
    />
  );
}
