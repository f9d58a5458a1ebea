import { z } from 'zod';
import { searchInt, searchText } from '../../components/list/listSearch';

const day = z
  .preprocess(
    (v) => (v === undefined || v === null ? undefined : String(v)),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  )
  .catch(undefined);

/** /audit?action=&entity=&actor=&company_id=&from=YYYY-MM-DD&to=YYYY-MM-DD&page=&page_size= */
export const auditSearchSchema = z.object({
  action: searchText(100),
  entity: searchText(50),
  entity_id: searchText(100),
  actor: searchInt(),
  company_id: searchInt(),
  from: day,
  to: day,
  page: searchInt(),
  page_size: searchInt(1, 500),
});
export type AuditSearch = Partial<z.infer<typeof auditSearchSchema>>;
export const parseAuditSearch = (s: Record<string, unknown>): AuditSearch => auditSearchSchema.parse(s);
