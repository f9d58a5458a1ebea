import { TELEGRAM_ACCOUNT_STATUSES } from '@forpost/contract/enums';
import {
  pageFields,
  type SearchOf,
  searchBoolText,
  searchEnum,
  searchSchema,
  searchText,
} from '../../components/list/listSearch';

/** /telegram/accounts?q=&status=&page=&page_size= */
const accountsSearch = { q: searchText(), status: searchEnum(TELEGRAM_ACCOUNT_STATUSES), ...pageFields };
export type AccountsSearch = SearchOf<typeof accountsSearch>;
export const parseAccountsSearch = searchSchema(accountsSearch);

/** /telegram/channels?q=&active=&page=&page_size= (the company comes from the header). */
const channelsSearch = {
  q: searchText(),
  active: searchBoolText,
  sort: searchEnum(['username', '-username', 'created_at', '-created_at', 'last_message_at', '-last_message_at']),
  ...pageFields,
};
export type ChannelsSearch = SearchOf<typeof channelsSearch>;
export const parseChannelsSearch = searchSchema(channelsSearch);
