/*
 * Sign-in lockout that cannot be turned against the owner (docs/decisions.md, «Блокировка входа»):
 * the brute-force lock is per account + address; the slow per-account and per-address limits refuse
 * only addresses that keep failing for that account; a clean address always gets in with the right
 * password, and with the right second factor.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema/index';
import { currentStep, hotp } from '../src/lib/totp';
import { ADMIN, Client, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await setupApp();
});

let n = 0;
const newUser = () => createUser(ctx, { email: `lock${++n}@forpost.test`, role: 'ANALYST' });
const LOCKED = /Слишком много неудачных попыток/;

const wrongPassword = async (c: Client, email: string, i = 0) => {
  const r = await c.post('/auth/login', { email, password: `wrong-password-${i}` });
  expect(r.statusCode).toBe(401);
};

function expectLocked(r: Awaited<ReturnType<Client['post']>>) {
  expect(r.statusCode).toBe(429);
  expect(r.json().message).toMatch(LOCKED);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
}

/** A 6-digit code that is valid for none of the steps the server accepts now (±1). */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1, 2].map((d) => hotp(secret, currentStep() + d)));
  for (let i = 0; ; i++) {
    const code = String(123_456 + i).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

describe('brute-force lock: per account + address', () => {
  it('10 wrong passwords from X lock X for that account (429, Retry-After); the owner signs in from clean Y', async () => {
    const u = await newUser();
    const x = new Client(ctx, '10.20.0.1');
    for (let i = 0; i < 10; i++) await wrongPassword(x, u.email, i);
    expectLocked(await x.post('/auth/login', { email: u.email, password: ADMIN.password }));
    // The email's case and spaces do not make a new pair.
    expectLocked(await x.post('/auth/login', { email: ` ${u.email.toUpperCase()} `, password: ADMIN.password }));

    const y = new Client(ctx, '10.20.0.2');
    expect((await y.post('/auth/login', { email: u.email, password: ADMIN.password })).statusCode).toBe(200);
    expect((await y.get('/me')).statusCode).toBe(200);
    // The owner's success elsewhere does not lift the lock of the address that was guessing.
    expectLocked(await x.post('/auth/login', { email: u.email, password: ADMIN.password }));
  });

  it("one account's failures from X do not lock another account behind X", async () => {
    const a = await newUser();
    const b = await newUser();
    const x = new Client(ctx, '10.21.0.1');
    for (let i = 0; i < 10; i++) await wrongPassword(x, a.email, i);
    expectLocked(await x.post('/auth/login', { email: a.email, password: ADMIN.password }));
    const sameNat = new Client(ctx, '10.21.0.1');
    expect((await sameNat.post('/auth/login', { email: b.email, password: ADMIN.password })).statusCode).toBe(200);
    // Nor do failures for unknown emails from the same address.
    for (let i = 0; i < 10; i++) await wrongPassword(x, `nobody-${i}@forpost.test`, i);
    const c = await newUser();
    expect(
      (await new Client(ctx, '10.21.0.1').post('/auth/login', { email: c.email, password: ADMIN.password })).statusCode,
    ).toBe(200);
  });

  it('an address is counted by the accounts failing from it, not by their attempts', async () => {
    const x = new Client(ctx, '10.21.1.1');
    // 30 failed attempts from X, but only 4 accounts: X is not "spraying", so B's 3 typos do not refuse B.
    for (const a of [await newUser(), await newUser(), await newUser()])
      for (let i = 0; i < 9; i++) await wrongPassword(x, a.email, i);
    const b = await newUser();
    for (let i = 0; i < 3; i++) await wrongPassword(x, b.email, i);
    expect((await x.post('/auth/login', { email: b.email, password: ADMIN.password })).statusCode).toBe(200);
  });
});

describe('slow per-account limit: only the failing addresses', () => {
  it('50 failures from 10 addresses refuse those addresses; a clean address and one typo still get in', async () => {
    const u = await newUser();
    const failing = Array.from({ length: 10 }, (_, i) => new Client(ctx, `10.22.0.${i + 1}`));
    // 5 failures per address: far below the per-address lock of 10, so only the account-wide rule can refuse.
    for (const c of failing) for (let i = 0; i < 5; i++) await wrongPassword(c, u.email, i);

    for (const c of failing.slice(0, 3)) {
      expectLocked(await c.post('/auth/login', { email: u.email, password: 'wrong-password-again' }));
      expectLocked(await c.post('/auth/login', { email: u.email, password: ADMIN.password }));
    }

    const clean = new Client(ctx, '10.22.9.9');
    expect((await clean.post('/auth/login', { email: u.email, password: ADMIN.password })).statusCode).toBe(200);
    expect((await clean.get('/me')).statusCode).toBe(200);

    // The owner's single typo from another address is not a reason to refuse the right password.
    const typo = new Client(ctx, '10.22.8.8');
    await wrongPassword(typo, u.email);
    expect((await typo.post('/auth/login', { email: u.email, password: ADMIN.password })).statusCode).toBe(200);

    // The owner signing in does not reopen the account to the addresses that were guessing.
    expectLocked(await failing[0]!.post('/auth/login', { email: u.email, password: ADMIN.password }));
  });

  it('an address failing for many accounts refuses only the accounts it keeps failing for', async () => {
    const victim = await newUser();
    const bystander = await newUser();
    const s = '10.23.0.1';
    const spray = new Client(ctx, s);
    for (let i = 0; i < 3; i++) await wrongPassword(spray, victim.email, i);
    for (let i = 0; i < 20; i++) await wrongPassword(spray, `sprayed-${i}@forpost.test`, i);

    expectLocked(await spray.post('/auth/login', { email: victim.email, password: ADMIN.password }));
    // A colleague behind the same address, with no failures of their own, signs in.
    expect((await new Client(ctx, s).post('/auth/login', { email: bystander.email, password: ADMIN.password })).statusCode).toBe(
      200,
    );
    // The victim from elsewhere signs in.
    expect(
      (await new Client(ctx, '10.23.0.2').post('/auth/login', { email: victim.email, password: ADMIN.password })).statusCode,
    ).toBe(200);
  });
});

describe('second factor', () => {
  async function userWith2fa() {
    const u = await newUser();
    const c = new Client(ctx, '10.24.0.254');
    await c.login(u.email, ADMIN.password);
    const { secret } = (await c.post('/me/2fa/setup')).json();
    expect((await c.post('/me/2fa/enable', { code: hotp(secret, currentStep()) })).statusCode).toBe(200);
    return { u, secret };
  }

  it('codes guessed from many addresses do not keep the owner out: right password + right code from a clean address', async () => {
    const { u, secret } = await userWith2fa();
    // Someone who knows the password guesses codes: 10 per address locks that address…
    const x = new Client(ctx, '10.24.0.1');
    expect((await x.post('/auth/login', { email: u.email, password: ADMIN.password })).json()).toEqual({ '2fa_success': false });
    for (let i = 0; i < 10; i++) expect((await x.post('/auth/2fa', { code: wrongCode(secret) })).statusCode).toBe(400);
    expectLocked(await x.post('/auth/2fa', { code: wrongCode(secret) }));
    // …and 5 from each of 8 more addresses make the account's second step "under attack".
    const others = Array.from({ length: 8 }, (_, i) => new Client(ctx, `10.24.1.${i + 1}`));
    for (const c of others) {
      expect((await c.post('/auth/login', { email: u.email, password: ADMIN.password })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) expect((await c.post('/auth/2fa', { code: wrongCode(secret) })).statusCode).toBe(400);
    }
    // Those addresses are refused even with the right code.
    expectLocked(await others[0]!.post('/auth/2fa', { code: hotp(secret, currentStep() + 1) }));

    // The owner, from a clean address: password, then the right code → in.
    const owner = new Client(ctx, '10.24.9.9');
    expect((await owner.post('/auth/login', { email: u.email, password: ADMIN.password })).json()).toEqual({
      '2fa_success': false,
    });
    const ok = await owner.post('/auth/2fa', { code: hotp(secret, currentStep() + 1) });
    expect(ok.statusCode).toBe(200);
    expect((await owner.get('/me')).statusCode).toBe(200);

    // The second-step lock is audited with the user.
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.lockout'), eq(auditLog.actorUserId, u.id)));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.meta).toMatchObject({ step: '2fa' });
  });
});

describe('audit', () => {
  it('failures and refusals are written to the audit log with the address', async () => {
    const u = await newUser();
    const x = new Client(ctx, '10.25.0.1');
    for (let i = 0; i < 10; i++) await wrongPassword(x, u.email, i);
    expectLocked(await x.post('/auth/login', { email: u.email, password: ADMIN.password }));
    const failed = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.entityId, String(u.id))));
    expect(failed).toHaveLength(10);
    const lockouts = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.lockout'))).filter(
      (r) => (r.meta as { email?: string } | null)?.email === u.email,
    );
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ ip: '10.25.0.1', meta: { email: u.email, step: 'password', rule: 'pair' } });
    const all = JSON.stringify(await ctx.database.db.select().from(auditLog));
    expect(all).not.toContain(ADMIN.password);
    expect(all).not.toContain('wrong-password-');
  });
});
