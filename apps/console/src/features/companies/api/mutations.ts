import type {
  createCompanyRequest,
  createdProductKeyResponse,
  createProductKeyRequest,
  updateCompanyRequest,
} from '@forpost/contract/companies';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { authKeys } from '../../auth/api/queries';
import { type CompanyDetail, companyKeys } from './queries';

export type CreatedProductKey = z.infer<typeof createdProductKeyResponse>;

/** POST /companies. Field errors are shown by the form (silent). */
export function useCreateCompanyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof createCompanyRequest>) =>
      http.post('companies', { json: body, context: { errorMode: 'silent' } }).json<CompanyDetail>(),
    onSuccess: async (c) => {
      queryClient.setQueryData(companyKeys.detail(c.id), c);
      await queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.options() });
      // Staff see every company in the header selector (it reads /me).
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** PATCH /companies/{id} (also members and the active flag). */
export function useUpdateCompanyMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof updateCompanyRequest>) =>
      http.patch(`companies/${id}`, { json: body, context: { errorMode: 'silent' } }).json<CompanyDetail>(),
    onSuccess: async (c) => {
      queryClient.setQueryData(companyKeys.detail(id), c);
      await queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.options() });
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** DELETE /companies/{id} (only a deactivated company). */
export function useDeleteCompanyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`companies/${id}`);
    },
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: companyKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: companyKeys.options() });
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** POST /companies/{id}/keys → the key text (shown once). */
export function useCreateProductKeyMutation(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof createProductKeyRequest>) =>
      http.post(`companies/${companyId}/keys`, { json: body, context: { errorMode: 'silent' } }).json<CreatedProductKey>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.keys(companyId) }),
  });
}

/** DELETE /companies/{id}/keys/{keyId}: revoke. */
export function useRevokeProductKeyMutation(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: number) => {
      await http.delete(`companies/${companyId}/keys/${keyId}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: companyKeys.keys(companyId) }),
  });
}
