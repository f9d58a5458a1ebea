import { z } from 'zod';
import { pageFields, searchText } from '../../components/list/listSearch';

/** /notifications?q=&page=&page_size= (the company comes from the header selector). */
const mailingsSearchSchema = z.object({
  q: searchText(),
  ...pageFields,
});
export type MailingsSearch = Partial<z.infer<typeof mailingsSearchSchema>>;
export const parseMailingsSearch = (s: Record<string, unknown>): MailingsSearch => mailingsSearchSchema.parse(s);
