/*
 * «Войти» (MTProto sign-in) through the API, against mtcute's own test harness: StubTelegramClient
 * answers the real TL methods (auth.sendCode, auth.signIn, account.getPassword, auth.checkPassword)
 * and mtcute's high-level sign-in methods run unchanged on top. No real Telegram here (docs/operations.md).
 */
import { TELEGRAM_MSG } from '@forpost/contract/telegram';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { CODE_HASH, LOGIN_CODE, loginStub, loginTelegram } from './telegram-mtproto-kit';
import { columnsHolding } from './telegram-secrets-kit';

const PHONE = '+79991112233';
const API_HASH = 'a3f1c2e4b5d6978899aabbccddeeff00';
const CODE = LOGIN_CODE;
const PASSWORD = 'облачный-пароль-Secret-77';

/** What «Telegram» does on the next sign-in; the test sets it per case. */
const server = loginTelegram();
const stubFactory = () => loginStub(server);

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
