/* The audit log for admins: the entries of the companies the caller may audit, newest first. */
import type { AuditQuery } from '@forpost/contract/audit';
import { companiesWith } from '@forpost/contract/permissions';
import type { Db } from '../../db/client';
import type { Caller } from '../../lib/caller';
import { iso } from '../../lib/serialize';
import { createAuditRepo } from './audit.repo';

export function createAuditService(deps: { db: Db }) {
  const repo = createAuditRepo(deps.db);
  return {
    async list(c: Caller, q: AuditQuery) {
      const p = c.auth.principal;
      const { rows, total } = await repo.list(
        {
          scope: companiesWith(p, 'audit.read'),
          actionPrefix: q.action,
          entity: q.entity,
          entityId: q.entity_id,
          actorUserId: q.actor_user_id,
          companyId: q.company_id && q.company_id > 0 ? q.company_id : undefined,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
        },
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return {
        items: rows.map(({ a, actorName }) => ({
          id: a.id,
          at: iso(a.at),
          actor_user_id: a.actorUserId,
          actor_name: actorName,
          actor_key_id: a.actorKeyId,
          action: a.action,
          entity: a.entity,
          entity_id: a.entityId,
          company_id: a.companyId,
          ip: a.ip,
          user_agent: a.userAgent,
          before: a.before,
          after: a.after,
          meta: a.meta,
        })),
        total,
        page: q.page,
        page_size: q.page_size,
      };
    },
  };
}
