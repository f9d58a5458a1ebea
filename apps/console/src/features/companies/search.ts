import { pageFields, type SearchOf, searchBool, searchEnum, searchSchema, searchText } from '../../components/list/listSearch';

/** /companies?q=&active=&page=&page_size= */
const companiesSearch = { q: searchText(), active: searchBool, ...pageFields };
export type CompaniesSearch = SearchOf<typeof companiesSearch>;
export const parseCompaniesSearch = searchSchema(companiesSearch);

const COMPANY_TABS = ['main', 'members', 'keys', 'sla', 'assets', 'watch'] as const;
export type CompanyTab = (typeof COMPANY_TABS)[number];
/** /companies/{id}/edit?tab=members */
export const parseCompanyEditSearch = searchSchema({ tab: searchEnum(COMPANY_TABS) });
