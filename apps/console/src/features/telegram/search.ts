import { TELEGRAM_ACCOUNT_STATUSES } from '@forpost/contract/telegram';
import { z } from 'zod';
import { pageFields, searchText } from '../../components/list/listSearch';
import { boolText } from '../whitelist/search';

/** /telegram/accounts?q=&status=&page=&page_size= */
const accountsSearchSchema = z.object({
  q: searchText(),
  status: z.enum(TELEGRAM_ACCOUNT_STATUSES).optional().catch(undefined),
  ...pageFields,
});
export type AccountsSearch = Partial<z.infer<typeof accountsSearchSchema>>;
export const parseAccountsSearch = (s: Record<string, unknown>): AccountsSearch => accountsSearchSchema.parse(s);

/** /telegram/channels?q=&active=&page=&page_size= (the company comes from the header). */
const channelsSearchSchema = z.object({
  q: searchText(),
  active: boolText,
  sort: z
    .enum(['username', '-username', 'created_at', '-created_at', 'last_message_at', '-last_message_at'])
    .optional()
    .catch(undefined),
  ...pageFields,
});
export type ChannelsSearch = Partial<z.infer<typeof channelsSearchSchema>>;
export const parseChannelsSearch = (s: Record<string, unknown>): ChannelsSearch => channelsSearchSchema.parse(s);
