import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { dashboardKeys } from './queries';

/** POST /classifier/requeue-failed: every failed event (of the company) back to the queue. */
export function useRequeueFailedMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { company_id?: number }) =>
      http.post('classifier/requeue-failed', { json: body }).json<{ count: number }>(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [...dashboardKeys.all, 'ml-summary'] });
    },
  });
}
