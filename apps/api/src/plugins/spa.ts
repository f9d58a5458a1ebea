import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MODULE_LIST } from '@forpost/contract/modules';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './errors';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One console route path (TanStack Router syntax) as a RegExp: `$section` — an event section (a
 * module's route segment, the only values its route accepts), `$name` — any one segment,
 * `{-$name}` — an optional segment. The splat `/$` is the console's own «not found» page: no route.
 */
export function routePattern(path: string): RegExp | null {
  const segments = path.split('/').filter(Boolean);
  if (segments.includes('$')) return null;
  const sections = MODULE_LIST.map((m) => escapeRe(m.route.slice(1))).join('|');
  const re = segments
    .map((s) => {
      if (s === '$section') return `/(?:${sections})`;
      if (/^\{-\$\w+\}$/.test(s)) return '(?:/[^/]+)?';
      if (/^\$\w+$/.test(s)) return '/[^/]+';
      return `/${escapeRe(s)}`;
    })
    .join('');
  return new RegExp(`^${re}/?$`);
}

/** The console's route table (dist/routes.json, written by its build); null when the build has none. */
export function routeTable(dist: string): RegExp[] | null {
  if (!existsSync(path.join(dist, 'index.html'))) return null;
  try {
    const paths = JSON.parse(readFileSync(path.join(dist, 'routes.json'), 'utf8')) as unknown;
    if (!Array.isArray(paths)) return null;
    return paths.flatMap((p) => (typeof p === 'string' ? (routePattern(p) ?? []) : []));
  } catch {
    return null;
  }
}

/** Whether `url` (a path without the query) is a console route; true when the table is unknown. */
function isConsoleRoute(routes: RegExp[] | null, url: string): boolean {
  if (!routes) return true;
  let p: string;
  try {
    p = decodeURIComponent(url);
  } catch {
    return false;
  }
  return routes.some((r) => r.test(p));
}

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts in the console's index.html: the console's CSP
 * allows scripts from the origin and these exact inline ones, never `'unsafe-inline'`. The build writes
 * one, the sign-in page's picture before React decides whether to show (issue #30, vite.config.ts
 * `loginShell`): it must run before the first paint, where a script file would cost a round trip.
 */
export function inlineScriptHashes(dist: string): string[] {
  let html: string;
  try {
    html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs = '']) => !/\ssrc\s*=/i.test(attrs))
    .map(([, , body = '']) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

export function readBuildVersion(dist: string): string {
  try {
    const v = JSON.parse(readFileSync(path.join(dist, 'version.json'), 'utf8')) as { version?: unknown };
    return typeof v.version === 'string' ? v.version : 'dev';
  } catch {
    return 'dev';
  }
}

/** A route rule's redirect for a path that is no console route (modules/route-rules). */
export type RuleLookup = (path: string) => Promise<{ to: string; permanent: boolean } | null>;

/**
 * Serves the built console with history fallback; /api/* never falls back. A path that is no route
 * of the console is looked up in the route rules (302, or 301 for a permanent rule); without a rule
 * it still gets the console (it shows «Page Not Found: {path}»), but with status 404.
 */
export async function registerSpa(app: FastifyInstance, dist: string, lookupRule?: RuleLookup) {
  app.get('/version.json', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store, max-age=0');
    return { version: readBuildVersion(dist) };
  });

  const hasDist = existsSync(path.join(dist, 'index.html'));
  const routes = hasDist ? routeTable(dist) : null;
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      // The root URL itself is the console (without an index, GET / was a 403 "directory" response).
      index: 'index.html',
      wildcard: true,
      // The console build writes .br and .gz beside each file (vite.config.ts `precompress`): sent
      // as they are to clients that accept them, with `Vary: Accept-Encoding`.
      preCompressed: true,
      setHeaders(res, file) {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url === '/api') return sendNotFound(reply);
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(url);
    if ((req.method === 'GET' || req.method === 'HEAD') && !looksLikeFile) {
      if (!hasDist) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('Консоль не собрана: выполните npm run build (npm start делает это сам).');
      }
      reply.header('cache-control', 'no-cache');
      if (!isConsoleRoute(routes, url)) {
        const rule = lookupRule ? await lookupRule(url) : null;
        if (rule) return reply.redirect(rule.to, rule.permanent ? 301 : 302);
        reply.code(404);
      }
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendNotFound(reply);
  });
}
