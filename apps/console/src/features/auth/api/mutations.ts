import type { LoginRequest, LoginResponse } from '@forpost/contract/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { endSessionAndReload } from '../../../lib/session';
import { authKeys } from './queries';

/** POST /auth/login. Errors are shown by the login form itself (silent mode). */
export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      http.post('auth/login', { json: body, context: { errorMode: 'silent' } }).json<LoginResponse>(),
    onSuccess: async (res) => {
      if (res['2fa_success']) await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** POST /auth/2fa {code} or {recovery_code}: the second login step. */
export function useTwoFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { code: string } | { recovery_code: string }) =>
      http.post('auth/2fa', { json: body, context: { errorMode: 'silent' } }).json<unknown>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

/** POST /auth/resetpassword {email}. The answer is neutral whether or not the user exists. */
export function useResetPasswordMutation() {
  return useMutation({
    mutationFn: async (body: { email: string }) => {
      await http.post('auth/resetpassword', { json: body });
    },
  });
}

/** POST /auth/setpassword {token, password}. */
export function useSetPasswordMutation() {
  return useMutation({
    mutationFn: async (body: { token: string; password: string }) => {
      await http.post('auth/setpassword', { json: body });
    },
  });
}

/** «Выйти»: POST /auth/logout, then the spec's logout (clear state + remembered email, reload to /login). */
export function useLogoutMutation() {
  return useMutation({
    mutationFn: async () => {
      try {
        await http.post('auth/logout', { context: { errorMode: 'silent' } });
      } catch (error) {
        // The session is dropped locally anyway.
        console.error('Выход: сервер ответил ошибкой', error);
      }
    },
    onSettled: () => endSessionAndReload(),
  });
}
