/*
 * Back-pressure. Beyond capacity the API answers 503 with Retry-After at once instead of queueing
 * every request (200 concurrent clients used to get p99 ≈ 2 s and never a refusal):
 *   - the event loop: @fastify/under-pressure samples its delay (mean over a second);
 *   - the database pool: too many requests already waiting for a connection.
 * Both checks run in onRequest before authentication (which itself needs the database), so a shed
 * request costs no query. /api/v1/health and everything outside /api (the console's files) are
 * never shed.
 *
 * API keys have a per-key rate limit counted in PostgreSQL (all instances share it): 429 with
 * Retry-After once over the limit, and RateLimit-Limit/-Remaining/-Reset on every keyed answer.
 * Console sessions are not limited by it.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { ApiError, tooManyRequests } from '../lib/errors';
import type { KeyRateCounter } from '../lib/key-rate';
import { API_PREFIX } from '../lib/routes';

export const OVERLOAD_MSG = 'Сервер перегружен, повторите позже';
export const KEY_RATE_MSG = (limit: number, wait: number) =>
  `Превышен предел запросов API-ключа (${limit} в минуту). Повторите через ${wait} с`;
/** Seconds a shed client is asked to wait. */
export const OVERLOAD_RETRY_AFTER = 5;
const HEALTH_URL = `${API_PREFIX}/health`;
const SHED_LOG_EVERY_MS = 10_000;

const overloaded = () =>
  new ApiError(503, OVERLOAD_MSG, { retry_after: OVERLOAD_RETRY_AFTER }, { 'retry-after': String(OVERLOAD_RETRY_AFTER) });

function sheddable(req: FastifyRequest): boolean {
  return req.url.startsWith('/api/') && req.routeOptions.url !== HEALTH_URL;
}

/** Registers load shedding; call before the access hook so a shed request is refused before authentication. */
export async function registerLoadShedding(
  app: FastifyInstance,
  deps: { database: Database; maxEventLoopDelayMs: number; maxPoolWaiting: number },
) {
  // One warning per burst rather than one per refused request (logging is work too).
  let shed = 0;
  let lastLog = 0;
  const refuse = (req: FastifyRequest, reason: string, value: number) => {
    shed++;
    const now = Date.now();
    if (now - lastLog >= SHED_LOG_EVERY_MS) {
      req.log.warn({ reason, value, shed }, 'overloaded: requests shed with 503');
      lastLog = now;
      shed = 0;
    }
    return overloaded();
  };

  if (deps.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: deps.maxEventLoopDelayMs,
      // Called only while under pressure: throw to refuse (the shared error handler shapes the 503), return to admit.
      pressureHandler: async (req, _reply, type, value) => {
        if (sheddable(req)) throw refuse(req, type, Math.round(value ?? 0));
      },
    });
  }
  if (deps.maxPoolWaiting > 0) {
    const pool = deps.database.pool;
    app.addHook('onRequest', async (req) => {
      if (pool.waitingCount > deps.maxPoolWaiting && sheddable(req)) throw refuse(req, 'dbPoolWaiting', pool.waitingCount);
    });
  }
}

/** Registers the per-API-key rate limit; call after the access hook (it reads `req.auth.keyId`). */
export function registerKeyRateLimit(app: FastifyInstance, deps: { counter: KeyRateCounter; limit: number }) {
  const { limit } = deps;
  if (limit <= 0) return;
  app.addHook('onRequest', async (req, reply) => {
    const keyId = req.auth?.keyId;
    if (!keyId) return;
    const { n, resetSeconds } = await deps.counter.hit(keyId);
    reply.headers({
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(Math.max(0, limit - n)),
      'ratelimit-reset': String(resetSeconds),
    });
    if (n > limit) throw tooManyRequests(KEY_RATE_MSG(limit, resetSeconds), resetSeconds);
  });
}
