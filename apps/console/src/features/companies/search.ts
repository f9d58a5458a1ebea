import { z } from 'zod';
import { pageFields, searchBool, searchText } from '../../components/list/listSearch';

/** /companies?q=&active=&page=&page_size= */
const companiesSearchSchema = z.object({
  q: searchText(),
  active: searchBool,
  ...pageFields,
});
export type CompaniesSearch = Partial<z.infer<typeof companiesSearchSchema>>;
export const parseCompaniesSearch = (s: Record<string, unknown>): CompaniesSearch => companiesSearchSchema.parse(s);

const COMPANY_TABS = ['main', 'members', 'keys', 'sla', 'assets'] as const;
export type CompanyTab = (typeof COMPANY_TABS)[number];
/** /companies/{id}/edit?tab=members */
export const parseCompanyEditSearch = (s: Record<string, unknown>): { tab?: CompanyTab } =>
  z.object({ tab: z.enum(COMPANY_TABS).optional().catch(undefined) }).parse(s);
