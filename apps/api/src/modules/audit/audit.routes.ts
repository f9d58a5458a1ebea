import { auditEntry, auditQuery } from '@forpost/contract/audit';
import { listResponse } from '@forpost/contract/common';
import type { Db } from '../../db/client';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
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
    async (req) => svc.list(requireAuth(req).principal, req.query),
  );
}
