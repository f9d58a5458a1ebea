/* Mutations of the event pages; each invalidates what it changed through `eventKeys`. */
import type { ModuleCode, ModuleDescriptor } from '@forpost/contract/modules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, http } from '../../../lib/http';
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
// Bulk: the collection's batch endpoints where the module has them, otherwise one call per event
// ---------------------------------------------------------------------------

export type BulkOp = { kind: 'patch'; patch: EventPatch } | { kind: 'delete' };
export interface BulkResult {
  done: number[];
  failed: { id: number; message: string }[];
}

const BULK_CONCURRENCY = 4;

export async function runBulk(
  m: ModuleDescriptor,
  ids: readonly number[],
  op: BulkOp,
  onProgress: (done: number, total: number) => void,
): Promise<BulkResult> {
  const silent = { context: { errorMode: 'silent' as const } };
  if (m.extras.includes('batch')) {
    onProgress(0, ids.length);
    try {
      const r =
        op.kind === 'patch'
          ? await http.patch(paths.events(m.code), { json: { ids, patch: op.patch }, ...silent }).json<BatchResponse>()
          : await http.delete(paths.events(m.code), { json: { ids }, ...silent }).json<BatchResponse>();
      onProgress(ids.length, ids.length);
      return { done: r.ids, failed: [] };
    } catch (error) {
      // The batch is all or nothing: the reason applies to every selected event.
      const message = errorMessage(error);
      return { done: [], failed: ids.map((id) => ({ id, message })) };
    }
  }
  const result: BulkResult = { done: [], failed: [] };
  let next = 0;
  let finished = 0;
  onProgress(0, ids.length);
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as number;
      try {
        if (op.kind === 'patch') await http.patch(paths.event(m.code, id), { json: op.patch, ...silent });
        else await http.delete(paths.event(m.code, id), silent);
        result.done.push(id);
      } catch (error) {
        result.failed.push({ id, message: errorMessage(error) });
      }
      onProgress(++finished, ids.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, worker));
  result.failed.sort((a, b) => a.id - b.id);
  return result;
}

export function useBulk(m: ModuleDescriptor) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { ids: number[]; op: BulkOp; onProgress: (done: number, total: number) => void }) =>
      runBulk(m, v.ids, v.op, v.onProgress),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: eventKeys.module(m.code) });
    },
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

export function useRepoFileMutations(id: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.repoFiles(id) });
    void qc.invalidateQueries({ queryKey: eventKeys.history('repositories', id) });
  };
  return {
    add: useMutation({
      mutationFn: (body: RepoFileInput) => http.post(paths.repoFiles(id), { json: body }).json<RepoFile>(),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (v: { fileId: number; body: Partial<RepoFileInput> }) =>
        http.patch(paths.repoFile(id, v.fileId), { json: v.body }).json<RepoFile>(),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (fileId: number) => http.delete(paths.repoFile(id, fileId)),
      onSuccess: refresh,
    }),
  };
}

export function useLinkedLeakMutations(id: number) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: eventKeys.linkedLeaks(id) });
    void qc.invalidateQueries({ queryKey: eventKeys.history('accounts', id) });
  };
  return {
    link: useMutation({
      mutationFn: (leakId: number) => http.post(paths.linkedLeaks(id), { json: { leak_id: leakId } }),
      onSuccess: refresh,
    }),
    unlink: useMutation({
      mutationFn: (leakId: number) => http.delete(paths.linkedLeaks(id), { searchParams: { leak_id: leakId } }),
      onSuccess: refresh,
    }),
  };
}
