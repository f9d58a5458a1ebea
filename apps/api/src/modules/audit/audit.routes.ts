import { auditEntry, auditQuery } from '@forpost/contract/audit';
import { listResponse } from '@forpost/contract/common';
import type { Db } from '../../db/client';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { createAuditService } from './audit.service';

/** The audit log, newest first, for admins. */
export async function auditRoutes(app: App, deps: { db: Db }) {
  const svc = createAuditService(deps);
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
    async (req) => svc.list(callerOf(req), req.query),
  );
}
