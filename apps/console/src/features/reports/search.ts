import { z } from 'zod';
import { pageFields } from '../../components/list/listSearch';

/** /reports?page=&page_size= (the company comes from the header selector). */
const reportsSearchSchema = z.object(pageFields);
export type ReportsSearch = Partial<z.infer<typeof reportsSearchSchema>>;
export const parseReportsSearch = (s: Record<string, unknown>): ReportsSearch => reportsSearchSchema.parse(s);
