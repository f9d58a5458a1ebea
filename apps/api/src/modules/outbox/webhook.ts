/*
 * Standard Webhooks (https://www.standardwebhooks.com, ../shared/standards/standard-webhooks): the
 * secret `whsec_<base64 of 32 random bytes>`, the signature `v1,<base64 HMAC-SHA256(id.timestamp.body)>`
 * with every secret in force (the previous one during a rotation's grace period: space-separated), the
 * body `{type, timestamp, data}` and one POST through the SSRF guard that follows no redirect.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { assertAllowedAddress, guardedLookup, type OutboundPolicy } from '../../lib/outbound';

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const webhookId = (messageId: number) => `msg_${messageId}`;

export function webhookBody(m: { type: string; createdAt: Date; payload: Record<string, unknown> }): string {
  return JSON.stringify({ type: m.type, timestamp: m.createdAt.toISOString(), data: m.payload });
}

export function webhookHeaders(o: { id: string; timestamp: number; body: string; secrets: string[] }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Forpost-Webhooks/1',
    'webhook-id': o.id,
    'webhook-timestamp': String(o.timestamp),
    'webhook-signature': o.secrets.map((s) => sign(s, o.id, o.timestamp, o.body)).join(' '),
  };
}

export interface SendOutcome {
  status: number | null;
  error: string | null;
  ms: number;
  response: string | null;
  retryAfterMs: number | null;
}

const RESPONSE_KEEP = 1000;

/**
 * A POST client for webhooks: node:http(s) with keep-alive agents, every connection through the SSRF
 * guard (an address literal checked before dialling, a name only through `guardedLookup`, so the socket
 * connects to the address that was checked); no redirect is followed (3xx is the answer). Lighter than
 * the outbound fetch (no web streams): the worker sends thousands a minute.
 */
export function createWebhookPoster(policy: OutboundPolicy) {
  const lookup = guardedLookup(policy);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  /** One POST; never throws (a refused address, a timeout or a reset is an outcome). */
  return function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendOutcome> {
    const t0 = performance.now();
    const fail = (e: Error & { code?: string }): SendOutcome => ({
      status: null,
      error: ((e.message || e.code) ?? 'ошибка').slice(0, 500),
      ms: Math.round(performance.now() - t0),
      response: null,
      retryAfterMs: null,
    });
    let u: URL;
    try {
      u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`Неподдерживаемая схема адреса: ${u.protocol}`);
      const host = u.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) assertAllowedAddress(host, policy);
    } catch (e) {
      return Promise.resolve(fail(e as Error));
    }
    const lib = u.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body, 'utf8');
    return new Promise((resolve) => {
      const req = lib.request(
        u,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(payload.length) },
          agent: agents[u.protocol as 'http:' | 'https:'],
          lookup,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < RESPONSE_KEEP) chunks.push(c);
            size += c.length;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? null,
              error: null,
              ms: Math.round(performance.now() - t0),
              response: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_KEEP),
              retryAfterMs: retryAfter(res.headers['retry-after'] ?? null),
            }),
          );
          res.on('error', (e) => resolve(fail(e)));
        },
      );
      req.on('timeout', () =>
        req.destroy(Object.assign(new Error(`Нет ответа за ${Math.round(timeoutMs / 1000)} с`), { code: 'ETIMEDOUT' })),
      );
      req.on('error', (e) => resolve(fail(e)));
      req.end(payload);
    });
  };
}
export type WebhookPoster = ReturnType<typeof createWebhookPoster>;

/** Retry-After: seconds or an HTTP date → ms (null when absent or unreadable). */
function retryAfter(v: string | null): number | null {
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}
