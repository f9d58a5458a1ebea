import { pageFields, type SearchOf, searchEnum, searchSchema } from '../../components/list/listSearch';

/** /my-notifications?state=unread&page=&page_size= (the default: all of them, newest first). */
const inboxSearch = { state: searchEnum(['unread']), ...pageFields };
export type InboxSearch = SearchOf<typeof inboxSearch>;
export const parseInboxSearch = searchSchema(inboxSearch);
