import type { WhitelistItem, WhitelistKind, WhitelistType } from '@forpost/contract/whitelist';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../../components/list/pagination';
import { http } from '../../../lib/http';

export type { WhitelistItem };

/** Which whitelist: the global one (staff) or a company's own. */
export type WhitelistScope = { kind: 'global' } | { kind: 'company'; companyId: number };

export const whitelistPaths = {
  base: (s: WhitelistScope) => (s.kind === 'global' ? 'companies/global/whitelist' : `companies/${s.companyId}/whitelist`),
  item: (s: WhitelistScope, id: number) => `${whitelistPaths.base(s)}/${id}`,
  bulk: (s: WhitelistScope) => `${whitelistPaths.base(s)}/bulk`,
};

export interface WhitelistListParams {
  q?: string;
  type?: WhitelistType;
  kind?: WhitelistKind;
  expired?: 'true' | 'false';
  sort?: string;
  page: number;
  page_size: number;
}

const scopeKey = (s: WhitelistScope) => (s.kind === 'global' ? 'global' : s.companyId);

export const whitelistKeys = {
  all: ['whitelist'] as const,
  scope: (s: WhitelistScope) => [...whitelistKeys.all, scopeKey(s)] as const,
  list: (s: WhitelistScope, p: WhitelistListParams) => [...whitelistKeys.scope(s), 'list', p] as const,
};

export function useWhitelistQuery(scope: WhitelistScope | null, params: WhitelistListParams) {
  return useQuery({
    queryKey: scope ? whitelistKeys.list(scope, params) : [...whitelistKeys.all, 'none'],
    queryFn: () =>
      http.get(whitelistPaths.base(scope as WhitelistScope), { searchParams: { ...params } }).json<Page<WhitelistItem>>(),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
  });
}
