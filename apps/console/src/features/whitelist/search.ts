import { WHITELIST_KINDS, WHITELIST_SORTS, WHITELIST_TYPES } from '@forpost/contract/whitelist';
import { z } from 'zod';
import { pageFields, searchText } from '../../components/list/listSearch';

/** 'true' / 'false' in the URL (the router may hand a boolean). */
export const boolText = z
  .preprocess((v) => (typeof v === 'boolean' ? String(v) : v), z.enum(['true', 'false']).optional())
  .catch(undefined);

/** /settings/whitelist?tab=&q=&type=&kind=&expired=&sort=&page=&page_size= (the company comes from the header). */
const whitelistSearchSchema = z.object({
  tab: z.enum(['global', 'company']).optional().catch(undefined),
  q: searchText(),
  type: z.enum(WHITELIST_TYPES).optional().catch(undefined),
  kind: z.enum(WHITELIST_KINDS).optional().catch(undefined),
  expired: boolText,
  sort: z.enum(WHITELIST_SORTS).optional().catch(undefined),
  ...pageFields,
});
export type WhitelistSearch = Partial<z.infer<typeof whitelistSearchSchema>>;
export const parseWhitelistSearch = (s: Record<string, unknown>): WhitelistSearch => whitelistSearchSchema.parse(s);
