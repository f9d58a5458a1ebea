/* Queries and mutations of the watch (#31): a company's schedule and rules, a domain event's timeline and flag. */
import type { EventWatch, WatchRules, WatchSettings } from '@forpost/contract/watch';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

export const watchKeys = {
  all: ['watch'] as const,
  company: (id: number) => [...watchKeys.all, 'company', id] as const,
  event: (id: number) => [...watchKeys.all, 'event', id] as const,
};

export function useWatchSettings(companyId: number) {
  return useQuery({
    queryKey: watchKeys.company(companyId),
    queryFn: () => http.get(`companies/${companyId}/watch`, { context: { errorMode: 'silent' } }).json<WatchSettings>(),
  });
}

export function useSaveWatchSettings(companyId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { enabled: boolean; interval_minutes: number; rules: WatchRules }) =>
      http.put(`companies/${companyId}/watch`, { json: body, context: { errorMode: 'silent' } }).json<WatchSettings>(),
    onSuccess: (r) => {
      qc.setQueryData(watchKeys.company(companyId), r);
      void qc.invalidateQueries({ queryKey: [...watchKeys.all, 'event'] });
    },
  });
}

export function useEventWatch(eventId: number) {
  return useQuery({
    queryKey: watchKeys.event(eventId),
    queryFn: () => http.get(`modules/domains/events/${eventId}/watch`, { context: { errorMode: 'silent' } }).json<EventWatch>(),
  });
}

export function useSetEventWatch(eventId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (watched: boolean | null) =>
      http.put(`modules/domains/events/${eventId}/watch`, { json: { watched } }).json<EventWatch>(),
    onSuccess: (r) => qc.setQueryData(watchKeys.event(eventId), r),
  });
}
