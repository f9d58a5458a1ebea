/* The bell's queries: the unread count (polled while the tab is visible), the latest notifications, «прочитано». */
import type { NotificationItem } from '@forpost/contract/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** How often the unread count is asked for (TanStack Query pauses it while the tab is hidden). */
export const BELL_POLL_MS = 45_000;

export const bellKeys = {
  all: ['bell'] as const,
  count: ['bell', 'count'] as const,
  latest: ['bell', 'latest'] as const,
};

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
        .get('notifications', { searchParams: { page_size: 20 }, signal, context: { errorMode: 'silent' } })
        .json<{ items: NotificationItem[]; unread: number; total: number }>(),
    enabled,
  });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[] } | { all: true }) =>
      http.post('notifications/read', { json: body }).json<{ updated: number }>(),
    onSettled: () => void qc.invalidateQueries({ queryKey: bellKeys.all }),
  });
}
