import type {
  BulkWhitelistRequest,
  bulkWhitelistResponse,
  CreateWhitelistItem,
  UpdateWhitelistItem,
} from '@forpost/contract/whitelist';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { type WhitelistItem, type WhitelistScope, whitelistKeys, whitelistPaths } from './queries';

export type BulkResult = z.infer<typeof bulkWhitelistResponse>;

/**
 * Whitelist changes re-mark events in the background (whitelist kind on events); the event pages
 * are refreshed too so they show it when it lands.
 */
function useInvalidate(scope: WhitelistScope) {
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: whitelistKeys.scope(scope) });
    await qc.invalidateQueries({ queryKey: ['events'] });
  };
}

export function useSaveWhitelistItemMutation(scope: WhitelistScope) {
  const invalidate = useInvalidate(scope);
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CreateWhitelistItem | UpdateWhitelistItem }) =>
      id === undefined
        ? http.post(whitelistPaths.base(scope), { json: body, context: { errorMode: 'silent' } }).json<WhitelistItem>()
        : http.patch(whitelistPaths.item(scope, id), { json: body, context: { errorMode: 'silent' } }).json<WhitelistItem>(),
    onSuccess: invalidate,
  });
}

export function useDeleteWhitelistItemMutation(scope: WhitelistScope) {
  const invalidate = useInvalidate(scope);
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(whitelistPaths.item(scope, id));
    },
    onSuccess: invalidate,
  });
}

/** POST …/whitelist/bulk: one entry per line; the answer has a result per line. */
export function useBulkWhitelistMutation(scope: WhitelistScope) {
  const invalidate = useInvalidate(scope);
  return useMutation({
    mutationFn: (body: BulkWhitelistRequest) =>
      http.post(whitelistPaths.bulk(scope), { json: body, context: { errorMode: 'silent' }, timeout: 60_000 }).json<BulkResult>(),
    onSuccess: invalidate,
  });
}
