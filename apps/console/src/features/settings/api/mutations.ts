import type { ConfigItem } from '@forpost/contract/configs';
import type { leakCreateRequest, leakPatchRequest, leakTypePatchRequest } from '@forpost/contract/events-extras';
import type { Tag, tagMergeResponse } from '@forpost/contract/tags';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/http';
import { type Leak, type LeakType, type MediaType, settingsKeys, settingsPaths } from './queries';

/** Event pages cache the reference lists under these keys (features/events): refresh them too. */
const EVENT_REFS = ['event-refs'] as const;
const EVENTS = ['events'] as const;

const silent = { context: { errorMode: 'silent' as const } };

/** PATCH /configs/{key} (creates or replaces the stored value). Errors are shown by the form. */
export function useSaveConfigMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string | number | boolean | null }) =>
      http.patch(settingsPaths.config(key), { json: { value }, ...silent }).json<ConfigItem>(),
    onSuccess: (item) => updateConfigInCache(qc, item),
  });
}

/** DELETE /configs/{key}: back to the default (or «не задано» for a secret). */
export function useResetConfigMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      await http.delete(settingsPaths.config(key));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: settingsKeys.configs }),
  });
}

function updateConfigInCache(qc: QueryClient, item: ConfigItem) {
  qc.setQueryData<{ items: ConfigItem[] }>(settingsKeys.configs, (old) =>
    old ? { ...old, items: old.items.map((c) => (c.key === item.key ? item : c)) } : old,
  );
}

// --- tags ---------------------------------------------------------------------

export function useSaveTagMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: { name: string; color: string } }) =>
      id === undefined
        ? http.post(settingsPaths.tags, { json: body, ...silent }).json<Tag>()
        : http.patch(settingsPaths.tag(id), { json: body, ...silent }).json<Tag>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: settingsKeys.tags.all }),
  });
}

export function useDeleteTagMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(settingsPaths.tag(id));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.tags.all });
      await qc.invalidateQueries({ queryKey: EVENTS });
    },
  });
}

/** POST /tags/{id}/merge: the source's events get the target tag, the source is deleted. */
export function useMergeTagMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ sourceId, targetId }: { sourceId: number; targetId: number }) =>
      http
        .post(settingsPaths.tagMerge(sourceId), { json: { target_id: targetId }, ...silent })
        .json<z.infer<typeof tagMergeResponse>>(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.tags.all });
      await qc.invalidateQueries({ queryKey: EVENTS });
    },
  });
}

// --- media types, leaks, leak types -------------------------------------------

export function useSaveMediaTypeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id?: number; name: string }) =>
      id === undefined
        ? http.post(settingsPaths.mediaTypes, { json: { name }, ...silent }).json<MediaType>()
        : http.patch(settingsPaths.mediaType(id), { json: { name }, ...silent }).json<MediaType>(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.mediaTypes.all });
      await qc.invalidateQueries({ queryKey: EVENT_REFS });
    },
  });
}

/** DELETE; a type used by events is refused with the API's Russian message (toasted). */
export function useDeleteMediaTypeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(settingsPaths.mediaType(id));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.mediaTypes.all });
      await qc.invalidateQueries({ queryKey: EVENT_REFS });
    },
  });
}

export type LeakBody = z.input<typeof leakCreateRequest> | z.input<typeof leakPatchRequest>;

export function useSaveLeakMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: LeakBody }) =>
      id === undefined
        ? http.post(settingsPaths.leaks, { json: body, ...silent }).json<Leak>()
        : http.patch(settingsPaths.leak(id), { json: body, ...silent }).json<Leak>(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.leaks.all });
      await qc.invalidateQueries({ queryKey: EVENT_REFS });
    },
  });
}

export function useDeleteLeakMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await http.delete(settingsPaths.leak(id));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.leaks.all });
      await qc.invalidateQueries({ queryKey: EVENT_REFS });
    },
  });
}

export function useSaveLeakTypeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: z.input<typeof leakTypePatchRequest> }) =>
      http.patch(settingsPaths.leakType(id), { json: body, ...silent }).json<LeakType>(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settingsKeys.leakTypes.all });
      await qc.invalidateQueries({ queryKey: EVENT_REFS });
    },
  });
}
