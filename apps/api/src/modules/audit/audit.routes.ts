import { auditEntry, auditQuery } from '@forpost/contract/audit';
import { listResponse } from '@forpost/contract/common';
import { companiesWith } from '@forpost/contract/permissions';
import { and, count, desc, eq, gte, ilike, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema/index';
import type { App } from '../../lib/routes';
import { iso } from '../../lib/serialize';
import { requireAuth } from '../../plugins/access';

/** The audit log, newest first, for admins. */
export async function auditRoutes(app: App, deps: { db: Db }) {
  app.get(
    '/audit',
    {
      config: { permission: 'audit.read' },
      schema: {
        operationId: 'listAudit',
        tags: ['audit'],
        summary: 'Журнал аудита',
        querystring: auditQuery,
        response: { 200: listResponse(auditEntry) },
      },
    },
    async (req) => {
      const q = req.query;
      const scope = companiesWith(requireAuth(req).principal, 'audit.read');
      const where = and(
        scope === 'all' ? undefined : inArray(auditLog.companyId, scope.length ? scope : [-1]),
        q.action ? ilike(auditLog.action, `${q.action.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
        q.entity ? eq(auditLog.entity, q.entity) : undefined,
        q.entity_id ? eq(auditLog.entityId, q.entity_id) : undefined,
        q.actor_user_id ? eq(auditLog.actorUserId, q.actor_user_id) : undefined,
        q.company_id && q.company_id > 0 ? eq(auditLog.companyId, q.company_id) : undefined,
        q.from ? gte(auditLog.at, new Date(q.from)) : undefined,
        q.to ? lte(auditLog.at, new Date(q.to)) : undefined,
      );
      // Exact count capped at 10 000: the log grows without bound.
      const [{ n } = { n: 0 }] = await deps.db
        .select({ n: count() })
        .from(sql`(SELECT 1 FROM ${auditLog} WHERE ${where ?? sql`true`} LIMIT 10000) AS capped`);
      const rows = await deps.db
        .select({ a: auditLog, actorName: users.name })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .where(where)
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
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
        total: n,
        page: q.page,
        page_size: q.page_size,
      };
    },
  );
}
