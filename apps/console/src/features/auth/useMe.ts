import type { Me } from '@forpost/contract/auth';
import { can, type Permission, type Principal } from '@forpost/contract/permissions';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { meQuery } from './api/queries';

/** The access principal of a /me answer (company roles of the companies the user belongs to). */
export function toPrincipal(me: Me): Principal {
  return {
    role: me.role,
    memberships: me.companies.flatMap((c) => (c.role ? [{ company_id: c.id, role: c.role }] : [])),
  };
}

/**
 * The signed-in user. Only for components under the signed-in routes: the route guard has loaded
 * /me before they render, so this never suspends there.
 */
export function useMe(): Me {
  const { data } = useSuspenseQuery(meQuery);
  if (!data) throw new Error('useMe() outside the signed-in part of the console');
  return data;
}

export function usePrincipal(): Principal {
  const me = useMe();
  return useMemo(() => toPrincipal(me), [me]);
}

/** May the signed-in user do `perm` (in `companyId`, or in at least one company)? */
export function useCan(perm: Permission, companyId?: number): boolean {
  const principal = usePrincipal();
  return can(principal, perm, companyId);
}
