import type { activationResponse } from '@forpost/contract/companies';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { authKeys } from '../../auth/api/queries';
import { companyKeys } from '../../companies/api/queries';
import { activationKeys } from './queries';

/** POST /companies/activation/activate {key}; the API's message says why a key does not fit. */
export function useActivateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      http
        .post('companies/activation/activate', { json: { key }, context: { errorMode: 'silent' } })
        .json<z.infer<typeof activationResponse>>(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
      await queryClient.invalidateQueries({ queryKey: activationKeys.all });
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
}
