/*
 * Hostile input that never reaches a route's own code: text PostgreSQL can't store (one rule for
 * every body, query string and path), malformed URLs the router can't decode, and requests the HTTP
 * parser refuses (a URL or headers over Node's limit). Each answers in the API's error shape with a
 * Russian message and echoes nothing the client sent.
 */
import type { Socket } from 'node:net';
import { API_MSG, STATUS_MESSAGES } from '@forpost/contract/errors';
import { storableText, unstorableTextPath } from '@forpost/contract/validation';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, fieldName } from '../lib/errors';

const errorBody = (code: number, message: string) =>
  JSON.stringify({ statusCode: code, statusMessage: STATUS_MESSAGES[code] ?? 'Error', message });

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `clean`: the body is text gathered from outside (a collector's message), where losing the whole
     * message for one stray byte is worse — its strings are made storable (`storableText`) instead
     * of refused. Query and path are still refused.
     */
    unstorableText?: 'clean';
  }
}

/**
 * Copy of a parsed JSON value with every string made storable. Below 32 levels the value is left as
 * it is: no schema of ours nests that deep, so validation refuses it (and the guard below still runs).
 */
function cleanDeep(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return storableText(v);
  if (depth > 32) return v;
  if (Array.isArray(v)) return v.map((x) => cleanDeep(x, depth + 1));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableText(k), cleanDeep(x, depth + 1)]));
  return v;
}

/** Refuses NUL characters and unpaired surrogates anywhere in the input, before validation. */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    if (req.routeOptions.config?.unstorableText === 'clean') req.body = cleanDeep(req.body);
    for (const [part, value] of [
      ['params', req.params],
      ['query', req.query],
      ['body', req.body],
    ] as const) {
      const at = unstorableTextPath(value);
      if (at !== null) throw badRequest(API_MSG.badText, { [at ? fieldName(at.split('.')) : part]: API_MSG.badText });
    }
  });
}

/** Fastify's `frameworkErrors`: a path the router can't decode (e.g. `/api/v1/%C0%AE`). */
export function frameworkErrors(_err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  reply.code(400).type('application/json; charset=utf-8').send(errorBody(400, API_MSG.badUrl));
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route runs — a request
 * line or headers over the limit (431), a timeout (408), anything else malformed (400).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, API_MSG.urlTooLong]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, API_MSG.requestTimeout]
        : [400, API_MSG.badUrl];
  const body = errorBody(code, message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${code} ${STATUS_MESSAGES[code] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
