import type { sessionResponse } from '@forpost/contract/profile';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';

export type Session = z.infer<typeof sessionResponse>;

export const profileKeys = {
  all: ['profile'] as const,
  sessions: () => [...profileKeys.all, 'sessions'] as const,
};

const sessionsQuery = queryOptions({
  queryKey: profileKeys.sessions(),
  queryFn: () => http.get('me/sessions', { context: { errorMode: 'silent' } }).json<{ items: Session[] }>(),
});

/** GET /me/sessions: the signed-in user's active sessions. */
export const useSessionsQuery = () => useQuery(sessionsQuery);
