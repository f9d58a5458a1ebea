import type {
  CreateMailingRequest,
  createMailingRequest,
  Mailing,
  MailingFilters,
  MailingPreview,
  PatchMailingRequest,
} from '@forpost/contract/mailings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { mailingKeys } from './queries';

export type MailingInput = z.input<typeof createMailingRequest>;

/** POST /notifications/mailings. Errors are shown by the form (field messages). */
export function useCreateMailingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailingInput | CreateMailingRequest) =>
      http.post('notifications/mailings', { json: body, context: { errorMode: 'silent' } }).json<Mailing>(),
    onSuccess: async (m) => {
      queryClient.setQueryData(mailingKeys.detail(m.id), m);
      await queryClient.invalidateQueries({ queryKey: mailingKeys.lists() });
    },
  });
}

export function useUpdateMailingMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchMailingRequest | Partial<MailingInput>) =>
      http.patch(`notifications/mailings/${id}`, { json: body, context: { errorMode: 'silent' } }).json<Mailing>(),
    onSuccess: async (m) => {
      queryClient.setQueryData(mailingKeys.detail(id), m);
      await queryClient.invalidateQueries({ queryKey: mailingKeys.lists() });
    },
  });
}

export function useDeleteMailingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`notifications/mailings/${id}`);
    },
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: mailingKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: mailingKeys.lists() });
    },
  });
}

/** POST /notifications/mailings/preview: matches of the last 7 days (not cached: always fresh). */
export function usePreviewMutation() {
  return useMutation({
    mutationFn: (body: { company_id?: number | null; filters: Partial<MailingFilters> }) =>
      http.post('notifications/mailings/preview', { json: body, context: { errorMode: 'silent' } }).json<MailingPreview>(),
  });
}
