import { pageFields, type SearchOf, searchDay, searchEnum, searchSchema, searchText } from '../../components/list/listSearch';

/** /messages?q=&channel=&from=&to=&rule=&sort=&page=&page_size= (the company comes from the header). */
const messagesSearch = {
  q: searchText(500),
  channel: searchText(100),
  from: searchDay,
  to: searchDay,
  rule: searchText(200),
  sort: searchEnum(['posted_at', '-posted_at', 'created_at', '-created_at']),
  ...pageFields,
};
export type MessagesSearch = SearchOf<typeof messagesSearch>;
export const parseMessagesSearch = searchSchema(messagesSearch);

/** /messages/$id?q= — the search words to highlight as well. */
export const parseMessageSearch = searchSchema({ q: searchText(500) });
