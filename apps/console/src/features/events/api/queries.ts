/* Query-key factory and query hooks of the event pages. Mutations invalidate through `eventKeys`. */
import { hasDecisions, type ModuleCode, type ModuleDescriptor, type RefList } from '@forpost/contract/modules';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { http, type SearchParams } from '../../../lib/http';
import type {
  CategoriesResponse,
  CommentList,
  DecisionsResponse,
  EventDetail,
  EventList,
  HistoryResponse,
  LeakList,
  LeakNamesResponse,
  LeakTypeList,
  LinkedLeaksResponse,
  MediaTypeList,
  MlInfo,
  PrioritiesResponse,
  RepoFilesResponse,
  SnapshotsResponse,
  StatusesResponse,
  TagList,
} from '../model/types';
import { paths } from './paths';

export const eventKeys = {
  all: ['events'] as const,
  module: (code: ModuleCode) => [...eventKeys.all, code] as const,
  lists: (code: ModuleCode) => [...eventKeys.module(code), 'list'] as const,
  list: (code: ModuleCode, params: SearchParams) => [...eventKeys.lists(code), params] as const,
  details: (code: ModuleCode) => [...eventKeys.module(code), 'detail'] as const,
  detail: (code: ModuleCode, id: number) => [...eventKeys.details(code), id] as const,
  /** Everything hanging off one event (history, snapshots, files, linked leaks). */
  history: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'history'] as const,
  ml: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'ml'] as const,
  related: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'related'] as const,
  snapshots: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'snapshots'] as const,
  repoFiles: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'files'] as const,
  linkedLeaks: (code: ModuleCode, id: number) => [...eventKeys.detail(code, id), 'leaks'] as const,
  statuses: (code: ModuleCode) => [...eventKeys.module(code), 'statuses'] as const,
  priorities: (code: ModuleCode) => [...eventKeys.module(code), 'priorities'] as const,
  decisions: (code: ModuleCode) => [...eventKeys.module(code), 'decisions'] as const,
  /** A bulk operation «по фильтру» (its progress). */
  bulkJob: (code: ModuleCode, id: number) => [...eventKeys.module(code), 'bulk', id] as const,
  comments: (eventId: number) => ['comments', eventId] as const,
  tags: () => ['tags', 'all'] as const,
  refList: (ref: RefList) => ['event-refs', ref] as const,
  leakNames: (q: string) => ['event-refs', 'leak-names', q] as const,
  merchantCategories: (kind: 'breach' | 'questionable') => ['event-refs', 'merchant', kind] as const,
};

/** Reference data changes rarely; it is cached for the whole session and refreshed on demand. */
const REF_STALE = 10 * 60_000;

// Stable `select` functions, so selected arrays keep their identity between renders.
const bySort = <T extends { sort: number }>(r: { items: T[] }) => [...r.items].sort((a, b) => a.sort - b.sort);
const byLevel = (r: PrioritiesResponse) => [...r.items].sort((a, b) => a.level - b.level);
const itemsOf = <T>(r: { items: T[] }) => r.items;

const statusesQuery = (code: ModuleCode) =>
  queryOptions({
    queryKey: eventKeys.statuses(code),
    queryFn: () => http.get(paths.statuses(code)).json<StatusesResponse>(),
    staleTime: REF_STALE,
    select: bySort,
  });

const prioritiesQuery = (code: ModuleCode) =>
  queryOptions({
    queryKey: eventKeys.priorities(code),
    queryFn: () => http.get(paths.priorities(code)).json<PrioritiesResponse>(),
    staleTime: REF_STALE,
    select: byLevel,
  });

const decisionsQuery = (code: ModuleCode) =>
  queryOptions({
    queryKey: eventKeys.decisions(code),
    queryFn: () => http.get(paths.decisions(code)).json<DecisionsResponse>(),
    staleTime: REF_STALE,
    select: bySort,
  });

const tagsQuery = queryOptions({
  queryKey: eventKeys.tags(),
  queryFn: () => http.get(paths.tags, { searchParams: { page_size: 500 } }).json<TagList>(),
  staleTime: 60_000,
  select: itemsOf,
});

/** Statuses, priorities, decisions (where the module has them) and tags: what lists and details render with. */
export function useEventRefs(m: ModuleDescriptor) {
  const withDecisions = hasDecisions(m);
  const {
    data: statuses,
    isSuccess: statusesOk,
    error: statusesError,
    refetch: refetchStatuses,
  } = useQuery(statusesQuery(m.code));
  const {
    data: priorities,
    isSuccess: prioritiesOk,
    error: prioritiesError,
    refetch: refetchPriorities,
  } = useQuery(prioritiesQuery(m.code));
  const {
    data: decisions,
    isSuccess: decisionsOk,
    error: decisionsError,
    refetch: refetchDecisions,
  } = useQuery({ ...decisionsQuery(m.code), enabled: withDecisions });
  const { data: tags } = useQuery(tagsQuery);
  return useMemo(
    () => ({
      statuses: statuses ?? [],
      priorities: priorities ?? [],
      decisions: decisions ?? [],
      tags: tags ?? [],
      /** Statuses/priorities/decisions are needed to read the URL's codes and to draw the rows. */
      ready: statusesOk && prioritiesOk && (!withDecisions || decisionsOk),
      error: statusesError ?? prioritiesError ?? decisionsError ?? null,
      refetch: () => {
        void refetchStatuses();
        void refetchPriorities();
        if (withDecisions) void refetchDecisions();
      },
    }),
    [
      withDecisions,
      statuses,
      priorities,
      decisions,
      tags,
      statusesOk,
      prioritiesOk,
      decisionsOk,
      statusesError,
      prioritiesError,
      decisionsError,
      refetchStatuses,
      refetchPriorities,
      refetchDecisions,
    ],
  );
}
export type EventRefs = ReturnType<typeof useEventRefs>;

export function useEventList(code: ModuleCode, params: SearchParams, enabled: boolean) {
  return useQuery({
    queryKey: eventKeys.list(code, params),
    queryFn: ({ signal }) =>
      http.get(paths.events(code), { searchParams: params, signal, context: { errorMode: 'silent' } }).json<EventList>(),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export const eventDetailQuery = (code: ModuleCode, id: number) =>
  queryOptions({
    queryKey: eventKeys.detail(code, id),
    queryFn: ({ signal }) => http.get(paths.event(code, id), { signal, context: { errorMode: 'silent' } }).json<EventDetail>(),
  });

export function useEventHistory(code: ModuleCode, id: number) {
  return useQuery({
    queryKey: eventKeys.history(code, id),
    queryFn: ({ signal }) =>
      http.get(paths.history(code, id), { signal, context: { errorMode: 'silent' } }).json<HistoryResponse>(),
    select: itemsOf,
  });
}

/** The event's classification: attempts, last error, what the classifier said. */
export function useMlInfo(code: ModuleCode, id: number, mlState: string) {
  return useQuery({
    // The state is part of the key: a changed state (requeue, worker) fetches the details again.
    queryKey: [...eventKeys.ml(code, id), mlState],
    queryFn: ({ signal }) => http.get(paths.ml(code, id), { signal, context: { errorMode: 'silent' } }).json<MlInfo>(),
  });
}

export function useComments(eventId: number) {
  return useQuery({
    queryKey: eventKeys.comments(eventId),
    queryFn: ({ signal }) =>
      http
        .get(paths.comments, { searchParams: { event_id: eventId, page_size: 500 }, signal, context: { errorMode: 'silent' } })
        .json<CommentList>(),
  });
}

/** How long the timeline waits for the snapshot a «Перепроверить» queued. */
export const SNAPSHOT_WAIT_MS = 120_000;

/** Whether the snapshot of the «Перепроверить» at `pendingSince` is still to come (`items`: newest first). */
export const snapshotAwaited = (items: readonly { taken_at: string }[] | undefined, pendingSince: number | null): boolean =>
  pendingSince !== null && !(items?.[0] && Date.parse(items[0].taken_at) >= pendingSince - 1000);

/**
 * The domain's snapshots. `pendingSince` (the time of the last «Перепроверить») polls every 2 s
 * until a snapshot taken after it arrives, or SNAPSHOT_WAIT_MS pass.
 */
export function useSnapshots(code: ModuleCode, id: number, pendingSince: number | null = null) {
  return useQuery({
    queryKey: eventKeys.snapshots(code, id),
    queryFn: ({ signal }) =>
      http.get(paths.snapshots(code, id), { signal, context: { errorMode: 'silent' } }).json<SnapshotsResponse>(),
    select: itemsOf,
    refetchInterval: (q) =>
      pendingSince !== null && Date.now() - pendingSince <= SNAPSHOT_WAIT_MS && snapshotAwaited(q.state.data?.items, pendingSince)
        ? 2000
        : false,
  });
}

export function useRepoFiles(code: ModuleCode, id: number) {
  return useQuery({
    queryKey: eventKeys.repoFiles(code, id),
    queryFn: ({ signal }) =>
      http.get(paths.repoFiles(code, id), { signal, context: { errorMode: 'silent' } }).json<RepoFilesResponse>(),
    select: itemsOf,
  });
}

export function useLinkedLeaks(code: ModuleCode, id: number) {
  return useQuery({
    queryKey: eventKeys.linkedLeaks(code, id),
    queryFn: ({ signal }) =>
      http.get(paths.linkedLeaks(code, id), { signal, context: { errorMode: 'silent' } }).json<LinkedLeaksResponse>(),
    select: itemsOf,
  });
}

export function useLeakNames(q: string) {
  return useQuery({
    queryKey: eventKeys.leakNames(q),
    queryFn: ({ signal }) =>
      http.get(paths.leakNames, { searchParams: { q: q || undefined, limit: 50 }, signal }).json<LeakNamesResponse>(),
    select: itemsOf,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useMerchantCategories(kind: 'breach' | 'questionable') {
  return useQuery({
    queryKey: eventKeys.merchantCategories(kind),
    queryFn: () => http.get(paths.merchantCategories(kind), { context: { errorMode: 'silent' } }).json<CategoriesResponse>(),
    select: itemsOf,
    staleTime: REF_STALE,
  });
}

/** Id → name of a reference list a `ref` field points to (media types, leak types, the leaks catalogue). */
function fetchRefList(ref: RefList): Promise<{ id: number; name: string }[]> {
  const opts = { searchParams: { page_size: 500 }, context: { errorMode: 'silent' as const } };
  switch (ref) {
    case 'media_types':
      return http
        .get(paths.mediaTypes, opts)
        .json<MediaTypeList>()
        .then((r) => r.items);
    case 'leak_types':
      return http
        .get(paths.leakTypes, { context: opts.context })
        .json<LeakTypeList>()
        .then((r) => r.items);
    case 'leaks':
      return http
        .get(paths.leaks, opts)
        .json<LeakList>()
        .then((r) => r.items);
  }
}

export function useRefList(ref: RefList | undefined) {
  return useQuery({
    queryKey: eventKeys.refList(ref ?? 'media_types'),
    queryFn: () => fetchRefList(ref as RefList),
    enabled: ref !== undefined,
    staleTime: REF_STALE,
  });
}
