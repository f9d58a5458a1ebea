import type { createUserRequest, updateUserRequest } from '@forpost/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { companyKeys } from '../../companies/api/queries';
import { type CreatedUser, type User, userKeys } from './queries';

/** POST /users → the user (+ generated_password once, or invite_sent). */
export function useCreateUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof createUserRequest>) =>
      http.post('users', { json: body, context: { errorMode: 'silent' } }).json<CreatedUser>(),
    onSuccess: async (u) => {
      const { generated_password: _secret, invite_sent: _sent, ...user } = u;
      queryClient.setQueryData(userKeys.detail(u.id), user);
      await queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.details() });
    },
  });
}

/** PATCH /users/{id} (also reset_2fa: true). */
export function useUpdateUserMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof updateUserRequest>) =>
      http.patch(`users/${id}`, { json: body, context: { errorMode: 'silent' } }).json<User>(),
    onSuccess: async (u) => {
      queryClient.setQueryData(userKeys.detail(id), u);
      await queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.details() });
    },
  });
}

/** DELETE /users/{id}. */
export function useDeleteUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`users/${id}`);
    },
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.details() });
    },
  });
}
