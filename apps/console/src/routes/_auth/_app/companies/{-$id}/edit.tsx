import { createFileRoute, redirect } from '@tanstack/react-router';
import { requirePermission } from '../../../../../features/auth/guards';
import { CompanyEditPage } from '../../../../../features/companies/CompanyEditPage';
import { parseCompanyEditSearch } from '../../../../../features/companies/search';
import { optionalIdParams } from '../../../../../lib/routeParams';

export const Route = createFileRoute('/_auth/_app/companies/{-$id}/edit')({
  validateSearch: parseCompanyEditSearch,
  params: optionalIdParams,
  beforeLoad: (opts) => {
    requirePermission('companies.update')(opts);
    // Without an id this is the «new company» form.
    if (opts.params.id === undefined) throw redirect({ to: '/companies/create', replace: true });
  },
  component: Page,
});

function Page() {
  const { id } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CompanyEditPage
      key={id}
      id={Number(id)}
      tab={tab}
      onTab={(t) => void navigate({ search: { tab: t === 'main' ? undefined : t }, replace: true })}
    />
  );
}
