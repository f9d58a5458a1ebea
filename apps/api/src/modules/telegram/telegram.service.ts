import {
  type createTelegramAccountRequest,
  type createTelegramChannelRequest,
  TELEGRAM_MSG,
  type TelegramAccount,
  type TelegramChannel,
  type telegramAccountListQuery,
  type telegramChannelListQuery,
  telegramLink,
  type updateTelegramAccountRequest,
  type updateTelegramChannelRequest,
} from '@forpost/contract/telegram';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { ApiError, badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors';
import { createSecretBox, type SecretBox } from '../../lib/secretbox';
import { iso, isUniqueViolation } from '../../lib/serialize';
import type { CompaniesRepo } from '../companies/index';
import { classifyTelegramError, type MtprotoClient, type MtprotoFactory, mtprotoLogin, nodeMtprotoFactory } from './mtproto';
import { type AccountRow, type ChannelRow, createTelegramRepo, type TelegramRepo } from './telegram.repo';

type CreateAccount = z.infer<typeof createTelegramAccountRequest>;
type UpdateAccount = z.infer<typeof updateTelegramAccountRequest>;
type CreateChannel = z.infer<typeof createTelegramChannelRequest>;
type UpdateChannel = z.infer<typeof updateTelegramChannelRequest>;

const TELEGRAM_SECRET_PURPOSE = 'telegram-collector';

/** '29.11.2026 05:22 UTC': a time in a Russian message. */
const ruTime = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
};

function accountState(r: AccountRow, now = new Date()): TelegramAccount['state'] {
  if (r.status === 'banned') return 'banned';
  if (r.floodWaitUntil && r.floodWaitUntil > now) return 'flood_wait';
  if (r.status === 'paused') return 'paused';
  return r.sessionEnc === null ? 'needs_login' : 'active';
}

function toAccount(r: AccountRow): TelegramAccount {
  return {
    id: r.id,
    name: r.name,
    phone: r.phone,
    status: r.status,
    comment: r.comment,
    has_api_id: r.apiIdEnc !== null,
    has_api_hash: r.apiHashEnc !== null,
    has_session: r.sessionEnc !== null,
    state: accountState(r),
    flood_wait_until: r.floodWaitUntil && r.floodWaitUntil > new Date() ? iso(r.floodWaitUntil) : null,
    last_activity_at: iso(r.lastActivityAt),
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

function toChannel(r: ChannelRow): TelegramChannel {
  return {
    id: r.id,
    username: r.username,
    link: telegramLink(r.username),
    title: r.title,
    company: { id: r.companyId, name: r.companyName },
    keywords: r.keywords,
    is_active: r.isActive,
    last_message_at: iso(r.lastMessageAt),
    messages_count: r.messagesCount,
    messages_today: r.messagesToday,
    collector: r.sourceState
      ? {
          state: r.sourceState,
          error: r.sourceError,
          collected_at: iso(r.sourceCollectedAt),
          account: r.sourceAccountId !== null ? { id: r.sourceAccountId, name: r.sourceAccountName ?? '' } : null,
        }
      : null,
    collect_mode: r.sourceMode ?? 'preview',
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

/** What the audit log may hold about an account: never the credentials themselves. */
const auditedAccount = (a: TelegramAccount) => ({
  name: a.name,
  phone: a.phone,
  status: a.status,
  comment: a.comment,
  has_api_id: a.has_api_id,
  has_api_hash: a.has_api_hash,
  has_session: a.has_session,
});

export interface TelegramServiceDeps {
  companies: CompaniesRepo;
  db: Db;
  audit: Audit;
  /** SECRET: the collector credentials are sealed with a key derived from it. */
  secret: string;
  repo?: TelegramRepo;
  /** Moves a channel's collected messages to its new company and re-matches them (filtrator). */
  rematchChannel?: (channelId: number, tx: Db) => Promise<number>;
  /** Makes MTProto clients (the operator's transport: production or test DCs; tests: mtcute's stub). */
  mtproto?: MtprotoFactory;
  now?: () => Date;
}

/** Sign-in attempts per account per window (codes, passwords): brute force of a 5-digit code is refused. */
const LOGIN_ATTEMPTS = 10;
const LOGIN_WINDOW_MS = 10 * 60_000;
/** A started sign-in (code sent) lives this long in this API process; then «Войти» again. */
const LOGIN_TTL_MS = 10 * 60_000;

interface PendingLogin {
  client: MtprotoClient;
  phoneCodeHash: string;
  step: 'code' | 'password';
  expires: number;
}

/** Telegram sources (staff only: telegram.read / telegram.manage). */
export function createTelegramService(deps: TelegramServiceDeps) {
  const { db, audit } = deps;
  const repo = deps.repo ?? createTelegramRepo(db);
  const companyRepo = deps.companies;
  const box: SecretBox = createSecretBox(deps.secret, TELEGRAM_SECRET_PURPOSE);
  const seal = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : box.seal(v));
  const mtproto = deps.mtproto ?? nodeMtprotoFactory({ testMode: process.env.TELEGRAM_TEST_DC === '1' });
  const now = deps.now ?? (() => new Date());
  const pending = new Map<number, PendingLogin>();
  const attempts = new Map<number, number[]>();

  function countAttempt(id: number) {
    const t = now().getTime();
    const recent = (attempts.get(id) ?? []).filter((x) => t - x < LOGIN_WINDOW_MS);
    if (recent.length >= LOGIN_ATTEMPTS) throw tooManyRequests(TELEGRAM_MSG.tooManyAttempts, LOGIN_WINDOW_MS / 1000);
    recent.push(t);
    attempts.set(id, recent);
  }
  async function dropPending(id: number) {
    const p = pending.get(id);
    pending.delete(id);
    await p?.client.destroy().catch(() => undefined);
  }
  const auditLogin = (caller: Caller, id: number, step: string, outcome: string, tx: Db = db) =>
    audit.record(
      caller.actor,
      { action: 'telegram_account.login', entity: 'telegram_account', entityId: id, meta: { step, outcome } },
      tx,
    );

  /**
   * Telegram's error → the account's state and a Russian refusal. Never the code, password, session or
   * api_hash: only the error's name goes into the audit entry.
   */
  async function loginFailed(caller: Caller, id: number, step: string, e: unknown): Promise<never> {
    const k = classifyTelegramError(e);
    if (!k) throw e;
    if (k.kind === 'flood_wait') {
      const until = new Date(now().getTime() + k.seconds * 1000);
      await db.transaction(async (tx) => {
        await repo.updateAccount(id, { floodWaitUntil: until }, tx);
        await auditLogin(caller, id, step, `FLOOD_WAIT_${k.seconds}`, tx);
      });
      await dropPending(id);
      throw tooManyRequests(TELEGRAM_MSG.floodWait(ruTime(until)), k.seconds);
    }
    if (k.kind === 'banned') {
      await db.transaction(async (tx) => {
        await repo.updateAccount(id, { status: 'banned', sessionEnc: null }, tx);
        await auditLogin(caller, id, step, 'banned', tx);
      });
      await dropPending(id);
      throw badRequest(TELEGRAM_MSG.banned);
    }
    await auditLogin(caller, id, step, k.kind === 'other' ? k.text : k.kind);
    if (k.kind === 'code_invalid') throw badRequest(TELEGRAM_MSG.codeInvalid, { code: TELEGRAM_MSG.codeInvalid });
    if (k.kind === 'password_invalid') throw badRequest(TELEGRAM_MSG.passwordInvalid, { password: TELEGRAM_MSG.passwordInvalid });
    await dropPending(id);
    if (k.kind === 'code_expired') throw badRequest(TELEGRAM_MSG.codeExpired, { code: TELEGRAM_MSG.codeExpired });
    if (k.kind === 'phone_invalid') throw badRequest(TELEGRAM_MSG.phoneInvalid);
    if (k.kind === 'api_id_invalid') throw badRequest(TELEGRAM_MSG.apiIdInvalid);
    throw new ApiError(502, TELEGRAM_MSG.telegramError);
  }
  async function loginDone(caller: Caller, id: number, step: string, client: MtprotoClient) {
    const session = await client.exportSession();
    pending.delete(id);
    await client.destroy().catch(() => undefined);
    return db.transaction(async (tx) => {
      const row = await repo.updateAccount(
        id,
        { sessionEnc: box.seal(session), floodWaitUntil: null, lastActivityAt: now() },
        tx,
      );
      if (!row) throw notFound(TELEGRAM_MSG.accountNotFound);
      await auditLogin(caller, id, step, 'signed_in', tx);
      return { step: 'done' as const, password_hint: null, account: toAccount(row) };
    });
  }
  function pendingOf(id: number, step: PendingLogin['step']) {
    const p = pending.get(id);
    if (!p || p.step !== step || p.expires < now().getTime()) throw badRequest(TELEGRAM_MSG.loginNotStarted);
    return p;
  }

  async function account(id: number) {
    const r = await repo.findAccount(id);
    if (!r) throw notFound(TELEGRAM_MSG.accountNotFound);
    return r;
  }
  async function channel(id: number, tx: Db = db) {
    const r = await repo.findChannel(id, tx);
    if (!r) throw notFound(TELEGRAM_MSG.channelNotFound);
    return r;
  }
  async function companyMustExist(id: number, tx: Db) {
    if (!(await companyRepo.exists(id, tx)))
      throw badRequest(TELEGRAM_MSG.companyNotFound, { company_id: TELEGRAM_MSG.companyNotFound });
  }
  const phoneTaken = () => conflict(TELEGRAM_MSG.phoneTaken, { phone: TELEGRAM_MSG.phoneTaken });
  const channelTaken = () => conflict(TELEGRAM_MSG.channelTaken, { link: TELEGRAM_MSG.channelTaken });

  return {
    /* Accounts */
    async listAccounts(q: z.infer<typeof telegramAccountListQuery>) {
      const { rows, total } = await repo.listAccounts(q);
      return { items: rows.map(toAccount), total, page: q.page, page_size: q.page_size };
    },
    async getAccount(id: number) {
      return toAccount(await account(id));
    },
    async createAccount({ actor }: Caller, body: CreateAccount) {
      try {
        return await db.transaction(async (tx) => {
          const r = toAccount(
            await repo.insertAccount(
              {
                name: body.name,
                phone: body.phone,
                status: body.status,
                comment: body.comment || null,
                apiIdEnc: seal(body.api_id) ?? null,
                apiHashEnc: seal(body.api_hash) ?? null,
                sessionEnc: seal(body.session) ?? null,
                createdBy: actor.userId ?? null,
              },
              tx,
            ),
          );
          await audit.record(
            actor,
            { action: 'telegram_account.create', entity: 'telegram_account', entityId: r.id, after: auditedAccount(r) },
            tx,
          );
          return r;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw phoneTaken();
        throw e;
      }
    },
    async updateAccount({ actor }: Caller, id: number, body: UpdateAccount) {
      const before = toAccount(await account(id));
      try {
        return await db.transaction(async (tx) => {
          const row = await repo.updateAccount(
            id,
            {
              ...(body.name !== undefined && { name: body.name }),
              ...(body.phone !== undefined && { phone: body.phone }),
              ...(body.status !== undefined && { status: body.status }),
              ...(body.comment !== undefined && { comment: body.comment || null }),
              ...(body.last_activity_at !== undefined && {
                lastActivityAt: body.last_activity_at ? new Date(body.last_activity_at) : null,
              }),
              ...(body.api_id !== undefined && { apiIdEnc: seal(body.api_id) }),
              ...(body.api_hash !== undefined && { apiHashEnc: seal(body.api_hash) }),
              ...(body.session !== undefined && { sessionEnc: seal(body.session) }),
            },
            tx,
          );
          if (!row) throw notFound(TELEGRAM_MSG.accountNotFound);
          const after = toAccount(row);
          await audit.record(
            actor,
            {
              action: 'telegram_account.update',
              entity: 'telegram_account',
              entityId: id,
              before: auditedAccount(before),
              after: auditedAccount(after),
            },
            tx,
          );
          return after;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw phoneTaken();
        throw e;
      }
    },
    async removeAccount({ actor }: Caller, id: number) {
      const before = toAccount(await account(id));
      await db.transaction(async (tx) => {
        if (!(await repo.deleteAccount(id, tx))) throw notFound(TELEGRAM_MSG.accountNotFound);
        await audit.record(
          actor,
          { action: 'telegram_account.delete', entity: 'telegram_account', entityId: id, before: auditedAccount(before) },
          tx,
        );
      });
    },
    /* Sign-in («Войти»): send code → code → cloud password (2FA) → session sealed. */
    async loginStart(caller: Caller, id: number) {
      const r = await account(id);
      const st = accountState(r, now());
      if (st === 'flood_wait' && r.floodWaitUntil) throw tooManyRequests(TELEGRAM_MSG.floodWait(ruTime(r.floodWaitUntil)));
      if (r.apiIdEnc === null || r.apiHashEnc === null) throw badRequest(TELEGRAM_MSG.loginNoCredentials);
      countAttempt(id);
      await dropPending(id);
      const client = mtproto({ apiId: Number(box.open(r.apiIdEnc)), apiHash: box.open(r.apiHashEnc), phone: r.phone });
      try {
        const sent = await mtprotoLogin.sendCode(client, r.phone);
        if (sent.done) return await loginDone(caller, id, 'start', client);
        pending.set(id, { client, phoneCodeHash: sent.phoneCodeHash, step: 'code', expires: now().getTime() + LOGIN_TTL_MS });
      } catch (e) {
        await client.destroy().catch(() => undefined);
        return loginFailed(caller, id, 'start', e);
      }
      await auditLogin(caller, id, 'start', 'code_sent');
      return { step: 'code' as const, password_hint: null, account: toAccount(r) };
    },
    async loginCode(caller: Caller, id: number, code: string) {
      const r = await account(id);
      const p = pendingOf(id, 'code');
      countAttempt(id);
      try {
        await mtprotoLogin.signIn(p.client, { phone: r.phone, phoneCodeHash: p.phoneCodeHash, phoneCode: code });
      } catch (e) {
        if (classifyTelegramError(e)?.kind === 'password_needed') {
          p.step = 'password';
          const hint = await mtprotoLogin.passwordHint(p.client).catch(() => null);
          await auditLogin(caller, id, 'code', 'password_needed');
          return { step: 'password' as const, password_hint: hint, account: toAccount(r) };
        }
        return loginFailed(caller, id, 'code', e);
      }
      return loginDone(caller, id, 'code', p.client);
    },
    async loginPassword(caller: Caller, id: number, password: string) {
      await account(id);
      const p = pendingOf(id, 'password');
      countAttempt(id);
      try {
        await mtprotoLogin.checkPassword(p.client, password);
      } catch (e) {
        return loginFailed(caller, id, 'password', e);
      }
      return loginDone(caller, id, 'password', p.client);
    },

    /** The decrypted credentials, for the collector process only (never sent over the API). */
    async credentials(id: number) {
      const r = await account(id);
      const open = (v: string | null) => (v === null ? null : box.open(v));
      return { phone: r.phone, api_id: open(r.apiIdEnc), api_hash: open(r.apiHashEnc), session: open(r.sessionEnc) };
    },

    /* Channels */
    async listChannels(q: z.infer<typeof telegramChannelListQuery>) {
      const { rows, total } = await repo.listChannels(q);
      return { items: rows.map(toChannel), total, page: q.page, page_size: q.page_size };
    },
    async getChannel(id: number) {
      return toChannel(await channel(id));
    },
    async createChannel({ actor }: Caller, body: CreateChannel) {
      try {
        return await db.transaction(async (tx) => {
          await companyMustExist(body.company_id, tx);
          const id = await repo.insertChannel(
            {
              username: body.link,
              title: body.title || null,
              companyId: body.company_id,
              keywords: body.keywords,
              isActive: body.is_active,
              createdBy: actor.userId ?? null,
            },
            tx,
          );
          if (body.collect_mode) await repo.setSourceMode(body.link, body.collect_mode, tx);
          await audit.record(
            actor,
            {
              action: 'telegram_channel.create',
              entity: 'telegram_channel',
              entityId: id,
              companyId: body.company_id,
              after: {
                username: body.link,
                title: body.title ?? null,
                keywords: body.keywords,
                is_active: body.is_active,
                collect_mode: body.collect_mode ?? null,
              },
            },
            tx,
          );
          return toChannel(await channel(id, tx));
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw channelTaken();
        throw e;
      }
    },
    async updateChannel({ actor }: Caller, id: number, body: UpdateChannel) {
      const before = await channel(id);
      try {
        return await db.transaction(async (tx) => {
          if (body.company_id !== undefined && body.company_id !== before.companyId) await companyMustExist(body.company_id, tx);
          const ok = await repo.updateChannel(
            id,
            {
              ...(body.link !== undefined && { username: body.link }),
              ...(body.title !== undefined && { title: body.title || null }),
              ...(body.company_id !== undefined && { companyId: body.company_id }),
              ...(body.keywords !== undefined && { keywords: body.keywords }),
              ...(body.is_active !== undefined && { isActive: body.is_active }),
            },
            tx,
          );
          if (!ok) throw notFound(TELEGRAM_MSG.channelNotFound);
          if (body.collect_mode) await repo.setSourceMode(body.link ?? before.username, body.collect_mode, tx);
          // The collected messages follow the subscription to its new company and get that company's
          // rules; those the new company's keywords do not match are not kept (rematchChannel).
          const moved =
            body.company_id !== undefined && body.company_id !== before.companyId && deps.rematchChannel
              ? await deps.rematchChannel(id, tx)
              : 0;
          await audit.record(
            actor,
            {
              action: 'telegram_channel.update',
              entity: 'telegram_channel',
              entityId: id,
              companyId: body.company_id ?? before.companyId,
              before: {
                username: before.username,
                title: before.title,
                company_id: before.companyId,
                keywords: before.keywords,
                is_active: before.isActive,
                collect_mode: before.sourceMode ?? 'preview',
              },
              after: body,
              meta: moved ? { messages_moved: moved } : undefined,
            },
            tx,
          );
          return toChannel(await channel(id, tx));
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw channelTaken();
        throw e;
      }
    },
    /** Deletes the channel together with the messages collected from it. */
    async removeChannel({ actor }: Caller, id: number) {
      const before = await channel(id);
      await db.transaction(async (tx) => {
        if (!(await repo.deleteChannel(id, tx))) throw notFound(TELEGRAM_MSG.channelNotFound);
        await audit.record(
          actor,
          {
            action: 'telegram_channel.delete',
            entity: 'telegram_channel',
            entityId: id,
            companyId: before.companyId,
            before: { username: before.username, title: before.title, keywords: before.keywords },
            meta: { messages_deleted: before.messagesCount },
          },
          tx,
        );
      });
    },
  };
}
export type TelegramService = ReturnType<typeof createTelegramService>;
