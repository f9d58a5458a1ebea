import { pageFields, type SearchOf, searchDay, searchInt, searchSchema, searchText } from '../../components/list/listSearch';

/** /audit?action=&entity=&actor=&company_id=&from=YYYY-MM-DD&to=YYYY-MM-DD&page=&page_size= */
const auditSearch = {
  action: searchText(100),
  entity: searchText(50),
  entity_id: searchText(100),
  actor: searchInt(),
  company_id: searchInt(),
  from: searchDay,
  to: searchDay,
  ...pageFields,
};
export type AuditSearch = SearchOf<typeof auditSearch>;
export const parseAuditSearch = searchSchema(auditSearch);
