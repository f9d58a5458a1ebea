import { USER_ROLES } from '@forpost/contract/permissions';
import { z } from 'zod';
import { pageFields, searchBool, searchInt, searchText } from '../../components/list/listSearch';

/** /users?q=&role=&company_id=&active=&page=&page_size= */
const usersSearchSchema = z.object({
  q: searchText(),
  role: z.enum(USER_ROLES).optional().catch(undefined),
  company_id: searchInt(),
  active: searchBool,
  ...pageFields,
});
export type UsersSearch = Partial<z.infer<typeof usersSearchSchema>>;
export const parseUsersSearch = (s: Record<string, unknown>): UsersSearch => usersSearchSchema.parse(s);
