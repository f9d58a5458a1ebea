/* Tenant scope of event operations, from the principal only (never from the request body). */
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG } from '@forpost/contract/modules';
import { can, companiesWith, type Permission, type Principal } from '@forpost/contract/permissions';
import type { users } from '../db/schema/index';
import type { AuditActor } from './audit';
import { ApiError, notFound } from './errors';

/** An authenticated principal: a signed-in session or an API key (plugins/access.ts sets `req.auth`). */
export interface AuthContext {
  user: typeof users.$inferSelect;
  sessionId: string | null;
  keyId: number | null;
  principal: Principal;
  /** The dashboard rollups as the session check saw them (session callers only; API keys: absent). */
  rollups?: RollupState;
}

/**
 * The rollups' generation (raised by every fold and rebuild) and whether any count delta waits to
 * be folded, read in the session check's snapshot. No pending delta and the same generation as a
 * cached dashboard answer means that answer's figures are still exact.
 */
export interface RollupState {
  generation: string;
  pending: boolean;
}

/** Who calls: the authenticated principal and the audit actor. */
export interface Caller {
  auth: AuthContext;
  actor: AuditActor;
}

export function callerOf(req: { auth: AuthContext | null; ip: string; headers: { 'user-agent'?: string } }): Caller {
  if (!req.auth) throw new ApiError(401, API_MSG.unauthorized);
  return {
    auth: req.auth,
    actor: { userId: req.auth.user.id, keyId: req.auth.keyId, ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
  };
}

/**
 * Does the caller own this personal (company-less) object — a pending upload, a draft import? Only
 * the signed-in user who made it; never through an API key, even its owner's: a key is bound to its
 * one company and reaches nothing outside it.
 */
export function ownsPersonal(c: Caller, ownerUserId: number | null): boolean {
  return c.auth.keyId === null && ownerUserId !== null && ownerUserId === c.auth.user.id;
}

/** An API key's one company (null for a signed-in user): whatever a key creates belongs to it. */
export function keyCompany(c: Caller): number | null {
  return c.auth.keyId === null ? null : (c.auth.principal.memberships[0]?.company_id ?? null);
}

/** An API key limited to some modules reaches no other module. */
export function assertModule(c: Caller, module: string): void {
  const km = c.auth.principal.keyModules;
  if (km && !km.includes(module) && !km.includes('*')) throw new ApiError(403, API_MSG.forbidden);
}

/**
 * Companies a list may cover: the selected one (`company_id`; absent or -1 = all the caller may see).
 * Selecting a company outside the caller's reach answers 404, as for any other object of another company.
 */
export function scopeFor(c: Caller, perm: Permission, companyId?: number | null): 'all' | number[] {
  const all = companiesWith(c.auth.principal, perm);
  if (companyId == null || companyId === -1) return all;
  if (all === 'all' || all.includes(companyId)) return [companyId];
  throw notFound(EVENT_MSG.companyNotFound);
}

/**
 * May the caller do `perm` on an object of `companyId`? Objects the caller cannot even read are
 * "not found" (their existence is not revealed); readable ones without the right are 403.
 */
export function assertOn(c: Caller, perm: Permission, companyId: number, notFoundMessage: string): void {
  if (!can(c.auth.principal, 'events.read', companyId)) throw notFound(notFoundMessage);
  if (!can(c.auth.principal, perm, companyId)) throw new ApiError(403, API_MSG.forbidden);
}

/** The company of a new object: the given one, or the caller's only company with `perm`. */
export function targetCompany(c: Caller, perm: Permission, companyId: number | undefined): number {
  if (companyId !== undefined) {
    if (!can(c.auth.principal, 'events.read', companyId)) throw notFound(EVENT_MSG.companyNotFound);
    if (!can(c.auth.principal, perm, companyId)) throw new ApiError(403, API_MSG.forbidden);
    return companyId;
  }
  const all = companiesWith(c.auth.principal, perm);
  if (all !== 'all' && all.length === 1 && all[0] !== undefined) return all[0];
  throw new ApiError(400, EVENT_MSG.companyRequired, { fields: { company_id: EVENT_MSG.companyRequired } });
}
