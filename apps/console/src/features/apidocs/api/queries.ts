import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { OpenApiDocument } from '../openapi';

const apiDocsKeys = {
  all: ['apidocs'] as const,
  doc: (id: string) => [...apiDocsKeys.all, id] as const,
};

/** GET /apidocs/all: the whole OpenAPI document of this server. */
export function useApiDocQuery() {
  return useQuery({
    queryKey: apiDocsKeys.doc('all'),
    queryFn: () => http.get('apidocs/all', { context: { errorMode: 'silent' } }).json<OpenApiDocument>(),
    staleTime: 5 * 60_000,
  });
}
