import { z } from 'zod';
import { pageFields, searchText } from '../../components/list/listSearch';

/** /api-keys?q=&page=&page_size= (the company comes from the header selector). */
const apiKeysSearchSchema = z.object({
  q: searchText(),
  ...pageFields,
});
export type ApiKeysSearch = Partial<z.infer<typeof apiKeysSearchSchema>>;
export const parseApiKeysSearch = (s: Record<string, unknown>): ApiKeysSearch => apiKeysSearchSchema.parse(s);
