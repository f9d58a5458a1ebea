import { WHITELIST_SORTS, WHITELIST_TYPES } from '@forpost/contract/enums';
import { WHITELIST_KINDS } from '@forpost/contract/modules/common';
import {
  pageFields,
  type SearchOf,
  searchBoolText,
  searchEnum,
  searchSchema,
  searchText,
} from '../../components/list/listSearch';

/** /settings/whitelist?tab=&q=&type=&kind=&expired=&sort=&page=&page_size= (the company comes from the header). */
const whitelistSearch = {
  tab: searchEnum(['global', 'company']),
  q: searchText(),
  type: searchEnum(WHITELIST_TYPES),
  kind: searchEnum(WHITELIST_KINDS),
  expired: searchBoolText,
  sort: searchEnum(WHITELIST_SORTS),
  ...pageFields,
};
export type WhitelistSearch = SearchOf<typeof whitelistSearch>;
export const parseWhitelistSearch = searchSchema(whitelistSearch);
