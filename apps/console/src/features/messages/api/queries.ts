import type { Message, MessageListItem } from '@forpost/contract/filtrator';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { Message, MessageListItem };

export const messagePaths = {
  list: 'modules/filtrator/messages',
  one: (id: number) => `modules/filtrator/messages/${id}`,
  toEvent: (id: number) => `modules/filtrator/messages/${id}/to-event`,
};

export interface MessageListParams {
  q?: string;
  channel?: string;
  company_id?: number;
  date_from?: string;
  date_to?: string;
  rule?: string;
  sort?: string;
  page: number;
  page_size: number;
}

export const messageKeys = {
  all: ['messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (p: MessageListParams) => [...messageKeys.lists(), p] as const,
  detail: (id: number) => [...messageKeys.all, 'detail', id] as const,
};

export function useMessagesQuery(p: MessageListParams) {
  return useQuery({
    queryKey: messageKeys.list(p),
    queryFn: () => http.get(messagePaths.list, { searchParams: { ...p } }).json<Page<MessageListItem>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /modules/filtrator/messages/{id}; a missing one shows the 404 page. */
export function useMessageQuery(id: number) {
  return useQuery({
    queryKey: messageKeys.detail(id),
    queryFn: () => http.get(messagePaths.one(id), { context: { errorMode: 'global' } }).json<Message>(),
  });
}
