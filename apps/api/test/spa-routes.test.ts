/**
 * Issue 16: the server knows the console's route table (dist/routes.json, written by the console
 * build) and answers 404 — still with the console, which shows «Page Not Found: {path}» — for a path
 * that is no route; routes, the module sections and parameters are 200.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePattern } from '../src/plugins/spa';
import { setupApp, type TestContext } from './helpers';

const dist = mkdtempSync(path.join(tmpdir(), 'forpost-spa-routes-'));
// As the console build writes it (a subset of the real table).
const ROUTES = [
  '/',
  '/login',
  '/$section',
  '/$',
  '/audit',
  '/$section/$id',
  '/$section/import',
  '/users/{-$id}/edit',
  '/settings/tags',
  '/$section/',
];

let ctx: TestContext;
beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="ru"><body><div id="root"></div></body></html>');
  writeFileSync(path.join(dist, 'routes.json'), JSON.stringify(ROUTES));
  ctx = await setupApp({ CONSOLE_DIST: dist });
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('unknown console paths', () => {
  it('routes, module sections and their parameters are the console with 200', async () => {
    for (const url of [
      '/',
      '/login?redirect=%2Faudit',
      '/audit',
      '/audit/',
      '/domains',
      '/domains/42',
      '/brands/import',
      '/users/edit',
      '/users/7/edit',
      '/settings/tags',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toContain('text/html');
    }
  });

  it('any other path is the console too, with 404', async () => {
    for (const url of ['/nope', '/domainz', '/domains/42/extra', '/settings', '/settings/nope', '/audit/1']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type'], url).toContain('text/html');
      expect(r.body, url).toContain('<div id="root">');
    }
  });

  it('the splat route is the console’s «not found» page, never a route', () => {
    expect(routePattern('/$')).toBeNull();
    expect(routePattern('/$section/$id')?.test('/domains/5')).toBe(true);
    expect(routePattern('/$section/$id')?.test('/unknown/5')).toBe(false);
  });
});
