import type { Me } from '@forpost/contract/auth';
import type { Doc } from '@forpost/contract/docs';
import type { twoFactorEnableResponse, twoFactorSetupResponse, UpdateProfileRequest } from '@forpost/contract/profile';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { authKeys } from '../../auth/api/queries';
import { profileKeys } from './queries';

export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>;

/** PATCH /me. Errors are handled by the form (inline field messages), so the request is silent. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => http.patch('me', { json: body, context: { errorMode: 'silent' } }).json<Me>(),
    onSuccess: async (me) => {
      queryClient.setQueryData(authKeys.me(), me);
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
      await queryClient.invalidateQueries({ queryKey: profileKeys.sessions() });
    },
  });
}

/** POST /docs (multipart: kind=avatar, file) → the stored document; its id becomes avatar_image_key. */
export function useUploadAvatarMutation() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('kind', 'avatar');
      body.append('file', file, file.name);
      return http.post('docs', { body, timeout: 60_000, context: { errorMode: 'silent' } }).json<Doc>();
    },
  });
}

/** POST /me/2fa/setup → secret, otpauth URI and QR image. */
export function useSetupTwoFactorMutation() {
  return useMutation({
    mutationFn: () => http.post('me/2fa/setup').json<TwoFactorSetup>(),
  });
}

/** POST /me/2fa/enable {code} → the recovery codes (shown once). */
export function useEnableTwoFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      http
        .post('me/2fa/enable', { json: { code }, context: { errorMode: 'silent' } })
        .json<z.infer<typeof twoFactorEnableResponse>>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

/** POST /me/2fa/disable {code} or {password}. */
export function useDisableTwoFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { code: string } | { password: string }) => {
      await http.post('me/2fa/disable', { json: body, context: { errorMode: 'silent' } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

/** DELETE /me/sessions/{id}. */
export function useEndSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await http.delete(`me/sessions/${encodeURIComponent(id)}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions() }),
  });
}

/** DELETE /me/sessions: every session except the current one. */
export function useEndOtherSessionsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.delete('me/sessions').json<{ ended: number }>(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions() }),
  });
}
