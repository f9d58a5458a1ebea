/*
 * A stand-in "Telegram" for «Войти», on mtcute's own harness: a StubTelegramClient answering the real
 * TL methods of the sign-in (auth.sendCode, auth.signIn → PHONE_CODE_INVALID for a wrong code and
 * SESSION_PASSWORD_NEEDED when the cloud password is on, account.getPassword with Telegram's SRP
 * parameters, auth.checkPassword taking mtcute's SRP answer); mtcute's high-level sign-in methods run
 * unchanged on top. Used by apps/api/test/telegram-login.test.ts and by the e2e server
 * (e2e/server-main.ts) for accounts whose phone starts with E2E_PHONE_PREFIX.
 */
import { tl } from '@mtcute/core';
import { StubTelegramClient } from '@mtcute/test';
import type { MtprotoClient } from '../src/modules/telegram/mtproto';
import { CODE_HASH, LOGIN_CODE, PASSWORD_HINT } from './telegram-login-codes';

export { CODE_HASH, E2E_PHONE_PREFIX, LOGIN_CODE, PASSWORD_HINT } from './telegram-login-codes';

/** Telegram's 2048-bit SRP prime (core.telegram.org/api/srp) and g = 3. */
const SRP_P = Buffer.from(
  'c71caeb9c6b1c9048e6c522f70f13f73980d40238e3e21c14934d037563d930f48198a0aa7c14058229493d22530f4dbfa336f6e0ac925139543aed44cce7c3720fd51f69458705ac68cd4fe6b6b13abdc9746512969328454f18faf8c595f642477fe96bb2a941d5bcd1d4ac8cc49880708fa9b378e3c4f3a9060bee67cf9a4a4a695811051907e162753b56b0f6b410dba74d8a84b2a14b3144e0ef1284754fd17ed950d5965b4b9dd46582db1178d169c6bc465b0d6ff9ca3928fef5b9ae4e418fc15e83ebea0f87fa9ff5eed70050ded2849f47bf959d956850ce929851f0d8115f635b105ee2e4e15d04b2454bf6f4fadf034b10403119cd8e3b92fcc5b',
  'hex',
);

/** What «Telegram» does on the next sign-in (a test changes it per case); what it saw. */
export interface LoginTelegram {
  twoFa: boolean;
  wrongPasswordOnce: boolean;
  floodOnSendCode: number;
  calls: string[];
  sessions: string[];
}
export const loginTelegram = (v: Partial<LoginTelegram> = {}): LoginTelegram => ({
  twoFa: false,
  wrongPasswordOnce: false,
  floodOnSendCode: 0,
  calls: [],
  sessions: [],
  ...v,
});

const user: tl.RawUser = {
  _: 'user',
  id: 777000,
  firstName: 'Сборщик',
  accessHash: { low: 1, high: 0, unsigned: false },
} as never;

/** A client whose "Telegram" is `server`. */
export function loginStub(server: LoginTelegram): MtprotoClient {
  const c = new StubTelegramClient();
  c.respondWith('auth.sendCode', (req) => {
    server.calls.push(`sendCode:${req.phoneNumber}`);
    if (server.floodOnSendCode) throw new tl.RpcError(420, `FLOOD_WAIT_${server.floodOnSendCode}`);
    return { _: 'auth.sentCode', type: { _: 'auth.sentCodeTypeApp', length: 5 }, phoneCodeHash: CODE_HASH, timeout: 60 };
  });
  c.respondWith('auth.signIn', (req) => {
    server.calls.push('signIn');
    if (req.phoneCodeHash !== CODE_HASH || req.phoneCode !== LOGIN_CODE) throw new tl.RpcError(400, 'PHONE_CODE_INVALID');
    if (server.twoFa) throw new tl.RpcError(401, 'SESSION_PASSWORD_NEEDED');
    return { _: 'auth.authorization', user };
  });
  c.respondWith('account.getPassword', () => ({
    _: 'account.password',
    hasPassword: true,
    hint: PASSWORD_HINT,
    currentAlgo: {
      _: 'passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow',
      salt1: new Uint8Array(32).fill(1),
      salt2: new Uint8Array(16).fill(2),
      g: 3,
      p: new Uint8Array(SRP_P),
    },
    srpB: new Uint8Array(256).fill(5),
    srpId: { low: 42, high: 0, unsigned: false } as never,
    newAlgo: { _: 'passwordKdfAlgoUnknown' },
    newSecureAlgo: { _: 'securePasswordKdfAlgoUnknown' },
    secureRandom: new Uint8Array(32),
  }));
  c.respondWith('auth.checkPassword', (req) => {
    server.calls.push('checkPassword');
    if (req.password._ !== 'inputCheckPasswordSRP' || req.password.M1.length !== 32) throw new Error('not SRP');
    if (server.wrongPasswordOnce) {
      server.wrongPasswordOnce = false;
      throw new tl.RpcError(400, 'PASSWORD_HASH_INVALID');
    }
    return { _: 'auth.authorization', user };
  });
  const exportSession = c.exportSession.bind(c);
  c.exportSession = async () => {
    const s = await exportSession();
    server.sessions.push(s);
    return s;
  };
  return c as unknown as MtprotoClient;
}
