/*
 * Issue #16: route rules — redirects from paths that are no console route. Admin CRUD (settings.manage,
 * audited), Russian validation (path '/…', no console route, target '/…' or http(s), no loop), the
 * public lookup, and the SPA fallback: 302/301 for a rule, 404 for a path that is neither.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MSG } from '@forpost/contract/messages';
import { ROUTE_RULE_MSG } from '@forpost/contract/route-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

const dist = mkdtempSync(path.join(tmpdir(), 'forpost-route-rules-'));
let ctx: TestContext;
let admin: Client;
let staff: Client; // ADMIN: route_rules.manage
let analyst: Client; // ANALYST: settings.manage, but no route_rules.manage (issue #28)
let user: Client; // COMPANY_USER: no settings.manage
let anon: Client;

beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="ru"><body><div id="root"></div></body></html>');
  writeFileSync(path.join(dist, 'routes.json'), JSON.stringify(['/', '/login', '/$section', '/$section/$id', '/audit', '/$']));
  ctx = await setupApp({ CONSOLE_DIST: dist });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  const A = await createCompany(ctx, 'Альфа');
  await createUser(ctx, { email: 'staff@forpost.test', role: 'ADMIN' });
  await createUser(ctx, { email: 'analyst@forpost.test', role: 'ANALYST' });
  await createUser(ctx, { email: 'user@forpost.test', role: 'COMPANY_USER', companies: [{ id: A.id, role: 'COMPANY_ANALYST' }] });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  staff = new Client(ctx);
  await staff.login('staff@forpost.test', ADMIN.password);
  user = new Client(ctx);
  await user.login('user@forpost.test', ADMIN.password);
  analyst = new Client(ctx);
  await analyst.login('analyst@forpost.test', ADMIN.password);
  anon = new Client(ctx);
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const fields = (r: { json(): { data?: { fields?: Record<string, string> } } }) => r.json().data?.fields ?? {};

describe('route rules: CRUD', () => {
  it('create normalises the path, lists, edits, deletes; each change is audited', async () => {
    const c = await staff.post('/settings/route-rules', { path: ' /old-reports/ ', target: '/reports', comment: 'старый адрес' });
    expect(c.statusCode).toBe(201);
    expect(c.json()).toMatchObject({
      path: '/old-reports',
      target: '/reports',
      external: false,
      permanent: false,
      comment: 'старый адрес',
    });
    const id = c.json().id as number;
    expect((await staff.post('/settings/route-rules', { path: '/old-reports', target: '/audit' })).json().message).toBe(
      ROUTE_RULE_MSG.duplicate,
    );
    const list = (await staff.get('/settings/route-rules?q=old')).json();
    expect(list.items.map((x: { path: string }) => x.path)).toEqual(['/old-reports']);
    const p = await staff.patch(`/settings/route-rules/${id}`, { target: 'https://example.com/x', permanent: true });
    expect(p.json()).toMatchObject({ target: 'https://example.com/x', external: true, permanent: true });
    expect((await staff.get(`/settings/route-rules/${id}`)).json().permanent).toBe(true);
    expect((await staff.del(`/settings/route-rules/${id}`)).statusCode).toBe(204);
    expect((await staff.get(`/settings/route-rules/${id}`)).statusCode).toBe(404);
    expect((await staff.del(`/settings/route-rules/${id}`)).json().message).toBe(ROUTE_RULE_MSG.notFound);
    const audit = (await admin.get('/audit?action=route_rule.&page_size=10')).json();
    expect(audit.items.map((x: { action: string }) => x.action).sort()).toEqual([
      'route_rule.create',
      'route_rule.delete',
      'route_rule.update',
    ]);
  });

  it('validation: Russian messages per field', async () => {
    const post = (body: Record<string, unknown>) => staff.post('/settings/route-rules', body);
    expect(fields(await post({ path: 'old', target: '/' })).path).toBe(ROUTE_RULE_MSG.pathStart);
    expect(fields(await post({ path: '//evil.example', target: '/' })).path).toBe(ROUTE_RULE_MSG.pathStart);
    expect(fields(await post({ path: '/a?b=1', target: '/' })).path).toBe(ROUTE_RULE_MSG.pathQuery);
    expect(fields(await post({ path: '/domains', target: '/' })).path).toBe(ROUTE_RULE_MSG.pathIsRoute);
    expect(fields(await post({ path: '/audit/', target: '/' })).path).toBe(ROUTE_RULE_MSG.pathIsRoute);
    expect(fields(await post({ path: '/x', target: 'javascript:alert(1)' })).target).toBe(ROUTE_RULE_MSG.target);
    expect(fields(await post({ path: '/x', target: '//evil.example' })).target).toBe(ROUTE_RULE_MSG.internal);
    expect(fields(await post({ path: '/x', target: 'ftp://example.com' })).target).toBe(ROUTE_RULE_MSG.target);
    expect(fields(await post({ path: '/x', target: '/x/' })).target).toBe(ROUTE_RULE_MSG.loop);
    expect(fields(await post({ path: '/x' })).target).toBe(MSG.required);
    const ok = (await post({ path: '/y', target: '/audit' })).json();
    expect(fields(await staff.patch(`/settings/route-rules/${ok.id}`, { target: '/y' })).target).toBe(ROUTE_RULE_MSG.loop);
    expect(fields(await staff.patch(`/settings/route-rules/${ok.id}`, { path: '/audit' })).path).toBe(ROUTE_RULE_MSG.pathIsRoute);
    await staff.del(`/settings/route-rules/${ok.id}`);
  });

  it('permission: route_rules.manage (administrators) only; no session — 401', async () => {
    // Issue #28: a staff analyst created a 301 to an outside site; redirects are the administrators' now.
    expect(
      (await analyst.post('/settings/route-rules', { path: '/sso', target: 'https://evil.example/phish', permanent: true }))
        .statusCode,
    ).toBe(403);
    expect((await analyst.get('/settings/route-rules')).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/sso' })).statusCode).toBe(404);
    expect((await user.get('/settings/route-rules')).statusCode).toBe(403);
    expect((await user.post('/settings/route-rules', { path: '/z', target: '/' })).statusCode).toBe(403);
    expect((await anon.get('/settings/route-rules')).statusCode).toBe(401);
  });
});

describe('route rules: lookup and the SPA fallback', () => {
  beforeAll(async () => {
    await staff.post('/settings/route-rules', { path: '/old', target: '/audit?x=1' });
    await staff.post('/settings/route-rules', { path: '/gone', target: 'https://example.com/new', permanent: true });
  });

  it('the lookup answers the redirect for a rule, null otherwise; public', async () => {
    expect((await anon.get('/route-rules/lookup?path=%2Fold%2F')).json()).toEqual({
      redirect: { to: '/audit?x=1', external: false, permanent: false },
    });
    expect((await user.get('/route-rules/lookup?path=%2Fgone%3Fa%3D1')).json()).toEqual({
      redirect: { to: 'https://example.com/new', external: true, permanent: true },
    });
    expect((await anon.get('/route-rules/lookup?path=%2Fnope')).json()).toEqual({ redirect: null });
    expect((await anon.get('/route-rules/lookup?path=nope')).json()).toEqual({ redirect: null });
  });

  it('the server redirects a rule’s path (302, 301 when permanent) and answers 404 for neither route nor rule', async () => {
    const r = await ctx.app.inject({ method: 'GET', url: '/old' });
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe('/audit?x=1');
    const g = await ctx.app.inject({ method: 'GET', url: '/gone/?utm=1' });
    expect(g.statusCode).toBe(301);
    expect(g.headers.location).toBe('https://example.com/new');
    const n = await ctx.app.inject({ method: 'GET', url: '/nope' });
    expect(n.statusCode).toBe(404);
    expect(n.body).toContain('<div id="root">');
    expect((await ctx.app.inject({ method: 'GET', url: '/audit' })).statusCode).toBe(200);
  });
});

describe('route rules: targets validated and normalised at save time (issue #28)', () => {
  const redirectOf = async (url: string) => {
    const r = await ctx.app.inject({ method: 'GET', url });
    return { status: r.statusCode, location: r.headers.location as string | undefined, body: r.body };
  };

  it('Cyrillic, spaces and U+3000 are stored encoded as the URL standard does, and redirect to exactly that', async () => {
    const cases: [string, string][] = [
      ['https://пример.рф/страница', 'https://xn--e1afmkfd.xn--p1ai/%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0'],
      ['/страница-консоли', '/%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0-%D0%BA%D0%BE%D0%BD%D1%81%D0%BE%D0%BB%D0%B8'],
      ['/audit?q=a b#c d', '/audit?q=a%20b#c%20d'],
      ['/a\u3000b', '/a%E3%80%80b'],
      ['https://example.com/a b', 'https://example.com/a%20b'],
    ];
    for (const [i, [target, stored]] of cases.entries()) {
      const c = await staff.post('/settings/route-rules', { path: `/enc-${i}`, target });
      expect(c.statusCode, c.body).toBe(201);
      expect(c.json().target).toBe(stored);
      const r = await redirectOf(`/enc-${i}`);
      expect(r.status).toBe(302);
      expect(r.location).toBe(stored);
      expect((await anon.get(`/route-rules/lookup?path=%2Fenc-${i}`)).json().redirect.to).toBe(stored);
    }
  });

  it('control characters are refused with a Russian message; nothing reaches the Location header', async () => {
    for (const target of ['/x\ny', '/\r\nSet-Cookie: a=b', '/a\vb', 'https://example.com/\u0085', '/\u2028x']) {
      const r = await staff.post('/settings/route-rules', { path: '/ctl', target });
      expect(r.statusCode, JSON.stringify(target)).toBe(400);
      expect(fields(r).target).toBe(ROUTE_RULE_MSG.control);
    }
    const p = await staff.post('/settings/route-rules', { path: '/ctl\nx', target: '/audit' });
    expect(fields(p).path).toBe(ROUTE_RULE_MSG.control);
  });

  it('a «console path» that leaves the site is refused: tab, backslash, «//» in the path, credentials', async () => {
    for (const target of ['/\t/evil.example', '/\\evil.example', '/a//evil.example', '/.//evil.example']) {
      const r = await staff.post('/settings/route-rules', { path: '/leave', target });
      expect(r.statusCode, JSON.stringify(target)).toBe(400);
      expect([ROUTE_RULE_MSG.control, ROUTE_RULE_MSG.internal, ROUTE_RULE_MSG.target]).toContain(fields(r).target);
    }
    const cred = await staff.post('/settings/route-rules', { path: '/leave', target: 'https://bank.ru@evil.example/' });
    expect(fields(cred).target).toBe(ROUTE_RULE_MSG.credentials);
    // A query may carry «//» (it is no host): still an internal target.
    const q = await staff.post('/settings/route-rules', { path: '/leave', target: '/audit?u=https://x.example' });
    expect(q.statusCode, q.body).toBe(201);
    expect(q.json().external).toBe(false);
  });

  it('rules stored before the fix: sent encoded, or no redirect at all — never a 500', async () => {
    const pool = ctx.database.pool;
    await pool.query(`INSERT INTO route_rules (path, target, permanent) VALUES ('/legacy-ru', '/страница', false),
      ('/legacy-tab', E'/\t/evil.example', false), ('/legacy-nl', E'https://example.com/a\nb', true)`);
    expect(await redirectOf('/legacy-ru')).toMatchObject({
      status: 302,
      location: '/%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0',
    });
    for (const url of ['/legacy-tab', '/legacy-nl']) {
      const r = await redirectOf(url);
      expect(r.status).toBe(404);
      expect(r.location).toBeUndefined();
      expect(r.body).toContain('<div id="root">');
    }
  });

  it('an external target is temporary (302) unless marked permanent', async () => {
    const c = await staff.post('/settings/route-rules', { path: '/ext-temp', target: 'https://example.org/' });
    expect(c.json()).toMatchObject({ external: true, permanent: false });
    expect((await redirectOf('/ext-temp')).status).toBe(302);
  });
});
