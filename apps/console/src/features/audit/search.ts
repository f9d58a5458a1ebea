import { z } from 'zod';
import { pageFields, searchDay, searchInt, searchText } from '../../components/list/listSearch';

/** /audit?action=&entity=&actor=&company_id=&from=YYYY-MM-DD&to=YYYY-MM-DD&page=&page_size= */
const auditSearchSchema = z.object({
  action: searchText(100),
  entity: searchText(50),
  entity_id: searchText(100),
  actor: searchInt(),
  company_id: searchInt(),
  from: searchDay,
  to: searchDay,
  ...pageFields,
});
export type AuditSearch = Partial<z.infer<typeof auditSearchSchema>>;
export const parseAuditSearch = (s: Record<string, unknown>): AuditSearch => auditSearchSchema.parse(s);
