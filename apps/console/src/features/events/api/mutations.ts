/* Mutations of the event pages; each invalidates what it changed through `eventKeys`. */
import type { BulkJob } from '@forpost/contract/events-bulk';
import type { ModuleCode, ModuleDescriptor } from '@forpost/contract/modules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, type SearchParams } from '../../../lib/http';
import type {
  ActionResponse,
  BatchResponse,
  CardRevealResponse,
  CommentItem,
  DocItem,
  EventDetail,
  MlInfo,
  RepoFile,
  RepoFileInput,
  TagItem,
} from '../model/types';
import { paths } from './paths';
import { eventKeys } from './queries';

export type EventPatch = Record<string, unknown>;

/**
 * PATCH one event, optimistically: the detail shows the new values at once and rolls back if the
 * API refuses (its message is toasted). Lists and the history are refreshed afterwards.
 */
export function usePatchEvent(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  const key = eventKeys.detail(code, id);
  return useMutation({
    mutationFn: (patch: EventPatch) => http.patch(paths.event(code, id), { json: patch }).json<EventDetail>(),
    onMutate: async (patch) => {
      await qc.cancelQueries({ queryKey: key, exact: true });
      const previous = qc.getQueryData<EventDetail>(key);
      if (previous) qc.setQueryData<EventDetail>(key, { ...previous, ...optimisticOf(patch, previous) });
      return { previous };
    },
    onError: (_error, _patch, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (event) => {
      qc.setQueryData(key, (old: EventDetail | undefined) => ({ ...old, ...event }));
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
      void qc.invalidateQueries({ queryKey: eventKeys.history(code, id) });
    },
  });
}

/**
 * «Изменить»: PATCH of the module's own fields, not optimistic and silent — the form shows the API's
 * field errors on its fields. The detail takes the answer; lists and the history are refreshed.
 */
export function useEditEvent(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: EventPatch) =>
      http.patch(paths.event(code, id), { json: patch, context: { errorMode: 'silent' } }).json<EventDetail>(),
    onSuccess: (event) => {
      qc.setQueryData(eventKeys.detail(code, id), (old: EventDetail | undefined) => ({ ...old, ...event }));
      void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
      void qc.invalidateQueries({ queryKey: eventKeys.history(code, id) });
    },
  });
}

/** What a patch looks like on the cached event (tags_add/tags_remove applied to `tags`). */
function optimisticOf(patch: EventPatch, event: EventDetail): Partial<EventDetail> {
  const { tags_add, tags_remove, ...rest } = patch;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(tags_add) || Array.isArray(tags_remove)) {
    const add = (tags_add as number[] | undefined) ?? [];
    const remove = new Set((tags_remove as number[] | undefined) ?? []);
    out.tags = [...new Set([...event.tags, ...add])].filter((t) => !remove.has(t));
  }
  return out as Partial<EventDetail>;
}

export function useDeleteEvent(code: ModuleCode) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(paths.event(code, id)),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: eventKeys.detail(code, id) });
      void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
    },
  });
}

// ---------------------------------------------------------------------------
// Bulk: the collection's endpoints only — the selected rows in one call (all or nothing), or every
// event the list's filter selects (at once when few, otherwise a job whose progress is polled)
// ---------------------------------------------------------------------------

export type BulkOp =
  | { kind: 'patch'; patch: EventPatch }
  | { kind: 'action'; action: string; comment?: string }
  | { kind: 'delete' };

/** A bulk call may change hundreds of events in one transaction: longer than the 10 s of ordinary calls, never retried. */
const BULK_CALL = { timeout: 120_000, retry: 0 } as const;

/** The selected events, in one call on the collection: all of them change, or none (the API's message is toasted). */
export function useBatch(m: ModuleDescriptor) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, op }: { ids: number[]; op: BulkOp }) => {
      const code = m.code;
      if (op.kind === 'patch')
        return http.patch(paths.events(code), { json: { ids, patch: op.patch }, ...BULK_CALL }).json<BatchResponse>();
      if (op.kind === 'delete') return http.delete(paths.events(code), { json: { ids }, ...BULK_CALL }).json<BatchResponse>();
      const { kind: _, ...body } = op;
      return http.post(paths.batchActions(code), { json: { ids, ...body }, ...BULK_CALL }).json<BatchResponse>();
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: eventKeys.module(m.code) }),
  });
}

/**
 * Every event the list's filter selects (`filters`: the list's query without paging and sort). The
 * answer is the operation: `done` when it ran at once, otherwise queued — follow it with useBulkJob.
 */
export function useBulkByFilter(m: ModuleDescriptor) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ filters, op }: { filters: SearchParams; op: BulkOp }) => {
      const opts = { searchParams: filters, ...BULK_CALL };
      if (op.kind === 'delete') return http.delete(paths.bulk(m.code), opts).json<BulkJob>();
      const json =
        op.kind === 'patch' ? { op: 'patch', patch: op.patch } : { op: 'action', action: op.action, comment: op.comment };
      return http.post(paths.bulk(m.code), { json, ...opts }).json<BulkJob>();
    },
    onSuccess: (job) => {
      qc.setQueryData(eventKeys.bulkJob(m.code, job.id), job);
      if (job.status === 'done') void qc.invalidateQueries({ queryKey: eventKeys.module(m.code) });
    },
  });
}

/** A bulk job's progress, polled every second until it is done or failed (a failed poll is tried again, silently). */
export function useBulkJob(code: ModuleCode, id: number | undefined) {
  return useQuery({
    queryKey: eventKeys.bulkJob(code, id ?? 0),
    queryFn: () => http.get(paths.bulkJob(code, id as number), { context: { errorMode: 'silent' } }).json<BulkJob>(),
    enabled: id !== undefined,
    refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.status) ? false : 1000),
  });
}

// ---------------------------------------------------------------------------
// Tags, comments, attachments
// ---------------------------------------------------------------------------

export function useCreateTag() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; color: string }) => http.post(paths.tags, { json: body }).json<TagItem>(),
    onSuccess: () => void qc.invalidateQueries({ queryKey: eventKeys.tags() }),
  });
}

export function useCommentMutations(code: ModuleCode, eventId: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.comments(eventId) });
    void qc.invalidateQueries({ queryKey: eventKeys.detail(code, eventId), exact: true });
  };
  return {
    add: useMutation({
      mutationFn: (text: string) => http.post(paths.comments, { json: { event_id: eventId, text } }).json<CommentItem>(),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (v: { id: number; text: string }) =>
        http.patch(paths.comment(v.id), { json: { text: v.text } }).json<CommentItem>(),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => http.delete(paths.comment(id)),
      onSuccess: refresh,
    }),
  };
}

/** Uploads take longer than the 10 s default of ordinary calls. */
const UPLOAD_TIMEOUT_MS = 120_000;

export function useDocMutations(code: ModuleCode, eventId: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.detail(code, eventId) });
  };
  return {
    upload: useMutation({
      mutationFn: (v: { file: File; kind: 'screenshot' | 'sample' }) => {
        // Fields first, the file last (the API reads the fields before streaming the file).
        const form = new FormData();
        form.append('kind', v.kind);
        form.append('event_id', String(eventId));
        form.append('file', v.file, v.file.name);
        return http.post(paths.docs, { body: form, timeout: UPLOAD_TIMEOUT_MS }).json<DocItem>();
      },
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => http.delete(paths.doc(id)),
      onSuccess: refresh,
    }),
  };
}

// ---------------------------------------------------------------------------
// Module extras
// ---------------------------------------------------------------------------

export function useEventAction(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: string; comment?: string }) =>
      http.post(paths.actions(code, id), { json: body }).json<ActionResponse>(),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: eventKeys.detail(code, id) });
      void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
    },
  });
}

/** «Повторить классификацию»: the event goes back to the classifier's queue. */
export function useMlRequeue(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post(paths.mlRequeue(code, id)).json<MlInfo>(),
    onSuccess: (info) => {
      qc.setQueryData<EventDetail>(eventKeys.detail(code, id), (old) => (old ? { ...old, ml_state: info.ml_state } : old));
      void qc.invalidateQueries({ queryKey: eventKeys.detail(code, id) });
      void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
    },
  });
}

/** The clear card number (audited by the API); never cached. */
export function useCardReveal(code: ModuleCode, id: number) {
  return useMutation({
    mutationFn: () => http.post(paths.cardReveal(code, id)).json<CardRevealResponse>(),
  });
}

export function useRepoFileMutations(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.repoFiles(code, id) });
    void qc.invalidateQueries({ queryKey: eventKeys.history(code, id) });
  };
  return {
    add: useMutation({
      // Errors are shown by the form (RepoFiles).
      mutationFn: (body: RepoFileInput) =>
        http.post(paths.repoFiles(code, id), { json: body, context: { errorMode: 'silent' } }).json<RepoFile>(),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (v: { fileId: number; body: Partial<RepoFileInput> }) =>
        http.patch(paths.repoFile(code, id, v.fileId), { json: v.body, context: { errorMode: 'silent' } }).json<RepoFile>(),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (fileId: number) => http.delete(paths.repoFile(code, id, fileId)),
      onSuccess: refresh,
    }),
  };
}

export function useLinkedLeakMutations(code: ModuleCode, id: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.linkedLeaks(code, id) });
    void qc.invalidateQueries({ queryKey: eventKeys.history(code, id) });
  };
  return {
    link: useMutation({
      mutationFn: (leakId: number) => http.post(paths.linkedLeaks(code, id), { json: { leak_id: leakId } }),
      onSuccess: refresh,
    }),
    unlink: useMutation({
      mutationFn: (leakId: number) => http.delete(paths.linkedLeaks(code, id), { searchParams: { leak_id: leakId } }),
      onSuccess: refresh,
    }),
  };
}
