import { createFileRoute } from '@tanstack/react-router';
import { urlSearchProps } from '../../../../components/list/urlSearchProps';
import { requirePermission } from '../../../../features/auth/guards';
import { CompaniesPage } from '../../../../features/companies/CompaniesPage';
import { parseCompaniesSearch } from '../../../../features/companies/search';

export const Route = createFileRoute('/_auth/_app/companies/')({
  validateSearch: parseCompaniesSearch,
  beforeLoad: requirePermission('companies.read'),
  component: Page,
});

function Page() {
  return <CompaniesPage {...urlSearchProps(Route.useSearch(), Route.useNavigate())} />;
}
