/* Imports: upload (with progress), re-preview with another mapping, start, delete (undo). */
import type { ImportItem, ImportPreview, ImportStartRequest } from '@forpost/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { eventKeys } from '../../events/api/queries';
import { type ImportTarget, importKeys, importsBase } from './queries';
import { uploadImportFile } from './upload';

export function useUploadImport(t: ImportTarget) {
  const qc = useQueryClient();
  const base = importsBase(t);
  return useMutation({
    mutationFn: (v: { file: File; companyId?: number; onProgress: (p: number) => void }) =>
      uploadImportFile(base, v.file, { companyId: v.companyId, onProgress: v.onProgress }),
    onSuccess: async (item) => {
      qc.setQueryData(importKeys.detail(base, item.id), item);
      await qc.invalidateQueries({ queryKey: importKeys.lists(base) });
    },
  });
}

/** POST …/{id}/preview: the first rows validated against another mapping. */
export function usePreviewImport(t: ImportTarget) {
  const base = importsBase(t);
  return useMutation({
    mutationFn: (v: { id: number; mapping: (string | null)[] }) =>
      http
        .post(`${base}/${v.id}/preview`, { json: { mapping: v.mapping }, context: { errorMode: 'silent' } })
        .json<ImportPreview>(),
  });
}

export function useStartImport(t: ImportTarget) {
  const qc = useQueryClient();
  const base = importsBase(t);
  return useMutation({
    mutationFn: (v: { id: number } & ImportStartRequest) => {
      const { id, ...body } = v;
      return http.post(`${base}/${id}/start`, { json: body }).json<ImportItem>();
    },
    onSuccess: async (item) => {
      qc.setQueryData(importKeys.detail(base, item.id), item);
      await qc.invalidateQueries({ queryKey: importKeys.lists(base) });
    },
  });
}

/** DELETE …/{id}: removes the events the import created. */
export function useDeleteImport(t: ImportTarget) {
  const qc = useQueryClient();
  const base = importsBase(t);
  return useMutation({
    mutationFn: (id: number) => http.delete(`${base}/${id}`),
    onSuccess: async (_r, id) => {
      qc.removeQueries({ queryKey: importKeys.detail(base, id) });
      await qc.invalidateQueries({ queryKey: importKeys.lists(base) });
      // The events lists changed too.
      await qc.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}
