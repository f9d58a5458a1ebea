/* The bell's queries: the unread count (polled while the tab is visible), the latest notifications, «прочитано». */
import type { NotificationGroup, NotificationItem } from '@forpost/contract/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** How often the unread count is asked for (TanStack Query pauses it while the tab is hidden). */
export const BELL_POLL_MS = 45_000;

export const bellKeys = {
  all: ['bell'] as const,
  count: ['bell', 'count'] as const,
  latest: ['bell', 'latest'] as const,
  page: (params: Record<string, string | number | boolean>) => ['bell', 'page', params] as const,
};

export interface NotificationsPage {
  items: NotificationItem[];
  unread: number;
  total: number;
  page: number;
  page_size: number;
}

export function useUnreadCount() {
  return useQuery({
    queryKey: bellKeys.count,
    queryFn: ({ signal }) =>
      http.get('notifications/unread-count', { signal, context: { errorMode: 'silent' } }).json<{ count: number }>(),
    select: (r) => r.count,
    refetchInterval: BELL_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useLatestNotifications(enabled: boolean) {
  return useQuery({
    queryKey: bellKeys.latest,
    queryFn: ({ signal }) =>
      http
        .get('notifications', {
          searchParams: { page_size: 20, grouped: true },
          signal,
          context: { errorMode: 'silent' },
        })
        .json<NotificationsPage>(),
    enabled,
  });
}

/** A page of «Все уведомления» (alike unread ones grouped, as in the bell). */
export function useNotificationsPage(params: { page: number; page_size: number; unread: boolean }) {
  const searchParams = {
    page: params.page,
    page_size: params.page_size,
    grouped: true,
    ...(params.unread ? { unread: true } : {}),
  };
  return useQuery({
    queryKey: bellKeys.page(searchParams),
    queryFn: ({ signal }) =>
      http.get('notifications', { searchParams, signal, context: { errorMode: 'silent' } }).json<NotificationsPage>(),
    placeholderData: keepPreviousData,
  });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[] } | { all: true } | { group: NotificationGroup }) =>
      http.post('notifications/read', { json: body }).json<{ updated: number }>(),
    onSettled: () => void qc.invalidateQueries({ queryKey: bellKeys.all }),
  });
}
