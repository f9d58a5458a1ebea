import type { apiKeyRolesInput, createApiKeyRequest, updateApiKeyRequest } from '@forpost/contract/apikeys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { type ApiKey, type ApiKeyWithSecret, apiKeyKeys } from './queries';

const withoutSecret = ({ secret: _s, ...key }: ApiKeyWithSecret): ApiKey => key;

/** POST /apikeys → the key with its secret (shown once). */
export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof createApiKeyRequest>) =>
      http.post('apikeys', { json: body, context: { errorMode: 'silent' } }).json<ApiKeyWithSecret>(),
    onSuccess: async (k) => {
      queryClient.setQueryData(apiKeyKeys.detail(k.id), withoutSecret(k));
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}

/** PATCH /apikeys/{id}: name, expiry, allowed IPs, active. */
export function useUpdateApiKeyMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof updateApiKeyRequest>) =>
      http.patch(`apikeys/${id}`, { json: body, context: { errorMode: 'silent' } }).json<ApiKey>(),
    onSuccess: async (k) => {
      queryClient.setQueryData(apiKeyKeys.detail(id), k);
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}

/** POST /apikeys/{id}/roles: per-module access and the collector flag. */
export function useSetApiKeyRolesMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof apiKeyRolesInput>) =>
      http.post(`apikeys/${id}/roles`, { json: body, context: { errorMode: 'silent' } }).json<unknown>(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}

/** POST /apikeys/{id}/refresh → a new secret; the old one stops working at once. */
export function useRotateApiKeyMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.post(`apikeys/${id}/refresh`).json<ApiKeyWithSecret>(),
    onSuccess: async (k) => {
      queryClient.setQueryData(apiKeyKeys.detail(id), withoutSecret(k));
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}

/** DELETE /apikeys/{id}. */
export function useDeleteApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`apikeys/${id}`);
    },
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: apiKeyKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}
