import { USER_ROLES } from '@forpost/contract/permissions';
import {
  pageFields,
  type SearchOf,
  searchBool,
  searchEnum,
  searchInt,
  searchSchema,
  searchText,
} from '../../components/list/listSearch';

/** /users?q=&role=&company_id=&active=&page=&page_size= */
const usersSearch = {
  q: searchText(),
  role: searchEnum(USER_ROLES),
  company_id: searchInt(),
  active: searchBool,
  ...pageFields,
};
export type UsersSearch = SearchOf<typeof usersSearch>;
export const parseUsersSearch = searchSchema(usersSearch);
