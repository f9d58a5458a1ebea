/* SQL of reading the audit log (lib/audit.ts writes it). No permission checks here. */
import { and, count, desc, eq, gte, ilike, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema/index';
import { likeEscape } from '../../db/sql';

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditFilter {
  /** Companies whose entries are shown ('all', or ids; an empty list shows none). */
  scope: 'all' | number[];
  /** Action prefix: 'user.' matches user.create, user.delete, … */
  actionPrefix?: string;
  entity?: string;
  entityId?: string;
  actorUserId?: number;
  companyId?: number;
  from?: Date;
  to?: Date;
}

/** How many entries a listing counts exactly: the log grows without bound. */
const AUDIT_COUNT_CAP = 10_000;

export function createAuditRepo(db: Db) {
  return {
    /** A page of entries, newest first, each with its actor's name, and the total (at most AUDIT_COUNT_CAP). */
    async list(f: AuditFilter, limit: number, offset: number) {
      const where = and(
        f.scope === 'all' ? undefined : inArray(auditLog.companyId, f.scope.length ? f.scope : [-1]),
        f.actionPrefix ? ilike(auditLog.action, `${likeEscape(f.actionPrefix)}%`) : undefined,
        f.entity ? eq(auditLog.entity, f.entity) : undefined,
        f.entityId ? eq(auditLog.entityId, f.entityId) : undefined,
        f.actorUserId ? eq(auditLog.actorUserId, f.actorUserId) : undefined,
        f.companyId ? eq(auditLog.companyId, f.companyId) : undefined,
        f.from ? gte(auditLog.at, f.from) : undefined,
        f.to ? lte(auditLog.at, f.to) : undefined,
      );
      const [{ n } = { n: 0 }] = await db
        .select({ n: count() })
        .from(sql`(SELECT 1 FROM ${auditLog} WHERE ${where ?? sql`true`} LIMIT ${AUDIT_COUNT_CAP}) AS capped`);
      const rows = await db
        .select({ a: auditLog, actorName: users.name })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .where(where)
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit)
        .offset(offset);
      return { rows, total: n };
    },
  };
}
