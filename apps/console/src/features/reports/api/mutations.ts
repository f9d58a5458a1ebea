import type { createReportRequest, Report } from '@forpost/contract/reports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { reportKeys } from './queries';

export function useCreateReportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof createReportRequest>) => http.post('tools/reports', { json: body }).json<Report>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
  });
}

export function useReportActionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number; action: 'regenerate' } | { id: number; action: 'send'; recipients: string[] }) =>
      http.post(`tools/reports/${id}/actions`, { json: body }).json<{ report: Report; message: string }>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
  });
}

export function useDeleteReportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(`tools/reports/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
  });
}
