import { API_MSG, errorResponse } from '@forpost/contract/errors';
import { MODULE_CODES } from '@forpost/contract/modules';
import { can, type RoutePermission } from '@forpost/contract/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NotifyCache } from '../db/notify-cache';
import type { AuthContext } from '../lib/caller';
import { ApiError, forbidden, unauthorized } from '../lib/errors';
import type { AuthService } from '../modules/auth/index';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every /api route must declare one: deny by default. */
    permission?: RoutePermission;
    /** Allowed while the user's profile is pending product-key activation. */
    allowPendingActivation?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const ACCESS_COOKIE = 'fp_access';
export const REFRESH_COOKIE = 'fp_refresh';
/**
 * A hint for the console, not a credential: «this browser has a session». Readable by scripts (no
 * HttpOnly) so the sign-in page knows it is signed out without asking GET /me and logging a 401
 * (issue #30). It carries nothing secret; the session is still only what the HttpOnly cookies prove.
 */
export const SESSION_HINT_COOKIE = 'fp_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MODULE_CODE_SET: ReadonlySet<string> = new Set(MODULE_CODES);
const DEFAULT_ERRORS = [400, 401, 403, 404, 409, 413, 429, 500, 503] as const;

/** Other ways to authenticate (API keys) plug in here; each returns null when the header is not theirs. */
export type BearerAuthenticator = (token: string, req: FastifyRequest) => Promise<AuthContext | null>;

function requireAuth(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/**
 * Is the request's Origin one of ours? Compared with the configured origins only — never with the
 * Host header, which is the attacker's to choose (issue #28: `Origin: http://evil.example` with
 * `Host: evil.example` and a victim's cookie passed).
 */
function originAllowed(req: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    return allowed.has(new URL(origin).origin);
  } catch {
    return false;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission;
  operationId?: string;
}

/**
 * TAXII clients (OpenCTI, MISP) send HTTP Basic: on the TAXII server the password is an API key (any
 * user name) and counts as `Bearer <key>` (#33). Elsewhere Basic means nothing.
 */
function basicKey(url: string, authz: string | undefined): string | undefined {
  if (!authz?.startsWith('Basic ') || !url.startsWith('/api/v1/taxii2/')) return undefined;
  const decoded = Buffer.from(authz.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) || undefined : undefined;
}

export function registerAccess(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    /** Origins whose pages may send state-changing requests with the cookie (config.allowedOrigins). */
    allowedOrigins: readonly string[];
    bearer?: BearerAuthenticator[];
    /** What this instance keeps of the database's answers (db/notify-cache.ts): dropped by its own changes. */
    caches: readonly Pick<NotifyCache<never>, 'clear'>[];
  },
): RouteEntry[] {
  const origins = new Set(deps.allowedOrigins);
  app.decorateRequest('auth', null);
  // A successful change on this instance drops its caches — who callers are, the list pages — before
  // the answer leaves: whatever it changed, the client's next request sees it (other instances: by
  // NOTIFY, db/notify-cache.ts). The change has committed by now — services commit before answering.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (UNSAFE.has(req.method) && reply.statusCode < 400) for (const c of deps.caches) c.clear();
    done(null, payload);
  });
  /** Every /api route with its declared permission (for review snapshots and the authorization matrix test). */
  const table: RouteEntry[] = [];

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    if (!route.config?.permission) {
      throw new Error(`Route ${route.method} ${route.url} declares no permission`);
    }
    route.schema ??= {};
    const schema = route.schema;
    for (const m of ([] as string[]).concat(route.method)) {
      if (m !== 'HEAD')
        table.push({ method: m, url: route.url, permission: route.config.permission, operationId: schema.operationId });
    }
    if (!(schema as { hide?: boolean }).hide && !schema.operationId) {
      throw new Error(`Route ${route.method} ${route.url} has no operationId`);
    }
    const declared = Object.keys((schema.response ?? {}) as Record<string, unknown>);
    if (!(schema as { hide?: boolean }).hide && !declared.some((c) => c.startsWith('2'))) {
      throw new Error(`Route ${route.method} ${route.url} has no success response schema`);
    }
    if (schema.response) {
      const resp = schema.response as Record<string, unknown>;
      for (const code of DEFAULT_ERRORS) resp[code] ??= errorResponse;
    }
  });

  app.addHook('onRequest', async (req: FastifyRequest, _reply: FastifyReply) => {
    if (!req.url.startsWith('/api/')) return;
    const permission = req.routeOptions.config?.permission;
    const authz = req.headers.authorization;
    const bearer = authz?.startsWith('Bearer ') ? authz.slice(7).trim() : basicKey(req.url, authz);
    const ctx = { ip: req.ip, userAgent: req.headers['user-agent'] };

    if (bearer) {
      for (const a of deps.bearer ?? []) {
        const r = await a(bearer, req);
        if (r) {
          req.auth = r;
          break;
        }
      }
      if (!req.auth && permission !== 'public') throw unauthorized('Неверный или отозванный API-ключ');
    } else {
      const token = req.cookies[ACCESS_COOKIE];
      if (token) req.auth = await deps.auth.authenticateAccess(token, ctx);
      // A browser's state-changing request must come from our own pages (CSRF).
      const hasCookies = Boolean(req.headers.cookie);
      if (UNSAFE.has(req.method) && (req.headers.origin || hasCookies) && !originAllowed(req, origins)) {
        throw new ApiError(403, API_MSG.originMismatch);
      }
    }

    if (!permission || permission === 'public') return;
    const auth = requireAuth(req);
    if (auth.user.pendingActivation && !req.routeOptions.config?.allowPendingActivation) {
      throw new ApiError(403, 'Активируйте продуктовый ключ, чтобы продолжить', { pending_activation: true });
    }
    // An API key's roles are per module: reading a module needs a role for it, changing needs a write role.
    const km = auth.principal.keyModules;
    const kw = auth.principal.keyWriteModules;
    const code = /^\/api\/v1\/modules\/([a-z]+)\//.exec(req.url)?.[1];
    if (code && MODULE_CODE_SET.has(code) && auth.keyId) {
      if (km && !km.includes(code) && !km.includes('*')) throw forbidden();
      if (UNSAFE.has(req.method) && kw && !kw.includes(code) && !kw.includes('*')) throw forbidden();
    }
    if (permission === 'session') {
      if (auth.keyId !== null) throw forbidden(API_MSG.sessionOnly);
      return;
    }
    if (permission === 'authenticated') return;
    if (!can(auth.principal, permission)) throw forbidden();
  });
  return table;
}
