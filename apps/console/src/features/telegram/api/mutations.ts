import type {
  createTelegramAccountRequest,
  createTelegramChannelRequest,
  updateTelegramAccountRequest,
  updateTelegramChannelRequest,
} from '@forpost/contract/telegram';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { type TelegramAccount, type TelegramChannel, telegramKeys, telegramPaths } from './queries';

export type AccountBody = z.input<typeof createTelegramAccountRequest> | z.input<typeof updateTelegramAccountRequest>;
export type ChannelBody = z.input<typeof createTelegramChannelRequest> | z.input<typeof updateTelegramChannelRequest>;

const silent = { context: { errorMode: 'silent' as const } };

export function useSaveAccountMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: AccountBody }) =>
      id === undefined
        ? http.post(telegramPaths.accounts, { json: body, ...silent }).json<TelegramAccount>()
        : http.patch(telegramPaths.account(id), { json: body, ...silent }).json<TelegramAccount>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: telegramKeys.accounts() }),
  });
}

export function useDeleteAccountMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(telegramPaths.account(id));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: telegramKeys.accounts() }),
  });
}

/** Create / change a channel. A company change re-matches its messages: the message lists refresh too. */
export function useSaveChannelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, toast = false }: { id?: number; body: ChannelBody; toast?: boolean }) =>
      id === undefined
        ? http.post(telegramPaths.channels, { json: body, ...silent }).json<TelegramChannel>()
        : http.patch(telegramPaths.channel(id), { json: body, ...(toast ? {} : silent) }).json<TelegramChannel>(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: telegramKeys.channels() });
      await qc.invalidateQueries({ queryKey: ['messages'] });
    },
  });
}

export function useDeleteChannelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(telegramPaths.channel(id));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: telegramKeys.channels() });
      await qc.invalidateQueries({ queryKey: ['messages'] });
    },
  });
}
