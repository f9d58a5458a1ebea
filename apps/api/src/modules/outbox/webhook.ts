/*
 * Standard Webhooks (https://www.standardwebhooks.com, ../shared/standards/standard-webhooks): the
 * secret `whsec_<base64 of 32 random bytes>`, the signature `v1,<base64 HMAC-SHA256(id.timestamp.body)>`
 * with every secret in force (the previous one during a rotation's grace period: space-separated), the
 * body `{type, timestamp, data}` and one POST through the SSRF guard that follows no redirect.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { OutboundFetch } from '../../lib/outbound';

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

/** One POST; never throws (a refused address, a timeout or a reset is an outcome). */
export async function postWebhook(
  fetch: OutboundFetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendOutcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    let text = '';
    try {
      text = (await res.text()).slice(0, RESPONSE_KEEP);
    } catch {
      // the body is the receiver's business
    }
    return {
      status: res.status,
      error: null,
      ms: Math.round(performance.now() - t0),
      response: text,
      retryAfterMs: retryAfter(res.headers.get('retry-after')),
    };
  } catch (e) {
    const err = e as Error & { code?: string };
    const msg = err.name === 'TimeoutError' ? `Нет ответа за ${Math.round(timeoutMs / 1000)} с` : (err.message || err.code) ?? 'ошибка';
    return { status: null, error: msg.slice(0, 500), ms: Math.round(performance.now() - t0), response: null, retryAfterMs: null };
  }
}

/** Retry-After: seconds or an HTTP date → ms (null when absent or unreadable). */
function retryAfter(v: string | null): number | null {
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}
