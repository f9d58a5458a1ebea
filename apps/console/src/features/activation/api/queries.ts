import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { Activation } from '../../companies/api/queries';

export const activationKeys = {
  all: ['activation'] as const,
  list: () => [...activationKeys.all, 'list'] as const,
};

/** GET /companies/activation/list: the signed-in user's activated keys. */
export function useActivationsQuery(enabled: boolean) {
  return useQuery({
    queryKey: activationKeys.list(),
    queryFn: () => http.get('companies/activation/list').json<{ items: Activation[] }>(),
    enabled,
  });
}
