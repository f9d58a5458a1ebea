/* SQL of the audit log: one entry, written on the change's transaction (lib/audit.ts). */
import type { Db } from '../db/client';
import { auditLog } from '../db/schema/index';

export async function insertAuditEntry(tx: Db, row: typeof auditLog.$inferInsert): Promise<void> {
  await tx.insert(auditLog).values(row);
}
