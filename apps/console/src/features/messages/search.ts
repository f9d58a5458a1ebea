import { z } from 'zod';
import { pageFields, searchDay, searchText } from '../../components/list/listSearch';

/** /messages?q=&channel=&from=&to=&rule=&sort=&page=&page_size= (the company comes from the header). */
const messagesSearchSchema = z.object({
  q: searchText(500),
  channel: searchText(100),
  from: searchDay,
  to: searchDay,
  rule: searchText(200),
  sort: z.enum(['posted_at', '-posted_at', 'created_at', '-created_at']).optional().catch(undefined),
  ...pageFields,
});
export type MessagesSearch = Partial<z.infer<typeof messagesSearchSchema>>;
export const parseMessagesSearch = (s: Record<string, unknown>): MessagesSearch => messagesSearchSchema.parse(s);

/** /messages/$id?q= — the search words to highlight as well. */
export const messageSearchSchema = z.object({ q: searchText(500) });
export const parseMessageSearch = (s: Record<string, unknown>): Partial<z.infer<typeof messageSearchSchema>> =>
  messageSearchSchema.parse(s);
