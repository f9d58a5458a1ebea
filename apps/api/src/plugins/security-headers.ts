/*
 * Security headers on every answer (CSP, nosniff, frame-ancestors, referrer policy …), as helmet
 * writes them — computed once at start-up. @fastify/helmet built a new helmet middleware on every
 * request (parsing the CSP directives again) in two hooks, ≈ 2.5 % of a list request's CPU
 * (bench/README, http.bench); the headers do not depend on the request, so they are a constant.
 * A route that needs its own (the file download's sandboxing CSP) sets it in its handler, after this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { App } from '../lib/routes';

/** The headers helmet sets for `options`, in the order and spelling it sets them. */
export function securityHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const set = new Map<string, [string, string]>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name.toLowerCase(), [name, Array.isArray(value) ? value.join(', ') : String(value)]);
      return res;
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return [...set.values()];
}

/**
 * Every API answer is personal or may be (a user, a list of a company's events, an error naming an
 * object): `Cache-Control: no-store` unless its route sets its own (issue #28). The console's hashed
 * assets and pages are outside /api and keep theirs (plugins/spa.ts).
 */
export function registerSecurityHeaders(app: App, options: Readonly<HelmetOptions>) {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (req, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    if (req.url.startsWith('/api/')) raw.setHeader('cache-control', 'no-store');
    done();
  });
}
