/*
 * Issue #28 «Trust, round three», the items that live in the request path: personal answers are not
 * cached (6) and the CSRF check compares Origin with the configured origins, never with Host (7).
 * Route rules (1–3): route-rules.test.ts; assignment scope (4): assignment.test.ts.
 */
import { API_MSG } from '@forpost/contract/errors';
import { beforeAll, describe, expect, it } from 'vitest';
import { allowedOrigins } from '../src/config';
import { ADMIN, Client, createUser, ORIGIN, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await setupApp({ ALLOWED_ORIGINS: 'https://console.example.ru, http://localhost:5173' });
});

const fail = (m: string): never => {
  throw new Error(m);
};

describe('6. personal API answers are never cached', () => {
  it('every authenticated JSON answer and every API error carries Cache-Control: no-store', async () => {
    await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
    const admin = new Client(ctx);
    await admin.login(ADMIN.email, ADMIN.password);
    for (const url of ['/me', '/users', '/audit', '/notifications', '/companies', '/modules/domains/events', '/nope']) {
      const r = await admin.get(url);
      expect(r.headers['cache-control'], `${url} ${r.statusCode}`).toBe('no-store');
    }
    const anon = new Client(ctx);
    expect((await anon.get('/me')).headers['cache-control']).toBe('no-store');
    // A route with its own policy keeps it.
    expect((await anon.get('/version.json')).headers['cache-control']).toBe('no-store, max-age=0');
  });
});

describe('7. CSRF: Origin against PUBLIC_URL and ALLOWED_ORIGINS, never the Host header', () => {
  it('Origin http://evil.example with Host evil.example and a valid cookie: 403, nothing created', async () => {
    const admin = await signedIn(ctx, 'csrf@forpost.test', 'SUPER_ADMIN');
    const evil = await admin.post(
      '/companies',
      { name: 'Злая компания' },
      { origin: 'http://evil.example', host: 'evil.example' },
    );
    expect(evil.statusCode, evil.body).toBe(403);
    expect(evil.json().message).toBe(API_MSG.originMismatch);
    const sneaky = await admin.post(
      '/companies',
      { name: 'Злая компания' },
      { origin: 'http://127.0.0.1:9', host: '127.0.0.1:9' },
    );
    expect(sneaky.statusCode).toBe(403);
    const list = await admin.get('/companies?q=Злая');
    expect(list.json().total).toBe(0);
    const good = await admin.post('/companies', { name: 'Добрая компания' }, { origin: ORIGIN, host: 'evil.example' });
    expect(good.statusCode, good.body).toBe(201);
  });

  it('an origin from ALLOWED_ORIGINS is accepted', async () => {
    const admin = await signedIn(ctx, 'csrf2@forpost.test', 'SUPER_ADMIN');
    for (const origin of ['https://console.example.ru', 'http://localhost:5173']) {
      const r = await admin.post('/companies', { name: `Компания ${origin}` }, { origin });
      expect(r.statusCode, r.body).toBe(201);
    }
    expect(
      (await admin.post('/companies', { name: 'Нет' }, { origin: 'https://console.example.ru.evil.example' })).statusCode,
    ).toBe(403);
  });

  it('the allowed origins: PUBLIC_URL’s; its loopback twins only when PUBLIC_URL is not set; bad entries refused', () => {
    expect(allowedOrigins('https://forpost.example.ru/console', false, undefined, fail)).toEqual(['https://forpost.example.ru']);
    expect(allowedOrigins('http://localhost:8080', true, undefined, fail)).toEqual([
      'http://localhost:8080',
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
    ]);
    expect(allowedOrigins('http://localhost:8080', false, 'https://a.example:8443', fail)).toEqual([
      'http://localhost:8080',
      'https://a.example:8443',
    ]);
    expect(() => allowedOrigins('http://localhost:8080', false, 'ftp://a.example', fail)).toThrow(/ALLOWED_ORIGINS/);
    expect(() => allowedOrigins('http://localhost:8080', false, 'https://a.example/path', fail)).toThrow(/без пути/);
    expect(() => allowedOrigins('http://localhost:8080', false, 'not a url', fail)).toThrow(/ALLOWED_ORIGINS/);
  });
});

describe('a signed-out page asks nothing that answers 401 (issue #30.15): the session hint cookie', () => {
  it('login sets a readable fp_session=1 on /, beside the HttpOnly session cookies; logout and a failed refresh clear it', async () => {
    await createUser(ctx, { email: 'hint@forpost.test', role: 'ANALYST' });
    const c = new Client(ctx);
    const r = await c.login('hint@forpost.test', ADMIN.password);
    const set = r.cookies as { name: string; value: string; path?: string; httpOnly?: boolean; sameSite?: string }[];
    const hint = set.find((x) => x.name === 'fp_session');
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Strict' });
    expect(hint?.httpOnly).toBeFalsy();
    expect(set.find((x) => x.name === 'fp_access')?.httpOnly).toBe(true);
    const out = await c.post('/auth/logout');
    expect(out.statusCode).toBe(204);
    expect(c.cookies.has('fp_session')).toBe(false);
    const failed = await new Client(ctx).post('/auth/refresh', undefined, { cookie: 'fp_refresh=nope; fp_session=1' });
    expect(failed.statusCode).toBe(401);
    expect((failed.cookies as { name: string; value: string }[]).find((x) => x.name === 'fp_session')?.value).toBe('');
  });
});
