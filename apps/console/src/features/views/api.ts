/* Saved views and user preferences: queries and mutations (TanStack Query, optimistic where it is instant). */
import type { ModuleCode } from '@forpost/contract/modules';
import type { SavedView, ViewState } from '@forpost/contract/views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

interface PreferenceItem {
  key: string;
  value: unknown;
  updated_at: string;
}
export type Preferences = Record<string, unknown>;

export const viewKeys = {
  preferences: ['preferences'] as const,
  views: (code: ModuleCode) => ['views', code] as const,
  list: (code: ModuleCode, companyId: number | undefined) => [...viewKeys.views(code), companyId ?? null] as const,
};

const toMap = (r: { items: PreferenceItem[] }): Preferences => Object.fromEntries(r.items.map((p) => [p.key, p.value]));

/** The signed-in user's preferences (key → value); cached for the session, refreshed on focus. */
export function usePreferences() {
  return useQuery({
    queryKey: viewKeys.preferences,
    queryFn: () => http.get('me/preferences', { context: { errorMode: 'silent' } }).json<{ items: PreferenceItem[] }>(),
    select: toMap,
    staleTime: 60_000,
  });
}

/** Sets a preference (null resets it): applied to the cache at once, rolled back if the API refuses. */
export function usePutPreference() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: unknown }) =>
      http.put(`me/preferences/${encodeURIComponent(key)}`, { json: { value } }).json<PreferenceItem>(),
    onMutate: async ({ key, value }) => {
      await qc.cancelQueries({ queryKey: viewKeys.preferences });
      const previous = qc.getQueryData<{ items: PreferenceItem[] }>(viewKeys.preferences);
      const items = (previous?.items ?? []).filter((p) => p.key !== key);
      if (value !== null) items.push({ key, value, updated_at: new Date().toISOString() });
      qc.setQueryData(viewKeys.preferences, { items });
      return { previous };
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.previous) qc.setQueryData(viewKeys.preferences, ctx.previous);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: viewKeys.preferences }),
  });
}

/** The module's views the user sees: their own and those shared with the selected company (or every company). */
export function useViews(code: ModuleCode, companyId: number | undefined) {
  return useQuery({
    queryKey: viewKeys.list(code, companyId),
    queryFn: () =>
      http
        .get(`modules/${code}/views`, { searchParams: { company_id: companyId }, context: { errorMode: 'silent' } })
        .json<{ items: SavedView[] }>(),
    select: (r) => r.items,
    staleTime: 30_000,
  });
}

export interface ViewInput {
  name?: string;
  shared?: boolean;
  company_id?: number | null;
  state?: ViewState;
}

export function useSaveView(code: ModuleCode) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: ViewInput & { id?: number }) =>
      id
        ? http.patch(`modules/${code}/views/${id}`, { json: body }).json<SavedView>()
        : http.post(`modules/${code}/views`, { json: body }).json<SavedView>(),
    onSettled: () => void qc.invalidateQueries({ queryKey: viewKeys.views(code) }),
  });
}

export function useDeleteView(code: ModuleCode) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`modules/${code}/views/${id}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: viewKeys.views(code) });
      // A default view that named it is gone on the server too.
      void qc.invalidateQueries({ queryKey: viewKeys.preferences });
    },
  });
}
