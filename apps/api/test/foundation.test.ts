import { API_MSG } from '@forpost/contract/errors';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions } from '../src/db/schema/index';
import { registerErrorHandling } from '../src/plugins/errors';
import { ADMIN, Client, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, password: ADMIN.password, role: 'SUPER_ADMIN' });
});

const expectErrorShape = (body: string, code: number) => {
  const j = JSON.parse(body);
  expect(j).toMatchObject({ statusCode: code, statusMessage: expect.any(String), message: expect.any(String) });
  expect(j.message).toMatch(/[а-яё]/i);
  expect(body).not.toMatch(/at .*\.ts:\d+|SELECT|stack/i);
  return j;
};

describe('system endpoints', () => {
  it('health answers 200 ok when the database is reachable', async () => {
    const r = await new Client(ctx).get('/health');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('version.json is never cached', async () => {
    const r = await new Client(ctx).get(`/version.json?timestamp=${Date.now()}`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toHaveProperty('version');
    expect(r.headers['cache-control']).toContain('no-store');
  });

  it('OpenAPI 3.1 lists every route with an operationId', async () => {
    const r = await new Client(ctx).get('/openapi.json');
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) =>
      Object.values(p),
    );
    expect(ops.length).toBeGreaterThan(4);
    for (const op of ops) expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(doc.paths['/api/v1/auth/login'].post.operationId).toBe('authLogin');
  });

  it('apidocs/{id} returns one area, 404 for an unknown one, 401 signed out', async () => {
    const c = new Client(ctx);
    expect((await c.get('/apidocs/auth')).statusCode).toBe(401);
    await c.login(ADMIN.email, ADMIN.password);
    const r = await c.get('/apidocs/auth');
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json().paths)).toContain('/api/v1/auth/login');
    expect(Object.keys(r.json().paths)).not.toContain('/api/v1/health');
    expectErrorShape((await c.get('/apidocs/nosuch')).body, 404);
  });

  it('unknown API paths answer 404 in the error shape and never fall back to the console', async () => {
    const r = await new Client(ctx).get('/api/v1/no/such/path');
    expect(r.statusCode).toBe(404);
    expect(expectErrorShape(r.body, 404).message).toBe(API_MSG.routeNotFound);
  });

  it('sends security headers', async () => {
    const r = await new Client(ctx).get('/health');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers['x-frame-options']).toBe('DENY');
    // Computed once (plugins/security-headers.ts), set on every answer: a refusal and a 404 too.
    for (const other of [await new Client(ctx).get('/no/such/path'), await new Client(ctx).get('/auth/me')]) {
      expect(other.statusCode).toBeGreaterThanOrEqual(400);
      expect(other.headers['content-security-policy']).toBe(r.headers['content-security-policy']);
      expect(other.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('bad input never gives a 5xx', () => {
  const raw = (payload: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('malformed JSON → 400', async () => {
    const r = await raw('{"email": ');
    expect(r.statusCode).toBe(400);
    expect(expectErrorShape(r.body, 400).message).toBe(API_MSG.badJson);
  });
  it('__proto__ key → 400', async () => {
    const r = await raw('{"email":"a@b.ru","password":"x","__proto__":{"admin":true}}');
    expect(r.statusCode).toBe(400);
    expectErrorShape(r.body, 400);
  });
  it('constructor.prototype key → 400', async () => {
    const r = await raw('{"email":"a@b.ru","password":"x","constructor":{"prototype":{"a":1}}}');
    expect(r.statusCode).toBe(400);
  });
  it('wrong types → 400 with Russian field messages', async () => {
    const r = await raw(JSON.stringify({ email: 5, password: ['x'] }));
    expect(r.statusCode).toBe(400);
    const j = expectErrorShape(r.body, 400);
    expect(Object.keys(j.data.fields)).toEqual(expect.arrayContaining(['email', 'password']));
  });
  it('missing field → Обязательное поле', async () => {
    const r = await raw(JSON.stringify({ email: 'a@b.ru' }));
    expect(r.statusCode).toBe(400);
    expect(r.json().data.fields.password).toBe('Обязательное поле');
  });
  it('unknown fields → 400', async () => {
    const r = await raw(JSON.stringify({ email: 'a@b.ru', password: 'x', role: 'SUPER_ADMIN' }));
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json().data.fields)).toMatch(/role/);
  });
  it('oversized body → 413 before parsing', async () => {
    const r = await raw(JSON.stringify({ email: 'a@b.ru', password: 'x'.repeat(2 * 1024 * 1024) }));
    expect(r.statusCode).toBe(413);
    expect(expectErrorShape(r.body, 413).message).toBe(API_MSG.tooLarge);
  });
  it('wrong content type → 415', async () => {
    const r = await raw('email=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.statusCode).toBe(415);
    expectErrorShape(r.body, 415);
  });
  it('an unhandled error is a Russian 500 without stack or SQL', async () => {
    const bare = Fastify({ logger: false });
    registerErrorHandling(bare);
    bare.get('/boom', async () => {
      throw new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
    });
    const r = await bare.inject('/boom');
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Ошибка, попробуйте позже' });
    expect(r.body).not.toContain('secret_table');
  });
});

describe('sign-in and sessions', () => {
  it('wrong password and unknown email give the same Russian 401 and an audit row', async () => {
    const c = new Client(ctx);
    const a = await c.post('/auth/login', { email: ADMIN.email, password: 'wrong-password' });
    const b = await c.post('/auth/login', { email: 'nobody@forpost.test', password: 'wrong-password' });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json().message).toBe(API_MSG.invalidCredentials);
    expect(b.json()).toEqual(a.json());
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login_failed'));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(rows)).not.toContain('wrong-password');
  });

  it('login sets HttpOnly SameSite=Strict cookies; /me returns the profile', async () => {
    const c = new Client(ctx);
    expect((await c.get('/me')).statusCode).toBe(401);
    const r = await c.login(ADMIN.email.toUpperCase(), ADMIN.password);
    expect(r.json()).toEqual({ '2fa_success': true });
    const setCookie = ([] as string[]).concat(r.headers['set-cookie'] as string[]);
    expect(setCookie.join('\n')).toMatch(/fp_access=.*HttpOnly/);
    expect(setCookie.join('\n')).toMatch(/SameSite=Strict/);
    const me = await c.get('/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: ADMIN.email,
      role: 'SUPER_ADMIN',
      is_2fa_enabled: false,
      pending_activation: false,
    });
    expect(me.json()).not.toHaveProperty('password_hash');
  });

  it('state-changing cookie requests need a matching Origin', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const r = await c.post('/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe(API_MSG.originMismatch);
  });

  it('an expired access token is refreshed; refresh rotates the token', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const firstRefresh = c.cookies.get('fp_refresh');
    c.cookies.delete('fp_access'); // as the browser does when the access cookie expires
    expect((await c.get('/me')).statusCode).toBe(401);
    const r = await c.post('/auth/refresh');
    expect(r.statusCode).toBe(200);
    expect(c.cookies.get('fp_refresh')).not.toBe(firstRefresh);
    expect((await c.get('/me')).statusCode).toBe(200);
  });

  it('a forged or expired access token is refused', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const token = c.cookies.get('fp_access') as string;
    const [sid, exp, sig] = token.split('.');
    c.cookies.set('fp_access', `${sid}.${Number(exp) + 3600}.${sig}`);
    expect((await c.get('/me')).statusCode).toBe(401);
    c.cookies.set('fp_access', `${sid}.${Math.floor(Date.now() / 1000) - 10}.${sig}`);
    expect((await c.get('/me')).statusCode).toBe(401);
  });

  it('two refreshes racing with one token both succeed (grace)', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const token = c.cookies.get('fp_refresh') as string;
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        headers: { cookie: `fp_refresh=${token}`, origin: 'http://localhost:8080' },
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  });

  it('reusing an old refresh token after the grace revokes the session and is audited', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const old = c.cookies.get('fp_refresh') as string;
    expect((await c.post('/auth/refresh')).statusCode).toBe(200);
    // Age the rotation past the grace window.
    await ctx.database.db.update(sessions).set({ rotatedAt: new Date(Date.now() - 60_000) });
    const thief = new Client(ctx);
    thief.cookies.set('fp_refresh', old);
    expect((await thief.post('/auth/refresh')).statusCode).toBe(401);
    // The legitimate holder's session is gone too.
    expect((await c.post('/auth/refresh')).statusCode).toBe(401);
    expect((await c.get('/me')).statusCode).toBe(401);
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.refresh_reuse'));
    expect(rows.length).toBe(1);
  });

  it('logout ends the session', async () => {
    const c = new Client(ctx);
    await c.login(ADMIN.email, ADMIN.password);
    const access = c.cookies.get('fp_access') as string;
    const r = await c.post('/auth/logout');
    expect(r.statusCode).toBe(204);
    expect(c.cookies.has('fp_access')).toBe(false);
    c.cookies.set('fp_access', access);
    expect((await c.get('/me')).statusCode).toBe(401);
  });

  it('a deactivated user is signed out at once', async () => {
    const u = await createUser(ctx, { email: 'gone@forpost.test', role: 'ANALYST' });
    const c = new Client(ctx);
    await c.login('gone@forpost.test', ADMIN.password);
    expect((await c.get('/me')).statusCode).toBe(200);
    const { users } = await import('../src/db/schema/index');
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expect((await c.get('/me')).statusCode).toBe(401);
  });
});
