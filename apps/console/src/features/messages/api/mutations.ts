import type { MessageToEventRequest, messageToEventResponse } from '@forpost/contract/filtrator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { messageKeys, messagePaths } from './queries';

export type ToEventResult = z.infer<typeof messageToEventResponse>;

/** POST …/messages/{id}/to-event → the new event's module, id and console route. */
export function useToEventMutation(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageToEventRequest) =>
      http.post(messagePaths.toEvent(id), { json: body, context: { errorMode: 'silent' } }).json<ToEventResult>(),
    onSuccess: (r) => qc.invalidateQueries({ queryKey: ['events', r.module] }),
  });
}

export function useDeleteMessageMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(messagePaths.one(id));
    },
    onSuccess: async (_r, id) => {
      qc.removeQueries({ queryKey: messageKeys.detail(id) });
      await qc.invalidateQueries({ queryKey: messageKeys.lists() });
      await qc.invalidateQueries({ queryKey: ['telegram', 'channels'] });
    },
  });
}
