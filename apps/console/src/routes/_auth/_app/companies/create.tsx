import { createFileRoute } from '@tanstack/react-router';
import { requirePermission } from '../../../../features/auth/guards';
import { CompanyCreatePage } from '../../../../features/companies/CompanyEditPage';

export const Route = createFileRoute('/_auth/_app/companies/create')({
  beforeLoad: requirePermission('companies.create'),
  component: CompanyCreatePage,
});
