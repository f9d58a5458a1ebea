import type { ConfigItem, configListResponse } from '@forpost/contract/configs';
import type { leakItem, leakTypeItem, mediaTypeItem } from '@forpost/contract/events-extras';
import type { Tag, tagUsageResponse } from '@forpost/contract/tags';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { ConfigItem, Tag };
export type MediaType = z.infer<typeof mediaTypeItem>;
export type LeakType = z.infer<typeof leakTypeItem>;
export type Leak = z.infer<typeof leakItem>;

/** API paths of the settings area (relative to /api/v1). */
export const settingsPaths = {
  configs: 'configs',
  config: (key: string) => `configs/${key}`,
  tags: 'tags',
  tag: (id: number) => `tags/${id}`,
  tagUsage: 'tags/usage',
  tagMerge: (id: number) => `tags/${id}/merge`,
  mediaTypes: 'modules/media/types',
  mediaType: (id: number) => `modules/media/types/${id}`,
  leaks: 'modules/leaks',
  leak: (id: number) => `modules/leaks/${id}`,
  leakTypes: 'modules/leaks/events/types',
  leakType: (id: number) => `modules/leaks/events/types/${id}`,
};

export interface RefListParams {
  q?: string;
  page: number;
  page_size: number;
}
export interface LeakListParams extends RefListParams {
  leak_type_id?: number;
}

/** Query keys of the settings area; mutations invalidate through them. */
export const settingsKeys = {
  configs: ['settings', 'configs'] as const,
  tags: {
    all: ['tags'] as const,
    list: (q?: string) => ['tags', 'list', q ?? ''] as const,
    usage: ['tags', 'usage'] as const,
  },
  mediaTypes: {
    all: ['settings', 'media-types'] as const,
    list: (p: RefListParams) => ['settings', 'media-types', 'list', p] as const,
  },
  leaks: {
    all: ['settings', 'leaks'] as const,
    list: (p: LeakListParams) => ['settings', 'leaks', 'list', p] as const,
  },
  leakTypes: {
    all: ['settings', 'leak-types'] as const,
    list: (q?: string) => ['settings', 'leak-types', 'list', q ?? ''] as const,
  },
};

/** GET /configs: every registry setting with its value (secrets: only `has_value`). */
export function useConfigsQuery() {
  return useQuery({
    queryKey: settingsKeys.configs,
    queryFn: () => http.get(settingsPaths.configs).json<z.infer<typeof configListResponse>>(),
  });
}

/** GET /tags (all of them: the API pages by 500). */
export function useTagsQuery(q?: string) {
  return useQuery({
    queryKey: settingsKeys.tags.list(q),
    queryFn: () => http.get(settingsPaths.tags, { searchParams: { q, page_size: 500 } }).json<Page<Tag>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /tags/usage → {tagId: events count}. */
export function useTagUsageQuery() {
  return useQuery({
    queryKey: settingsKeys.tags.usage,
    queryFn: async () => {
      const r = await http.get(settingsPaths.tagUsage).json<z.infer<typeof tagUsageResponse>>();
      return new Map(r.items.map((x) => [x.id, x.events_count]));
    },
  });
}

/** GET /modules/media/types. */
export function useMediaTypesQuery(p: RefListParams) {
  return useQuery({
    queryKey: settingsKeys.mediaTypes.list(p),
    queryFn: () => http.get(settingsPaths.mediaTypes, { searchParams: { ...p } }).json<Page<MediaType>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /modules/leaks (the catalogue of known leaks). */
export function useLeaksQuery(p: LeakListParams) {
  return useQuery({
    queryKey: settingsKeys.leaks.list(p),
    queryFn: () => http.get(settingsPaths.leaks, { searchParams: { ...p } }).json<Page<Leak>>(),
    placeholderData: keepPreviousData,
  });
}

/** GET /modules/leaks/events/types (seeded; a short list, not paged). */
const leakTypesQuery = (q?: string) =>
  queryOptions({
    queryKey: settingsKeys.leakTypes.list(q),
    queryFn: () => http.get(settingsPaths.leakTypes, { searchParams: { q, page_size: 500 } }).json<{ items: LeakType[] }>(),
    placeholderData: keepPreviousData,
  });
export function useLeakTypesQuery(q?: string) {
  return useQuery(leakTypesQuery(q));
}
