import type { Me } from '@forpost/contract/auth';
import { API_MSG } from '@forpost/contract/errors';
import { isStaff } from '@forpost/contract/permissions';
import { ipInCidr } from '@forpost/contract/validation';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { AuthContext } from '../../lib/caller';
import { hmac, randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { forbidden, unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { type AccessCache, deepFreeze } from './access-cache';
import type { FailureLimiter } from './limiter';
import type { SessionsRepo, UserRow } from './sessions.repo';
import { createSignInGuard, slowLimitsOf } from './signin-guard';

export interface RequestCtx {
  ip: string;
  userAgent?: string;
}
export interface IssuedTokens {
  access: string;
  /** Seconds the access token lives (cookie max-age). */
  accessTtl: number;
  /** Absent when a racing refresh already rotated the token: keep the cookie the browser has. */
  refresh?: string;
  sessionId: string;
}
export type { AuthContext };

/** How long the token just replaced still works, so two tabs refreshing at once do not log the user out. */
const REFRESH_GRACE_MS = 30_000;

const IP_DENIED = 'Доступ с этого IP-адреса запрещён для вашей учётной записи';

export function ipAllowed(allowed: readonly string[], ip: string): boolean {
  return allowed.length === 0 || allowed.some((c) => ipInCidr(ip, c));
}

/** Session lifetimes, read at run time (configs) so a change applies without a restart. */
export interface Lifetimes {
  accessTtlSeconds: number;
  idleSeconds: number;
  absoluteSeconds: number;
}

export function createAuthService(deps: {
  repo: SessionsRepo;
  audit: Audit;
  config: Config;
  limiter: FailureLimiter;
  lifetimes?: () => Promise<Lifetimes>;
  /** Who a session is, for a few seconds (access-cache.ts; ACCESS_CACHE_MS=0: read on every request). */
  access: AccessCache;
}) {
  const { repo, audit, config, limiter, access } = deps;
  const guard = createSignInGuard({ limiter, audit, slow: () => slowLimitsOf(config) });
  const lifetimes =
    deps.lifetimes ??
    (async () => ({
      accessTtlSeconds: config.accessTtlSeconds,
      idleSeconds: config.sessionIdleSeconds,
      absoluteSeconds: config.sessionAbsoluteSeconds,
    }));
  const sign = (sid: string, exp: number) => hmac(config.secret, `access.${sid}.${exp}`);

  async function issueAccess(sid: string): Promise<{ access: string; accessTtl: number }> {
    const ttl = (await lifetimes()).accessTtlSeconds;
    const exp = Math.floor(Date.now() / 1000) + ttl;
    return { access: `${sid}.${exp}.${sign(sid, exp)}`, accessTtl: ttl };
  }

  /** The session id named by a valid, unexpired access token; null otherwise. */
  function parseAccess(token: string): string | null {
    const [sid, expS, sig] = token.split('.');
    if (!sid || !expS || !sig || !/^[0-9a-f-]{36}$/.test(sid) || !/^\d+$/.test(expS)) return null;
    const exp = Number(expS);
    if (!safeEqual(sig, sign(sid, exp))) return null;
    if (exp * 1000 <= Date.now()) return null;
    return sid;
  }

  const idleUntil = async () => new Date(Date.now() + (await lifetimes()).idleSeconds * 1000);

  /** A new session; `tx`: inside the caller's transaction (with its `auth.login` entry). */
  async function createSession(user: UserRow, ctx: RequestCtx, tx?: Db): Promise<IssuedTokens> {
    const refresh = randomToken();
    const idleExpiresAt = await idleUntil();
    const absoluteExpiresAt = new Date(Date.now() + (await lifetimes()).absoluteSeconds * 1000);
    const s = await repo.insert(
      {
        userId: user.id,
        refreshHash: sha256(refresh),
        ip: ctx.ip,
        userAgent: ctx.userAgent?.slice(0, 500) ?? null,
        idleExpiresAt,
        absoluteExpiresAt,
      },
      tx,
    );
    return { ...(await issueAccess(s.id)), refresh, sessionId: s.id };
  }

  return {
    issueAccess,
    parseAccess,
    /** A short-lived proof that step one (password) passed, for the second step. */
    issuePending(userId: number): string {
      const exp = Math.floor(Date.now() / 1000) + 300;
      return `${userId}.${exp}.${hmac(config.secret, `2fa.${userId}.${exp}`)}`;
    },
    parsePending(token: string | undefined): number | null {
      const [id, expS, sig] = (token ?? '').split('.');
      if (!id || !expS || !sig || !/^\d+$/.test(id) || !/^\d+$/.test(expS)) return null;
      if (!safeEqual(sig, hmac(config.secret, `2fa.${id}.${expS}`))) return null;
      if (Number(expS) * 1000 <= Date.now()) return null;
      return Number(id);
    },
    createSession,

    /** Step one. Returns tokens when no second factor is needed. */
    async login(email: string, password: string, ctx: RequestCtx): Promise<{ user: UserRow; tokens?: IssuedTokens }> {
      // Per account + address, never per account or per address alone: see signin-guard.ts.
      const account = email.trim().toLowerCase();
      await guard.check('password', account, ctx, { meta: { email: email.slice(0, 254) } });
      const user = await repo.findUserByEmail(email);
      const ok = await verifyPassword(user?.isActive ? user.passwordHash : null, password);
      if (!user || !ok) {
        await guard.fail('password', account, ctx.ip);
        await audit.record(
          { userId: user?.id ?? null, ip: ctx.ip, userAgent: ctx.userAgent },
          { action: 'auth.login_failed', entity: 'user', entityId: user?.id ?? null, meta: { email: email.slice(0, 254) } },
        );
        throw unauthorized(API_MSG.invalidCredentials);
      }
      if (!ipAllowed(user.allowedIps, ctx.ip)) {
        await audit.record(
          { userId: user.id, ip: ctx.ip, userAgent: ctx.userAgent },
          { action: 'auth.ip_denied', entity: 'user', entityId: user.id },
        );
        throw forbidden(IP_DENIED);
      }
      await guard.succeed('password', account, ctx.ip);
      if (user.is2faEnabled) return { user };
      // The session and its entry commit together: no session without `auth.login` in the log.
      const tokens = await repo.transaction(async (tx) => {
        const t = await createSession(user, ctx, tx);
        await audit.record(
          { userId: user.id, ip: ctx.ip, userAgent: ctx.userAgent },
          { action: 'auth.login', entity: 'user', entityId: user.id, meta: { session: t.sessionId } },
          tx,
        );
        return t;
      });
      return { user, tokens };
    },

    async refresh(refreshToken: string | undefined, ctx: RequestCtx): Promise<IssuedTokens> {
      if (!refreshToken || refreshToken.length > 200) throw unauthorized();
      const h = sha256(refreshToken);
      const current = await repo.findByRefresh(h);
      if (current) {
        const live = await repo.findLive(current.id);
        if (!live?.user.isActive) throw unauthorized();
        if (!ipAllowed(live.user.allowedIps, ctx.ip)) throw forbidden(IP_DENIED);
        const next = randomToken();
        if (await repo.rotate(current.id, h, sha256(next), await idleUntil())) {
          return { ...(await issueAccess(current.id)), refresh: next, sessionId: current.id };
        }
        // Lost a race with a parallel refresh of the same token: fall through to the grace rule.
      }
      const previous = await repo.findByPrevRefresh(h);
      if (!previous) throw unauthorized();
      const live = await repo.findLive(previous.id);
      const withinGrace = previous.rotatedAt && Date.now() - previous.rotatedAt.getTime() < REFRESH_GRACE_MS;
      if (live && withinGrace && live.user.isActive) {
        if (!ipAllowed(live.user.allowedIps, ctx.ip)) throw forbidden(IP_DENIED);
        return { ...(await issueAccess(previous.id)), sessionId: previous.id };
      }
      // An old refresh token came back: someone may have stolen it. End the whole chain.
      await repo.transaction(async (tx) => {
        await repo.revoke(previous.id, 'refresh_reuse', tx);
        await audit.record(
          { userId: previous.userId, ip: ctx.ip, userAgent: ctx.userAgent },
          { action: 'auth.refresh_reuse', entity: 'session', entityId: previous.id },
          tx,
        );
      });
      throw unauthorized();
    },

    async logout(sessionId: string | null, userId: number, ctx: RequestCtx): Promise<void> {
      if (!sessionId) return;
      await repo.transaction(async (tx) => {
        await repo.revoke(sessionId, 'logout', tx);
        await audit.record(
          { userId, ip: ctx.ip, userAgent: ctx.userAgent },
          { action: 'auth.logout', entity: 'session', entityId: sessionId },
          tx,
        );
      });
    },

    /** Resolves a cookie access token to the signed-in user, or null. */
    async authenticateAccess(token: string, ctx: RequestCtx): Promise<AuthContext | null> {
      const sid = parseAccess(token);
      if (!sid) return null;
      // Session, user and memberships in one round trip, and a burst of requests of one session reads
      // them once (access-cache.ts: dropped on every instance by any change of access, at most
      // ACCESS_CACHE_MS old, never past the session's expiry). The idle timeout is pushed forward
      // (touch) only when the session was last seen over a minute ago.
      let fresh = false;
      const live = await access.through(`session:${sid}`, async () => {
        const r = await repo.findLiveAccess(sid);
        if (!r?.user.isActive) return null;
        fresh = true;
        if (r.touchDue && ipAllowed(r.user.allowedIps, ctx.ip)) await repo.touch(sid, await idleUntil());
        return deepFreeze(r);
      });
      if (!live) return null;
      if (!ipAllowed(live.user.allowedIps, ctx.ip)) throw forbidden(IP_DENIED);
      return {
        user: live.user,
        sessionId: sid,
        keyId: null,
        principal: { role: live.user.role, memberships: live.memberships },
        // The rollups' state only as read now (a cached one would be old: the dashboard reads its own).
        ...(fresh ? { rollups: { generation: live.rollupGeneration ?? '0', pending: live.rollupPending } } : {}),
      };
    },

    async me(auth: AuthContext): Promise<Me> {
      const u = auth.user;
      const ms = isStaff(u.role) ? (await repo.allCompanies()).map((c) => ({ ...c, role: null })) : await repo.memberships(u.id);
      return {
        id: u.id,
        name: u.name,
        email: u.email,
        role: u.role,
        is_2fa_enabled: u.is2faEnabled,
        avatar_url: u.avatarDocId ? `/api/v1/docs/${u.avatarDocId}/content` : null,
        allowed_ips: u.allowedIps,
        companies: ms.filter((m) => m.isActive).map((m) => ({ id: m.companyId, name: m.name, role: m.role })),
        pending_activation: u.pendingActivation,
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
