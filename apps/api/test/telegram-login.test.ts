/*
 * «Войти» (MTProto sign-in) through the API, against mtcute's own test harness: StubTelegramClient
 * answers the real TL methods (auth.sendCode, auth.signIn, account.getPassword, auth.checkPassword)
 * and mtcute's high-level sign-in methods run unchanged on top. No real Telegram here (docs/operations.md).
 */
import { TELEGRAM_MSG } from '@forpost/contract/telegram';
import { tl } from '@mtcute/core';
import { StubTelegramClient } from '@mtcute/test';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MtprotoClient } from '../src/modules/telegram/mtproto';
import { ADMIN, Client, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { columnsHolding } from './telegram-secrets-kit';

const PHONE = '+79991112233';
const API_HASH = 'a3f1c2e4b5d6978899aabbccddeeff00';
const CODE = '24680';
const PASSWORD = 'облачный-пароль-Secret-77';
const CODE_HASH = 'phone-code-hash-5e1f';
/** Telegram's 2048-bit SRP prime (core.telegram.org/api/srp) and g = 3. */
const SRP_P = Buffer.from(
  'c71caeb9c6b1c9048e6c522f70f13f73980d40238e3e21c14934d037563d930f48198a0aa7c14058229493d22530f4dbfa336f6e0ac925139543aed44cce7c3720fd51f69458705ac68cd4fe6b6b13abdc9746512969328454f18faf8c595f642477fe96bb2a941d5bcd1d4ac8cc49880708fa9b378e3c4f3a9060bee67cf9a4a4a695811051907e162753b56b0f6b410dba74d8a84b2a14b3144e0ef1284754fd17ed950d5965b4b9dd46582db1178d169c6bc465b0d6ff9ca3928fef5b9ae4e418fc15e83ebea0f87fa9ff5eed70050ded2849f47bf959d956850ce929851f0d8115f635b105ee2e4e15d04b2454bf6f4fadf034b10403119cd8e3b92fcc5b',
  'hex',
);

/** What «Telegram» does on the next sign-in; the test sets it per case. */
const server = {
  twoFa: false,
  wrongPasswordOnce: false,
  floodOnSendCode: 0,
  calls: [] as string[],
  sessions: [] as string[],
};
const user: tl.RawUser = {
  _: 'user',
  id: 777000,
  firstName: 'Сборщик',
  accessHash: { low: 1, high: 0, unsigned: false },
} as never;

function stubFactory(): MtprotoClient {
  const c = new StubTelegramClient();
  c.respondWith('auth.sendCode', (req) => {
    server.calls.push(`sendCode:${req.phoneNumber}`);
    if (server.floodOnSendCode) throw new tl.RpcError(420, `FLOOD_WAIT_${server.floodOnSendCode}`);
    return { _: 'auth.sentCode', type: { _: 'auth.sentCodeTypeApp', length: 5 }, phoneCodeHash: CODE_HASH, timeout: 60 };
  });
  c.respondWith('auth.signIn', (req) => {
    server.calls.push('signIn');
    if (req.phoneCodeHash !== CODE_HASH || req.phoneCode !== CODE) throw new tl.RpcError(400, 'PHONE_CODE_INVALID');
    if (server.twoFa) throw new tl.RpcError(401, 'SESSION_PASSWORD_NEEDED');
    return { _: 'auth.authorization', user };
  });
  c.respondWith('account.getPassword', () => ({
    _: 'account.password',
    hasPassword: true,
    hint: 'кот',
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

let ctx: TestContext;
let sa: Client;
const logs: string[] = [];
const ACC = '/modules/telegram/accounts';

beforeAll(async () => {
  ctx = await setupApp(
    { LOG_LEVEL: 'debug' },
    { level: 'debug', stream: { write: (line: string) => void logs.push(line) } },
    { mtproto: stubFactory },
  );
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
});

async function newAccount(phone: string) {
  const r = await sa.post(ACC, { name: `Сборщик ${phone}`, phone, api_id: '12345', api_hash: API_HASH });
  expect(r.statusCode).toBe(201);
  return r.json() as { id: number; state: string };
}

describe('«Войти»: MTProto sign-in against mtcute’s harness', () => {
  it('code → session sealed; state active; nothing secret comes back', async () => {
    server.twoFa = false;
    const acc = await newAccount(PHONE);
    expect(acc.state).toBe('needs_login');
    const s1 = await sa.post(`${ACC}/${acc.id}/login/start`, {});
    expect(s1.statusCode, s1.body).toBe(200);
    expect(s1.json().step).toBe('code');
    expect(server.calls).toContain(`sendCode:${PHONE.slice(1)}`);
    const bad = await sa.post(`${ACC}/${acc.id}/login/code`, { code: '11111' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(TELEGRAM_MSG.codeInvalid);
    const ok = await sa.post(`${ACC}/${acc.id}/login/code`, { code: CODE });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ step: 'done', account: { state: 'active', has_session: true } });
    expect(ok.body).not.toContain(CODE_HASH);
  });

  it('2FA: code → cloud password step (with hint) → wrong password → right password', async () => {
    server.twoFa = true;
    server.wrongPasswordOnce = true;
    const acc = await newAccount('+79991112244');
    expect((await sa.post(`${ACC}/${acc.id}/login/start`, {})).json().step).toBe('code');
    const c = await sa.post(`${ACC}/${acc.id}/login/code`, { code: CODE });
    expect(c.json()).toMatchObject({ step: 'password', password_hint: 'кот', account: { state: 'needs_login' } });
    const wrong = await sa.post(`${ACC}/${acc.id}/login/password`, { password: 'не тот' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TELEGRAM_MSG.passwordInvalid);
    const ok = await sa.post(`${ACC}/${acc.id}/login/password`, { password: PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ step: 'done', account: { state: 'active' } });
    expect(server.calls.filter((x) => x === 'checkPassword')).toHaveLength(2);
  });

  it('a code without a started sign-in is refused in Russian', async () => {
    const acc = await newAccount('+79991112255');
    const r = await sa.post(`${ACC}/${acc.id}/login/code`, { code: CODE });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(TELEGRAM_MSG.loginNotStarted);
  });

  it('FLOOD_WAIT_30 → account in flood-wait until ≥ 30 s later; «Войти» refused until then', async () => {
    server.floodOnSendCode = 30;
    const acc = await newAccount('+79991112266');
    const t0 = Date.now();
    const r = await sa.post(`${ACC}/${acc.id}/login/start`, {});
    server.floodOnSendCode = 0;
    expect(r.statusCode).toBe(429);
    expect(r.json().message).toMatch(/^Telegram просит подождать: вход возможен после /);
    const got = (await sa.get(`${ACC}/${acc.id}`)).json();
    expect(got.state).toBe('flood_wait');
    expect(Date.parse(got.flood_wait_until) - t0).toBeGreaterThanOrEqual(30_000);
    const again = await sa.post(`${ACC}/${acc.id}/login/start`, {});
    expect(again.statusCode).toBe(429);
  });

  it('only staff with telegram.manage may sign in', async () => {
    const acc = await newAccount('+79991112277');
    const analyst = await signedIn(ctx, 'tg-analyst@forpost.test', 'ANALYST');
    expect((await analyst.post(`${ACC}/${acc.id}/login/start`, {})).statusCode).toBe(403);
  });

  it('attempts are rate-limited per account', async () => {
    const acc = await newAccount('+79991112288');
    await sa.post(`${ACC}/${acc.id}/login/start`, {});
    let last = 0;
    for (let i = 0; i < 12; i++) last = (await sa.post(`${ACC}/${acc.id}/login/code`, { code: '99999' })).statusCode;
    expect(last).toBe(429);
  });

  it('the session, code, api_hash and password are nowhere: DB text, logs, jobs, audit', async () => {
    expect(server.sessions.length).toBeGreaterThanOrEqual(2);
    const secrets = [API_HASH, CODE, PASSWORD, CODE_HASH, ...server.sessions];
    // every text/json column of every table (sealed columns hold ciphertext only)
    const found = await columnsHolding(ctx, secrets);
    expect(found).toEqual([]);
    const audit = await ctx.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'telegram_account.login'`,
    );
    expect(audit.rows[0]?.n).toBeGreaterThan(5);
    expect(logs.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    for (const s of secrets) expect(all.includes(s), 'a secret in the logs').toBe(false);
  });
});
