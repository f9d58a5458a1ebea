import type { TelegramAccount, TelegramAccountStatus, TelegramChannel } from '@forpost/contract/telegram';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { TelegramAccount, TelegramChannel };

export const telegramPaths = {
  accounts: 'modules/telegram/accounts',
  account: (id: number) => `modules/telegram/accounts/${id}`,
  channels: 'modules/telegram/channels',
  channel: (id: number) => `modules/telegram/channels/${id}`,
};

export interface AccountListParams {
  q?: string;
  status?: TelegramAccountStatus;
  sort?: string;
  page: number;
  page_size: number;
}
export interface ChannelListParams {
  q?: string;
  company_id?: number;
  is_active?: 'true' | 'false';
  sort?: string;
  page: number;
  page_size: number;
}

export const telegramKeys = {
  all: ['telegram'] as const,
  accounts: () => [...telegramKeys.all, 'accounts'] as const,
  accountList: (p: AccountListParams) => [...telegramKeys.accounts(), p] as const,
  channels: () => [...telegramKeys.all, 'channels'] as const,
  channelList: (p: ChannelListParams) => [...telegramKeys.channels(), 'list', p] as const,
  channelOptions: (companyId?: number) => [...telegramKeys.channels(), 'options', companyId ?? 'all'] as const,
};

export function useAccountsQuery(p: AccountListParams) {
  return useQuery({
    queryKey: telegramKeys.accountList(p),
    queryFn: () => http.get(telegramPaths.accounts, { searchParams: { ...p } }).json<Page<TelegramAccount>>(),
    placeholderData: keepPreviousData,
  });
}

export function useChannelsQuery(p: ChannelListParams) {
  return useQuery({
    queryKey: telegramKeys.channelList(p),
    queryFn: () => http.get(telegramPaths.channels, { searchParams: { ...p } }).json<Page<TelegramChannel>>(),
    placeholderData: keepPreviousData,
  });
}

/** Channels for pickers (the message filters): up to 500, of one company or all. */
export const channelOptionsQuery = (companyId?: number) =>
  queryOptions({
    queryKey: telegramKeys.channelOptions(companyId),
    queryFn: () =>
      http
        .get(telegramPaths.channels, {
          searchParams: { company_id: companyId, page_size: 500 },
          context: { errorMode: 'silent' },
        })
        .json<Page<TelegramChannel>>(),
    staleTime: 60_000,
  });
