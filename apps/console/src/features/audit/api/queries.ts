import type { AuditEntry, AuditQuery } from '@forpost/contract/audit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { AuditEntry };

const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (q: AuditQuery) => [...auditKeys.lists(), q] as const,
};

/** GET /audit: newest first, filtered. */
export function useAuditQuery(q: AuditQuery) {
  return useQuery({
    queryKey: auditKeys.list(q),
    queryFn: () => http.get('audit', { searchParams: { ...q } }).json<Page<AuditEntry>>(),
    placeholderData: keepPreviousData,
  });
}
