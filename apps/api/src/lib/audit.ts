import type { AuditAction } from '@forpost/contract/audit';
import type { Db } from '../db/client';
import { insertAuditEntry } from './audit.repo';

export interface AuditActor {
  userId?: number | null;
  keyId?: number | null;
  ip?: string | null;
  userAgent?: string | null;
}
export interface AuditEntry {
  /** One of the contract's codes, each with its Russian name (AUDIT_ACTIONS). */
  action: AuditAction;
  entity?: string;
  entityId?: string | number | null;
  companyId?: number | null;
  before?: unknown;
  after?: unknown;
  meta?: Record<string, unknown>;
}

const SECRET_KEYS = /password|secret|token|code|hash|key_text|totp/i;

/** Never let a secret into the audit log, whatever a caller passes. */
function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, SECRET_KEYS.test(k) ? '[скрыто]' : redact(x)]),
    );
  }
  return v;
}

export type Audit = ReturnType<typeof createAudit>;

/**
 * The audit log. Rule: an entry commits together with the change it records — pass the change's
 * transaction as `tx` (`db.transaction(async (tx) => { …change on tx…; await audit.record(actor, e, tx) })`,
 * or `clientDb(client)` of db/client.ts inside a raw client's BEGIN … COMMIT). Without `tx` the entry is written on its
 * own: only for what changes nothing (a read, a refused attempt).
 */
export function createAudit({ db }: { db: Db }) {
  return {
    async record(actor: AuditActor, e: AuditEntry, tx: Db = db): Promise<void> {
      await insertAuditEntry(tx, {
        action: e.action,
        entity: e.entity ?? null,
        entityId: e.entityId == null ? null : String(e.entityId),
        companyId: e.companyId ?? null,
        actorUserId: actor.userId ?? null,
        actorKeyId: actor.keyId ?? null,
        ip: actor.ip ?? null,
        userAgent: actor.userAgent?.slice(0, 500) ?? null,
        before: e.before === undefined ? null : redact(e.before),
        after: e.after === undefined ? null : redact(e.after),
        meta: e.meta ? (redact(e.meta) as Record<string, unknown>) : null,
      });
    },
  };
}
