import { IDENTITY_MSG, type UpdateProfileRequest } from '@forpost/contract/profile';
import QRCode from 'qrcode';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit, AuditActor } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { hmac, randomToken, sha256 } from '../../lib/crypto';
import { badRequest, unauthorized } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { SecretBox } from '../../lib/secretbox';
import { iso } from '../../lib/serialize';
import { newTotpSecret, otpauthUri, verifyTotp } from '../../lib/totp';
import { type AuthContext, type AuthService, ipAllowed, type RequestCtx } from './auth.service';
import type { FailureLimiter } from './limiter';
import { createSessionsRepo, type UserRow } from './sessions.repo';
import { createSignInGuard, slowLimitsOf } from './signin-guard';
import { createUsersRepo, type NewUser } from './users.repo';

const RESET_TTL_MS = 60 * 60 * 1000;
const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const RECOVERY_CODES = 10;

const actorOf = (userId: number | null, ctx: RequestCtx): AuditActor => ({ userId, ip: ctx.ip, userAgent: ctx.userAgent });
/** A signed-in caller's address and user agent, as the anonymous steps (sign-in, reset) get them. */
const ctxOfCaller = (c: Caller): RequestCtx => ({ ip: c.actor.ip ?? '', userAgent: c.actor.userAgent ?? undefined });

/** "Chrome 156 · Linux" from a user agent, for the sessions list. */
function deviceOf(ua: string | null): string {
  if (!ua) return 'Неизвестное устройство';
  const browser = /Edg\/(\d+)/.exec(ua)
    ? `Edge ${/Edg\/(\d+)/.exec(ua)?.[1]}`
    : /Firefox\/(\d+)/.exec(ua)
      ? `Firefox ${/Firefox\/(\d+)/.exec(ua)?.[1]}`
      : /Chrom(?:e|ium)\/(\d+)/.exec(ua)
        ? `Chrome ${/Chrom(?:e|ium)\/(\d+)/.exec(ua)?.[1]}`
        : /Version\/(\d+).*Safari/.exec(ua)
          ? `Safari ${/Version\/(\d+)/.exec(ua)?.[1]}`
          : (/curl\/[\d.]+/.exec(ua)?.[0] ?? 'Браузер');
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} · ${os}` : browser;
}

export function createIdentityService(deps: {
  db: Db;
  audit: Audit;
  auth: AuthService;
  limiter: FailureLimiter;
  mailer: Mailer;
  totpBox: SecretBox;
  config: Config;
}) {
  const { db, audit, auth, limiter, mailer, totpBox, config } = deps;
  const guard = createSignInGuard({ limiter, audit, slow: () => slowLimitsOf(config) });
  const users = createUsersRepo(db);
  const sessions = createSessionsRepo(db);
  const recoveryHash = (code: string) => hmac(config.secret, `recovery.${code.replace(/[\s-]/g, '').toLowerCase()}`);

  /** `inTx` runs in the token's transaction (its audit entry): the token row and the entry commit together. */
  async function issueToken(user: { id: number }, purpose: 'reset' | 'invite', inTx?: (tx: Db) => Promise<void>) {
    const token = randomToken(32); // 256 bits
    await db.transaction(async (tx) => {
      // A newer token kills every older one.
      await users.issuePasswordToken(
        {
          userId: user.id,
          tokenHash: sha256(token),
          purpose,
          expiresAt: new Date(Date.now() + (purpose === 'reset' ? RESET_TTL_MS : INVITE_TTL_MS)),
        },
        tx,
      );
      await inTx?.(tx);
    });
    return token;
  }

  const link = (token: string) => `${config.publicUrl}/newpassword?token=${encodeURIComponent(token)}`;

  return {
    /** Step two: a TOTP code (once) or a recovery code (once). */
    async secondStep(pending: string | undefined, body: { code?: string; recovery_code?: string }, ctx: RequestCtx) {
      const userId = auth.parsePending(pending);
      if (!userId) throw unauthorized(IDENTITY_MSG.stepExpired);
      // Per user + address (never per address alone), and a correct code from an address that has
      // not been failing always gets in: see signin-guard.ts.
      const account = String(userId);
      await guard.check('2fa', account, ctx, { userId, meta: { second_factor: body.code ? 'totp' : 'recovery' } });
      const user = await users.find(userId);
      if (!user?.isActive || !user.is2faEnabled || !user.totpSecret) throw unauthorized(IDENTITY_MSG.stepExpired);
      if (!ipAllowed(user.allowedIps, ctx.ip)) throw unauthorized(IDENTITY_MSG.stepExpired);
      const sealed = user.totpSecret;
      const secondFactor = body.code ? 'totp' : 'recovery';
      // The code is spent, the session made and both entries written in one transaction: a failure
      // leaves the code unspent and no session, and nothing of it without its entry in the log.
      const tokens = await db.transaction(async (tx) => {
        let ok = false;
        if (body.code) {
          const step = verifyTotp(totpBox.open(sealed), body.code, user.totpLastStep);
          if (step !== null) {
            // Compare-and-set: a code accepted once cannot be replayed, even by a racing request.
            ok = await users.spendTotpStep(user.id, step, tx);
          }
        } else if (body.recovery_code) {
          ok = await users.spendRecoveryCode(user.id, recoveryHash(body.recovery_code), tx);
          if (ok)
            await audit.record(
              actorOf(user.id, ctx),
              { action: 'auth.recovery_code_used', entity: 'user', entityId: user.id },
              tx,
            );
        }
        if (!ok) return null;
        const t = await auth.createSession(user, ctx, tx);
        await audit.record(
          actorOf(user.id, ctx),
          {
            action: 'auth.login',
            entity: 'user',
            entityId: user.id,
            meta: { session: t.sessionId, second_factor: secondFactor },
          },
          tx,
        );
        return t;
      });
      if (!tokens) {
        // A refusal: nothing changed (the transaction above wrote nothing), the attempt is recorded on its own.
        await guard.fail('2fa', account, ctx.ip);
        await audit.record(actorOf(user.id, ctx), { action: 'auth.2fa_failed', entity: 'user', entityId: user.id });
        throw badRequest(body.code ? IDENTITY_MSG.badCode : IDENTITY_MSG.badRecovery, {
          [body.code ? 'code' : 'recovery_code']: body.code ? IDENTITY_MSG.badCode : IDENTITY_MSG.badRecovery,
        });
      }
      await guard.succeed('2fa', account, ctx.ip);
      return tokens;
    },

    async setup2fa(c: Caller) {
      const user = c.auth.user;
      if (user.is2faEnabled) throw badRequest(IDENTITY_MSG.already2fa);
      const secret = newTotpSecret();
      await users.update(user.id, { totpSecret: totpBox.seal(secret), totpLastStep: null });
      const uri = otpauthUri(secret, user.email);
      return { secret, otpauth_uri: uri, qr_data_url: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
    },

    async enable2fa(c: Caller, code: string) {
      const user = c.auth.user;
      const ctx = ctxOfCaller(c);
      if (user.is2faEnabled) throw badRequest(IDENTITY_MSG.already2fa);
      if (!user.totpSecret) throw badRequest(IDENTITY_MSG.noSetup);
      await limiter.check([['2fa_user', String(user.id)]]);
      const step = verifyTotp(totpBox.open(user.totpSecret), code, null);
      if (step === null) {
        await limiter.fail([['2fa_user', String(user.id)]]);
        await audit.record(actorOf(user.id, ctx), {
          action: 'auth.2fa_failed',
          entity: 'user',
          entityId: user.id,
          meta: { during: 'enable' },
        });
        throw badRequest(IDENTITY_MSG.badCode, { code: IDENTITY_MSG.badCode });
      }
      const codes = Array.from({ length: RECOVERY_CODES }, () => {
        const raw = randomToken(8).replace(/[-_]/g, 'x').toLowerCase().slice(0, 10);
        return `${raw.slice(0, 5)}-${raw.slice(5, 10)}`;
      });
      await db.transaction(async (tx) => {
        await users.update(user.id, { is2faEnabled: true, totpLastStep: step }, tx);
        await users.replaceRecoveryCodes(user.id, codes.map(recoveryHash), tx);
        await audit.record(actorOf(user.id, ctx), { action: 'user.2fa_enabled', entity: 'user', entityId: user.id }, tx);
      });
      return { recovery_codes: codes };
    },

    async disable2fa(c: Caller, body: { code?: string; password?: string }) {
      const user = c.auth.user;
      const ctx = ctxOfCaller(c);
      if (!user.is2faEnabled || !user.totpSecret) return;
      await limiter.check([['2fa_user', String(user.id)]]);
      let ok = false;
      if (body.code) ok = verifyTotp(totpBox.open(user.totpSecret), body.code, user.totpLastStep) !== null;
      else if (body.password) ok = await verifyPassword(user.passwordHash, body.password);
      if (!ok) {
        await limiter.fail([['2fa_user', String(user.id)]]);
        await audit.record(actorOf(user.id, ctx), {
          action: 'auth.2fa_failed',
          entity: 'user',
          entityId: user.id,
          meta: { during: 'disable' },
        });
        const msg = body.code ? IDENTITY_MSG.badCode : IDENTITY_MSG.wrongPassword;
        throw badRequest(msg, { [body.code ? 'code' : 'password']: msg });
      }
      await db.transaction(async (tx) => {
        await users.update(user.id, { is2faEnabled: false, totpSecret: null, totpLastStep: null }, tx);
        await users.replaceRecoveryCodes(user.id, [], tx);
        await audit.record(actorOf(user.id, ctx), { action: 'user.2fa_disabled', entity: 'user', entityId: user.id }, tx);
      });
    },

    /**
     * Always the same answer, in the same time: the lookup and mailing happen after the response.
     * Returns the background work so tests can await it.
     */
    requestReset(email: string, ctx: RequestCtx): Promise<void> {
      return new Promise<void>((resolve) => {
        setImmediate(async () => {
          try {
            const subjects: [string, string][] = [
              ['reset_email', email.toLowerCase()],
              ['reset_ip', ctx.ip],
            ];
            if (await limiter.isLocked(subjects)) return;
            await limiter.fail(subjects); // every request counts towards the limit
            const user = await users.findByEmail(email);
            if (!user?.isActive) return;
            // The token and its entry commit together; the letter goes after the commit.
            const token = await issueToken(user, 'reset', (tx) =>
              audit.record(actorOf(user.id, ctx), { action: 'auth.reset_requested', entity: 'user', entityId: user.id }, tx),
            );
            await mailer.send({
              to: user.email,
              subject: 'Форпост: смена пароля',
              text: `Здравствуйте, ${user.name}!\n\nЧтобы задать новый пароль, откройте ссылку (действует 1 час):\n${link(token)}\n\nЕсли вы не запрашивали смену пароля, просто проигнорируйте это письмо.\n\n— Форпост`,
              html: `<p>Здравствуйте, ${escapeHtml(user.name)}!</p><p>Чтобы задать новый пароль, откройте ссылку (действует 1 час):</p><p><a href="${escapeHtml(link(token))}">Задать новый пароль</a></p><p>Если вы не запрашивали смену пароля, просто проигнорируйте это письмо.</p><p>— Форпост</p>`,
            });
          } catch {
            // Swallowed on purpose: the caller already got the neutral answer. A token whose letter failed keeps
            // its entry (it was issued); a failed token or entry leaves neither.
          } finally {
            resolve();
          }
        });
      });
    },

    async invite(user: { id: number; email: string; name: string }) {
      const token = await issueToken(user, 'invite');
      await mailer.send({
        to: user.email,
        subject: 'Форпост: приглашение',
        text: `Здравствуйте, ${user.name}!\n\nДля вас создана учётная запись в консоли «Форпост». Задайте пароль по ссылке (действует 7 дней):\n${link(token)}\n\n— Форпост`,
        html: `<p>Здравствуйте, ${escapeHtml(user.name)}!</p><p>Для вас создана учётная запись в консоли «Форпост». Задайте пароль по ссылке (действует 7 дней):</p><p><a href="${escapeHtml(link(token))}">Задать пароль</a></p><p>— Форпост</p>`,
      });
    },

    /** Sets the password from a reset/invite token; ends every session of the user. Never signs in (2FA stays). */
    async setPassword(token: string, password: string, ctx: RequestCtx) {
      await limiter.check([['setpassword_ip', ctx.ip]]);
      const hash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const tokenUser = await users.spendPasswordToken(sha256(token), tx);
        if (tokenUser === undefined) return null;
        await users.update(tokenUser, { passwordHash: hash, passwordChangedAt: new Date() }, tx);
        await sessions.revokeAllForUser(tokenUser, 'password_set', null, tx);
        await audit.record(
          actorOf(tokenUser, ctx),
          { action: 'user.password_set', entity: 'user', entityId: tokenUser, meta: { via: 'token' } },
          tx,
        );
        return tokenUser;
      });
      if (!userId) {
        await limiter.fail([['setpassword_ip', ctx.ip]]);
        throw badRequest(IDENTITY_MSG.tokenInvalid, { token: IDENTITY_MSG.tokenInvalid });
      }
    },

    async updateProfile(c: Caller, body: UpdateProfileRequest, avatarOk: (docId: number) => Promise<boolean>) {
      const a = c.auth;
      const ctx = ctxOfCaller(c);
      const user = a.user;
      const set: Partial<NewUser> = {};
      const changes: string[] = [];
      if (body.name !== undefined) set.name = body.name.trim();
      if (body.avatar_image_key !== undefined) {
        if (body.avatar_image_key !== null && !(await avatarOk(body.avatar_image_key))) {
          throw badRequest('Аватар не найден', { avatar_image_key: 'Аватар не найден' });
        }
        set.avatarDocId = body.avatar_image_key;
      }
      if (body.password) {
        if (!(await verifyPassword(user.passwordHash, body.current_password ?? ''))) {
          await audit.record(actorOf(user.id, ctx), { action: 'user.password_change_failed', entity: 'user', entityId: user.id });
          throw badRequest(IDENTITY_MSG.wrongPassword, { current_password: IDENTITY_MSG.wrongPassword });
        }
        set.passwordHash = await hashPassword(body.password);
        set.passwordChangedAt = new Date();
        changes.push('password');
      }
      if (body.allowed_ips !== undefined) {
        if (!ipAllowed(body.allowed_ips, ctx.ip)) {
          throw badRequest(IDENTITY_MSG.ipSelfLockout(ctx.ip), { allowed_ips: IDENTITY_MSG.ipSelfLockout(ctx.ip) });
        }
        set.allowedIps = body.allowed_ips;
        changes.push('allowed_ips');
      }
      await db.transaction(async (tx) => {
        await users.update(user.id, set, tx);
        if (changes.includes('password')) {
          await sessions.revokeAllForUser(user.id, 'password_changed', a.sessionId, tx);
          await audit.record(actorOf(user.id, ctx), { action: 'user.password_changed', entity: 'user', entityId: user.id }, tx);
        }
        if (changes.includes('allowed_ips')) {
          await audit.record(
            actorOf(user.id, ctx),
            {
              action: 'user.allowed_ips_changed',
              entity: 'user',
              entityId: user.id,
              before: user.allowedIps,
              after: body.allowed_ips,
            },
            tx,
          );
        }
        if (body.name !== undefined || body.avatar_image_key !== undefined) {
          await audit.record(
            actorOf(user.id, ctx),
            {
              action: 'user.profile_updated',
              entity: 'user',
              entityId: user.id,
              before: { name: user.name, avatar: user.avatarDocId },
              after: { name: set.name ?? user.name, avatar: set.avatarDocId ?? user.avatarDocId },
            },
            tx,
          );
        }
      });
      return (await users.find(user.id)) as UserRow;
    },

    async listSessions(c: Caller) {
      const a = c.auth;
      const rows = await sessions.liveOfUser(a.user.id);
      return {
        items: rows.map((s) => ({
          id: s.id,
          ip: s.ip,
          user_agent: s.userAgent,
          device: deviceOf(s.userAgent),
          created_at: iso(s.createdAt),
          last_seen_at: iso(s.lastSeenAt),
          current: s.id === a.sessionId,
        })),
      };
    },

    async endSession(c: Caller, id: string) {
      const a = c.auth;
      const ctx = ctxOfCaller(c);
      return db.transaction(async (tx) => {
        const ended = await sessions.revokeOwn(id, a.user.id, 'ended_by_user', tx);
        if (ended) await audit.record(actorOf(a.user.id, ctx), { action: 'session.end', entity: 'session', entityId: id }, tx);
        return ended;
      });
    },

    async endOtherSessions(c: Caller) {
      const a = c.auth;
      const ctx = ctxOfCaller(c);
      return db.transaction(async (tx) => {
        const count = await sessions.revokeAllForUser(a.user.id, 'ended_by_user', a.sessionId, tx);
        await audit.record(
          actorOf(a.user.id, ctx),
          { action: 'session.end_others', entity: 'user', entityId: a.user.id, meta: { count } },
          tx,
        );
        return count;
      });
    },
  };
}
export type IdentityService = ReturnType<typeof createIdentityService>;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
