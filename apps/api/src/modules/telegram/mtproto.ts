/*
 * MTProto (user accounts) through mtcute (docs/decisions.md: why mtcute, figures). API and worker only —
 * never imported by the console. The client is made by a factory so the operator decides the transport
 * (Telegram's production DCs, or its test DCs with TELEGRAM_TEST_DC=1 for the manual check); the tests
 * give mtcute's own StubTelegramClient (@mtcute/test), which answers the real TL methods.
 */
import { type ITelegramClient, MemoryStorage, tl } from '@mtcute/core';
import { BaseTelegramClient } from '@mtcute/core/client.js';
import { checkPassword, sendCode, signIn } from '@mtcute/core/methods.js';
import { NodePlatform, TcpTransport } from '@mtcute/node';
import { NodeCryptoProvider } from '@mtcute/node/utils.js';

/** A client with its session loaded (or none, for a fresh sign-in), closed by the caller. */
export type MtprotoClient = ITelegramClient;
/**
 * Makes a client for one account. `phone` is the account's number (not a secret): a factory may route
 * by it — e.g. to Telegram's test DCs for test numbers, as the e2e server does with its stand-in.
 */
export type MtprotoFactory = (creds: { apiId: number; apiHash: string; phone?: string }) => MtprotoClient;

/** The production factory: TCP to Telegram's DCs (`testMode` = Telegram's test DCs, for the manual check). */
export function nodeMtprotoFactory(opts: { testMode?: boolean } = {}): MtprotoFactory {
  return ({ apiId, apiHash }) =>
    new BaseTelegramClient({
      apiId,
      apiHash,
      storage: new MemoryStorage(),
      platform: new NodePlatform(),
      crypto: new NodeCryptoProvider(),
      transport: new TcpTransport(),
      testMode: opts.testMode ?? false,
      logLevel: 0, // mtcute's own log could print request bodies: keep it silent
      disableUpdates: true,
    }) as unknown as MtprotoClient;
}

export type TelegramErrorKind =
  | { kind: 'flood_wait'; seconds: number }
  | { kind: 'password_needed' }
  | { kind: 'code_invalid' }
  | { kind: 'code_expired' }
  | { kind: 'password_invalid' }
  | { kind: 'phone_invalid' }
  | { kind: 'api_id_invalid' }
  | { kind: 'auth_revoked' }
  | { kind: 'banned' }
  | { kind: 'channel_private' }
  | { kind: 'channel_invalid' }
  | { kind: 'other'; text: string };

/** Telegram's RPC errors by their text (FLOOD_WAIT_X carries the seconds). */
export function classifyTelegramError(e: unknown): TelegramErrorKind | null {
  if (!tl.RpcError.is(e)) return null;
  const text = e.text;
  if (text === 'FLOOD_WAIT_%d' || /^(FLOOD_WAIT|FLOOD_PREMIUM_WAIT|SLOWMODE_WAIT)_/.test(text) || e.code === 420)
    return {
      kind: 'flood_wait',
      seconds: Math.max(1, (e as { seconds?: number }).seconds || Number(/_(\d+)$/.exec(text)?.[1] ?? 60)),
    };
  switch (text) {
    case 'SESSION_PASSWORD_NEEDED':
      return { kind: 'password_needed' };
    case 'PHONE_CODE_INVALID':
    case 'PHONE_CODE_EMPTY':
      return { kind: 'code_invalid' };
    case 'PHONE_CODE_EXPIRED':
      return { kind: 'code_expired' };
    case 'PASSWORD_HASH_INVALID':
      return { kind: 'password_invalid' };
    case 'PHONE_NUMBER_INVALID':
    case 'PHONE_NUMBER_UNOCCUPIED':
      return { kind: 'phone_invalid' };
    case 'API_ID_INVALID':
    case 'API_ID_PUBLISHED_FLOOD':
      return { kind: 'api_id_invalid' };
    case 'AUTH_KEY_UNREGISTERED':
    case 'SESSION_REVOKED':
    case 'SESSION_EXPIRED':
    case 'AUTH_KEY_INVALID':
      return { kind: 'auth_revoked' };
    case 'USER_DEACTIVATED':
    case 'USER_DEACTIVATED_BAN':
    case 'PHONE_NUMBER_BANNED':
      return { kind: 'banned' };
    case 'CHANNEL_PRIVATE':
    case 'CHAT_FORBIDDEN':
    case 'USER_BANNED_IN_CHANNEL':
      return { kind: 'channel_private' };
    case 'CHANNEL_INVALID':
    case 'USERNAME_INVALID':
    case 'USERNAME_NOT_OCCUPIED':
      return { kind: 'channel_invalid' };
    default:
      return { kind: 'other', text };
  }
}

/** The sign-in calls, each a real mtcute high-level method (auth.sendCode / auth.signIn / auth.checkPassword). */
export const mtprotoLogin = {
  async sendCode(client: MtprotoClient, phone: string) {
    const r = await sendCode(client, { phone });
    if (!('phoneCodeHash' in r)) return { done: true as const, phoneCodeHash: '' };
    return { done: false as const, phoneCodeHash: r.phoneCodeHash };
  },
  signIn: (client: MtprotoClient, p: { phone: string; phoneCodeHash: string; phoneCode: string }) => signIn(client, p),
  checkPassword: (client: MtprotoClient, password: string) => checkPassword(client, { password }),
  async passwordHint(client: MtprotoClient): Promise<string | null> {
    const p = await client.call({ _: 'account.getPassword' });
    return p.hint ?? null;
  },
};
