import type { UserRole } from '@forpost/contract/permissions';
import type { createdUserResponse, User } from '@forpost/contract/users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { User };
export type CreatedUser = z.infer<typeof createdUserResponse>;

export interface UserListParams {
  page: number;
  page_size: number;
  q?: string;
  role?: UserRole;
  company_id?: number;
  is_active?: 'true' | 'false';
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (p: UserListParams) => [...userKeys.lists(), p] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: number) => [...userKeys.details(), id] as const,
};

/** GET /users (search, role, company, active; pages). */
export function useUsersQuery(params: UserListParams, enabled = true) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => http.get('users', { searchParams: { ...params } }).json<Page<User>>(),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /users/{id}; a missing user shows the 404 page. */
export function useUserQuery(id: number | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? 0),
    queryFn: () => http.get(`users/${id}`, { context: { errorMode: 'global' } }).json<User>(),
    enabled: id !== undefined,
  });
}
