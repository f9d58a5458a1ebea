/*
 * Every request re-checks its session in the database (one prepared statement: session, user,
 * memberships), so a revocation made on one instance holds on every other instance at the very next
 * request — no cache to invalidate, no waiting. Two app instances on one database, as scaled out.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema/index';
import { ADMIN, Client, createCompany, createUser, setupApp, setupSecondApp, type TestContext } from './helpers';

let ctx: TestContext;
let second: TestContext;
let admin: Client;
let A: { id: number };
let seq = 0;
const dash = '/modules/analytics/dashboard/common/newevents?period=7d';

beforeAll(async () => {
  ctx = await setupApp();
  second = await setupSecondApp(ctx);
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Альфа');
});

/** A user signed in on the first instance, and the same browser cookies sent to the second one. */
async function signedInTwice(role: 'ANALYST' | 'COMPANY_USER' = 'ANALYST') {
  const email = `s${++seq}@forpost.test`;
  const u = await createUser(ctx, {
    email,
    role,
    companies: role === 'COMPANY_USER' ? [{ id: A.id, role: 'COMPANY_VIEWER' }] : [],
  });
  const one = new Client(ctx);
  await one.login(email, ADMIN.password);
  const two = new Client(second);
  two.cookies = new Map(one.cookies);
  expect((await two.get('/me')).statusCode).toBe(200);
  expect((await one.get('/me')).statusCode).toBe(200);
  return { u, one, two };
}

describe('revocation on one instance holds on the other at the next request', () => {
  it('logout', async () => {
    const { one, two } = await signedInTwice();
    const cookies = new Map(one.cookies);
    expect((await one.post('/auth/logout')).statusCode).toBe(204);
    two.cookies = cookies;
    expect((await two.get('/me')).statusCode).toBe(401);
  });

  it('user deactivation, and a role change takes effect at once', async () => {
    const { u, two } = await signedInTwice();
    expect((await two.get('/users')).statusCode).toBe(403); // an analyst does not manage users
    expect((await admin.patch(`/users/${u.id}`, { role: 'ADMIN' })).statusCode).toBe(200);
    expect((await two.get('/users')).statusCode).toBe(200);
    expect((await admin.patch(`/users/${u.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await two.get('/me')).statusCode).toBe(401);
  });

  it('membership removed, company deactivated', async () => {
    const { u, two } = await signedInTwice('COMPANY_USER');
    expect((await two.get(dash)).statusCode).toBe(200);
    expect((await admin.patch(`/companies/${A.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await two.get(dash)).statusCode).toBe(403);
    expect((await admin.patch(`/companies/${A.id}`, { is_active: true })).statusCode).toBe(200);
    expect((await two.get(dash)).statusCode).toBe(200);
    expect((await admin.post(`/users/${u.id}/roles`, { role: 'COMPANY_USER', companies: [] })).statusCode).toBe(200);
    expect((await two.get(dash)).statusCode).toBe(403);
  });

  it('allowed IP list changed', async () => {
    const { u, two } = await signedInTwice();
    expect((await admin.patch(`/users/${u.id}`, { allowed_ips: ['10.0.0.0/8'] })).statusCode).toBe(200);
    expect((await two.get('/me')).statusCode).toBe(403);
  });

  it('password change ends the other sessions', async () => {
    const email = `p${++seq}@forpost.test`;
    await createUser(ctx, { email, role: 'ANALYST' });
    const laptop = new Client(ctx);
    await laptop.login(email, ADMIN.password);
    const phone = new Client(second);
    await phone.login(email, ADMIN.password);
    const next = 'Другой-Пароль-2026!x';
    const r = await laptop.patch('/me', { current_password: ADMIN.password, password: next, password_repeat: next });
    expect(r.statusCode, r.body).toBe(200);
    expect((await phone.get('/me')).statusCode).toBe(401);
  });
});

describe('idle timeout', () => {
  it('an idle session expires; activity pushes the timeout forward at most once a minute', async () => {
    const { one, two } = await signedInTwice();
    const sid = (one.cookies.get('fp_access') ?? '').split('.')[0] ?? '';
    const row = async () => (await ctx.database.db.select().from(sessions).where(eq(sessions.id, sid)))[0];
    // Seen just now: a request does not write.
    const before = await row();
    expect((await two.get('/me')).statusCode).toBe(200);
    expect((await row())?.idleExpiresAt.getTime()).toBe(before?.idleExpiresAt.getTime());
    // Last seen two minutes ago: the next request moves the idle deadline forward.
    await ctx.database.db.execute(
      sql`UPDATE sessions SET last_seen_at = now() - interval '2 minutes', idle_expires_at = now() + interval '1 minute' WHERE id = ${sid}`,
    );
    const stale = (await row())?.idleExpiresAt.getTime() ?? 0;
    expect((await two.get('/me')).statusCode).toBe(200);
    expect((await row())?.idleExpiresAt.getTime()).toBeGreaterThan(stale + 60_000);
    // Past the idle deadline: refused on both instances.
    await ctx.database.db.execute(sql`UPDATE sessions SET idle_expires_at = now() - interval '1 second' WHERE id = ${sid}`);
    expect((await two.get('/me')).statusCode).toBe(401);
    expect((await one.get('/me')).statusCode).toBe(401);
  });
});
