import { meResponse, okResponse } from '@forpost/contract/auth';
import {
  IDENTITY_MSG,
  resetPasswordRequest,
  sessionResponse,
  setPasswordRequest,
  twoFactorDisableRequest,
  twoFactorEnableRequest,
  twoFactorEnableResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  updateProfileRequest,
} from '@forpost/contract/profile';
import { z } from 'zod';
import type { Config } from '../../config';
import { callerOf } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import type { App } from '../../lib/routes';
import { cookieWriter, PENDING_COOKIE } from './auth.routes';
import type { AuthService } from './auth.service';
import type { IdentityService } from './identity.service';

export async function identityRoutes(
  app: App,
  deps: {
    auth: AuthService;
    identity: IdentityService;
    config: Config;
    avatarOk: (userId: number, docId: number) => Promise<boolean>;
  },
) {
  const { identity } = deps;
  const cookies = cookieWriter(deps.config);
  const ctxOf = (req: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  });
  const authTags = ['auth'];
  const profileTags = ['profile'];

  app.post(
    '/auth/2fa',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'authSecondFactor',
        tags: authTags,
        summary: 'Второй шаг входа: код TOTP или резервный код',
        body: twoFactorRequest,
        response: { 200: z.object({ '2fa_success': z.literal(true) }) },
      },
    },
    async (req, reply) => {
      const tokens = await identity.secondStep(req.cookies[PENDING_COOKIE], req.body, ctxOf(req));
      reply.clearCookie(PENDING_COOKIE, { path: '/api/v1/auth' });
      cookies.set(reply, tokens);
      return { '2fa_success': true as const };
    },
  );

  app.post(
    '/auth/resetpassword',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'authResetPassword',
        tags: authTags,
        summary: 'Запросить письмо со ссылкой для смены пароля (ответ всегда одинаковый)',
        body: resetPasswordRequest,
        response: { 200: z.object({ ok: z.literal(true), message: z.string() }) },
      },
    },
    async (req) => {
      void identity.requestReset(req.body.email, ctxOf(req));
      return { ok: true as const, message: IDENTITY_MSG.resetSent };
    },
  );

  app.post(
    '/auth/setpassword',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'authSetPassword',
        tags: authTags,
        summary: 'Задать пароль по ссылке из письма',
        body: setPasswordRequest,
        response: { 200: okResponse },
      },
    },
    async (req) => {
      await identity.setPassword(req.body.token, req.body.password, ctxOf(req));
      return { ok: true as const };
    },
  );

  app.patch(
    '/me',
    {
      config: { permission: 'session', allowPendingActivation: true },
      schema: {
        operationId: 'updateMe',
        tags: profileTags,
        summary: 'Изменить профиль (имя, аватар, пароль, разрешённые IP)',
        body: updateProfileRequest,
        response: { 200: meResponse },
      },
    },
    async (req) => {
      const c = callerOf(req);
      const user = await identity.updateProfile(c, req.body, (docId) => deps.avatarOk(c.auth.user.id, docId));
      return deps.auth.me({ ...c.auth, user });
    },
  );

  app.post(
    '/me/2fa/setup',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'setupTwoFactor',
        tags: profileTags,
        summary: 'Начать подключение 2FA: секрет и QR-код',
        response: { 200: twoFactorSetupResponse },
      },
    },
    async (req) => identity.setup2fa(callerOf(req)),
  );
  app.post(
    '/me/2fa/enable',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'enableTwoFactor',
        tags: profileTags,
        summary: 'Включить 2FA после проверки кода; резервные коды показываются один раз',
        body: twoFactorEnableRequest,
        response: { 200: twoFactorEnableResponse },
      },
    },
    async (req) => identity.enable2fa(callerOf(req), req.body.code),
  );
  app.post(
    '/me/2fa/disable',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'disableTwoFactor',
        tags: profileTags,
        summary: 'Отключить 2FA (нужен код или пароль)',
        body: twoFactorDisableRequest,
        response: { 200: okResponse },
      },
    },
    async (req) => {
      await identity.disable2fa(callerOf(req), req.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/me/sessions',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'listMySessions',
        tags: profileTags,
        summary: 'Мои активные сессии',
        response: { 200: z.object({ items: z.array(sessionResponse) }) },
      },
    },
    async (req) => identity.listSessions(callerOf(req)),
  );
  app.delete(
    '/me/sessions/:id',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'endMySession',
        tags: profileTags,
        summary: 'Завершить сессию',
        params: z.object({ id: z.uuid('Неверный идентификатор сессии') }),
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      if (!(await identity.endSession(callerOf(req), req.params.id))) throw notFound('Сессия не найдена');
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/me/sessions',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'endMyOtherSessions',
        tags: profileTags,
        summary: 'Завершить все сессии, кроме текущей',
        response: { 200: z.object({ ended: z.number().int() }) },
      },
    },
    async (req) => ({ ended: await identity.endOtherSessions(callerOf(req)) }),
  );
}
