import type { Me } from '@forpost/contract/auth';
import { can, type Permission } from '@forpost/contract/permissions';
import { ForbiddenError } from '../errors/errors';
import { toPrincipal } from './useMe';

/**
 * `beforeLoad` for a permission-guarded route: without the permission the route renders the 403
 * page (ForbiddenPage) instead of its component.
 *
 *   export const Route = createFileRoute('/_auth/_app/users/')({ beforeLoad: requirePermission('users.read'), … })
 */
export function requirePermission(perm: Permission) {
  return ({ context }: { context: { me: Me } }): void => {
    if (!can(toPrincipal(context.me), perm)) throw new ForbiddenError();
  };
}
