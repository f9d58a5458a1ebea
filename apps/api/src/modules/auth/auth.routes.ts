import { type KeyIdentity, keyIdentityResponse, loginRequest, loginResponse, meResponse } from '@forpost/contract/auth';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { ACCESS_COOKIE, REFRESH_COOKIE, SESSION_HINT_COOKIE } from '../../plugins/access';
import type { AuthService, IssuedTokens } from './auth.service';

const noContent = z.null().describe('Нет содержимого');

export const PENDING_COOKIE = 'fp_2fa';

export function cookieWriter(config: Config) {
  const base = { httpOnly: true, sameSite: 'strict' as const, secure: config.cookieSecure };
  return {
    set(reply: FastifyReply, t: IssuedTokens) {
      reply.setCookie(ACCESS_COOKIE, t.access, { ...base, path: '/api', maxAge: t.accessTtl });
      if (t.refresh) {
        reply.setCookie(REFRESH_COOKIE, t.refresh, { ...base, path: '/api/v1/auth', maxAge: config.sessionAbsoluteSeconds });
        reply.setCookie(SESSION_HINT_COOKIE, '1', { ...base, httpOnly: false, path: '/', maxAge: config.sessionAbsoluteSeconds });
      }
    },
    clear(reply: FastifyReply) {
      reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/api' });
      reply.clearCookie(REFRESH_COOKIE, { ...base, path: '/api/v1/auth' });
      reply.clearCookie(SESSION_HINT_COOKIE, { ...base, httpOnly: false, path: '/' });
    },
  };
}

export async function authRoutes(
  app: App,
  deps: { auth: AuthService; config: Config; keyIdentity: (keyId: number) => Promise<KeyIdentity> },
) {
  const cookies = cookieWriter(deps.config);
  const ctxOf = (req: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  });

  app.post(
    '/auth/login',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'authLogin',
        tags: ['auth'],
        summary: 'Вход по email и паролю',
        body: loginRequest,
        response: { 200: loginResponse },
      },
    },
    async (req, reply) => {
      const r = await deps.auth.login(req.body.email, req.body.password, ctxOf(req));
      if (r.tokens) {
        cookies.set(reply, r.tokens);
        return { '2fa_success': true };
      }
      // Only a short-lived proof of step one; the session comes after the second factor.
      reply.setCookie(PENDING_COOKIE, deps.auth.issuePending(r.user.id), {
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.config.cookieSecure,
        path: '/api/v1/auth',
        maxAge: 300,
      });
      return { '2fa_success': false };
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'authRefresh',
        tags: ['auth'],
        summary: 'Обновление сессии по refresh-токену (cookie)',
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req, reply) => {
      try {
        const t = await deps.auth.refresh(req.cookies[REFRESH_COOKIE], ctxOf(req));
        cookies.set(reply, t);
        return { ok: true as const };
      } catch (e) {
        cookies.clear(reply);
        throw e;
      }
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { permission: 'public', allowPendingActivation: true },
      schema: { operationId: 'authLogout', tags: ['auth'], summary: 'Выход', response: { 204: noContent } },
    },
    async (req, reply) => {
      if (req.auth) await deps.auth.logout(req.auth.sessionId, req.auth.user.id, ctxOf(req));
      cookies.clear(reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      config: { permission: 'authenticated', allowPendingActivation: true },
      schema: {
        operationId: 'getMe',
        tags: ['profile'],
        summary: 'Профиль текущего пользователя (через API-ключ — сам ключ: имя, компания, роли, срок)',
        response: { 200: z.union([meResponse, keyIdentityResponse]) },
      },
    },
    async (req) => {
      const { auth } = callerOf(req);
      // A key is not its owner: it sees its own identity, never the owner's profile or companies.
      return auth.keyId !== null ? deps.keyIdentity(auth.keyId) : deps.auth.me(auth);
    },
  );
}
