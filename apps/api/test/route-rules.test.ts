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
let staff: Client; // ANALYST: settings.manage
let user: Client; // COMPANY_USER: no settings.manage
let anon: Client;

beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="ru"><body><div id="root"></div></body></html>');
  writeFileSync(path.join(dist, 'routes.json'), JSON.stringify(['/', '/login', '/$section', '/$section/$id', '/audit', '/$']));
  ctx = await setupApp({ CONSOLE_DIST: dist });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  const A = await createCompany(ctx, 'Альфа');
  await createUser(ctx, { email: 'staff@forpost.test', role: 'ANALYST' });
  await createUser(ctx, { email: 'user@forpost.test', role: 'COMPANY_USER', companies: [{ id: A.id, role: 'COMPANY_ANALYST' }] });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  staff = new Client(ctx);
  await staff.login('staff@forpost.test', ADMIN.password);
  user = new Client(ctx);
  await user.login('user@forpost.test', ADMIN.password);
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
    expect(fields(await post({ path: '/x', target: '//evil.example' })).target).toBe(ROUTE_RULE_MSG.target);
    expect(fields(await post({ path: '/x', target: 'ftp://example.com' })).target).toBe(ROUTE_RULE_MSG.target);
    expect(fields(await post({ path: '/x', target: '/x/' })).target).toBe(ROUTE_RULE_MSG.loop);
    expect(fields(await post({ path: '/x' })).target).toBe(MSG.required);
    const ok = (await post({ path: '/y', target: '/audit' })).json();
    expect(fields(await staff.patch(`/settings/route-rules/${ok.id}`, { target: '/y' })).target).toBe(ROUTE_RULE_MSG.loop);
    expect(fields(await staff.patch(`/settings/route-rules/${ok.id}`, { path: '/audit' })).path).toBe(ROUTE_RULE_MSG.pathIsRoute);
    await staff.del(`/settings/route-rules/${ok.id}`);
  });

  it('permission: settings.manage only; no session — 401', async () => {
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
