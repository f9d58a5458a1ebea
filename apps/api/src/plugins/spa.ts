import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './errors';

export function readBuildVersion(dist: string): string {
  try {
    const v = JSON.parse(readFileSync(path.join(dist, 'version.json'), 'utf8')) as { version?: unknown };
    return typeof v.version === 'string' ? v.version : 'dev';
  } catch {
    return 'dev';
  }
}

/** Serves the built console with history fallback; /api/* never falls back. */
export async function registerSpa(app: FastifyInstance, dist: string) {
  app.get('/version.json', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store, max-age=0');
    return { version: readBuildVersion(dist) };
  });

  const hasDist = existsSync(path.join(dist, 'index.html'));
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

  app.setNotFoundHandler((req, reply) => {
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
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendNotFound(reply);
  });
}
