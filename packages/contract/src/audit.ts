/* The audit log: who did what, when, to which object (GET /audit, admins only). */
import { z } from 'zod';
import { companyQuery, textId } from './common';

export const auditQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(50),
  /** Action prefix: 'user.' matches user.create, user.delete, … */
  action: z.string().max(100).optional(),
  entity: z.string().max(50).optional(),
  entity_id: z.string().max(100).optional(),
  actor_user_id: textId().optional(),
  company_id: companyQuery,
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_user_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  actor_key_id: z.number().int().nullable(),
  action: z.string(),
  entity: z.string().nullable(),
  entity_id: z.string().nullable(),
  company_id: z.number().int().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  meta: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
