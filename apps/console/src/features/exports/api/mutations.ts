/* «Мои экспорты»: create (from a list's filters), delete. */
import type { ExportCreateRequest, ExportItem } from '@forpost/contract/exports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { exportKeys } from './queries';

export function useCreateExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportCreateRequest) => http.post('modules/exports', { json: body }).json<ExportItem>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: exportKeys.lists() }),
  });
}

export function useDeleteExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`modules/exports/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: exportKeys.lists() }),
  });
}
