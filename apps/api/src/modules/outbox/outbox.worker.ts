/*
 * The delivery worker (a poller of ROLE=all|worker): claims due deliveries in batches under a lease
 * (SKIP LOCKED), sends them per target — webhooks with bounded concurrency, syslog as one write of
 * octet-counted frames per target — and records every attempt in one statement per batch.
 *
 * Retries follow Standard Webhooks' schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
 * 20 h, 24 h; ±10 % jitter; a later Retry-After wins); after the last the delivery is failed. 2xx is
 * delivered; 410 Gone turns the endpoint off; 429 and 5xx (and a refused connection) also hold the
 * whole target back until the delivery's next attempt, so an outage costs one request per step of
 * the schedule, not one per pending delivery. Redirects are never followed (3xx is a failure).
 */
import { INTEGRATIONS_MSG } from '@forpost/contract/integrations';
import type { Logger } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import type { SecretBox } from '../../lib/secretbox';
import { cefOf, formatCef, octetFrame, syslogLine, syslogSeverity } from './cef';
import type { AttemptResult, ClaimedDelivery, OutboxRepo, TargetRow } from './outbox.repo';
import { connectSyslog } from './syslog';
import { createWebhookPoster, webhookBody, webhookHeaders, webhookId } from './webhook';

export const RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
];

export interface WorkerOptions {
  /** Delays before attempt 1, 2, … (the first is the initial send); tests shorten it. */
  scheduleMs: readonly number[];
  batch: number;
  leaseSeconds: number;
  /** Webhook requests in flight at once (all targets). */
  concurrency: number;
  timeoutMs: number;
  /** The hostname field of syslog lines. */
  hostname: string;
  version: string;
  /** A CA (PEM) syslog TLS servers are also trusted by (tests; operators use NODE_EXTRA_CA_CERTS). */
  syslogCa?: string;
}

export const DEFAULT_WORKER_OPTIONS: Omit<WorkerOptions, 'hostname' | 'version'> = {
  scheduleMs: RETRY_SCHEDULE_MS,
  batch: 1000,
  leaseSeconds: 120,
  concurrency: 32,
  timeoutMs: 15_000,
};

export interface RoundStats {
  sent: number;
  delivered: number;
  failed: number;
  retried: number;
}

const jitter = (ms: number) => Math.round(ms * (0.9 + Math.random() * 0.2));

export function createOutboxWorker(deps: {
  repo: OutboxRepo;
  box: SecretBox;
  outbound: OutboundPolicy;
  log: Pick<Logger, 'warn'>;
  options: WorkerOptions;
}) {
  const { repo, box, options } = deps;
  const post = createWebhookPoster(deps.outbound);

  /** The result of a failed attempt: the next step of the schedule, or failed after the last. */
  function failure(
    d: ClaimedDelivery,
    o: { status: number | null; error: string | null; ms: number | null; response: string | null },
    minDelay = 0,
  ): AttemptResult {
    const attempts = d.attempts + 1;
    const delay = options.scheduleMs[attempts];
    if (delay === undefined) return { id: d.id, state: 'failed', attempts, nextAt: null, ...o };
    return { id: d.id, state: 'pending', attempts, nextAt: new Date(Date.now() + Math.max(jitter(delay), minDelay)), ...o };
  }

  async function sendWebhooks(t: TargetRow, list: ClaimedDelivery[], out: AttemptResult[], released: number[]) {
    const secrets = [t.secret, t.previous_until && new Date(t.previous_until) > new Date() ? t.previous_secret : null]
      .filter((s): s is string => Boolean(s))
      .map((s) => box.open(s));
    let stop = false;
    let next = 0;
    const one = async () => {
      for (;;) {
        const d = list[next++];
        if (!d) return;
        if (stop) {
          released.push(d.id);
          continue;
        }
        const id = webhookId(d.message_id);
        const body = webhookBody({ type: d.type, createdAt: new Date(d.created_at), payload: d.payload });
        const headers = webhookHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets });
        const r = await post(t.url as string, headers, body, options.timeoutMs);
        const base = { status: r.status, error: r.error, ms: r.ms, response: r.response };
        if (r.status !== null && r.status >= 200 && r.status < 300) {
          out.push({ id: d.id, state: 'delivered', attempts: d.attempts + 1, nextAt: null, ...base });
        } else if (r.status === 410) {
          out.push({ id: d.id, state: 'failed', attempts: d.attempts + 1, nextAt: null, ...base });
          if (!stop) {
            stop = true;
            await repo.disable(t.id, INTEGRATIONS_MSG.disabled410);
          }
        } else {
          const res = failure(d, base, r.retryAfterMs ?? 0);
          out.push(res);
          // 429, 5xx and no answer at all: the whole target waits for this delivery's next attempt.
          if ((r.status === null || r.status === 429 || r.status >= 500) && !stop) {
            stop = true;
            await repo.backoff(t.id, res.nextAt ?? new Date(Date.now() + (options.scheduleMs[1] ?? 5000)));
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, list.length) }, one));
  }

  async function sendSyslog(t: TargetRow, list: ClaimedDelivery[], out: AttemptResult[]) {
    const t0 = performance.now();
    const frames = list.map((d) => {
      const cef = cefOf(
        {
          id: d.message_id,
          type: d.type,
          createdAt: new Date(d.created_at),
          priorityLevel: d.priority_level,
          payload: d.payload,
        },
        options.version,
      );
      return octetFrame(
        syslogLine({
          facility: t.facility,
          severity: syslogSeverity(cef.severity),
          at: new Date(d.created_at),
          host: options.hostname,
          msgId: d.type,
          msg: formatCef(cef),
        }),
      );
    });
    try {
      const conn = await connectSyslog(
        { host: t.host as string, port: t.port as number, tls: t.tls, ca: options.syslogCa },
        deps.outbound,
        options.timeoutMs,
      );
      try {
        await conn.write(frames);
      } finally {
        conn.close();
      }
      const ms = Math.round(performance.now() - t0);
      for (const d of list)
        out.push({
          id: d.id,
          state: 'delivered',
          attempts: d.attempts + 1,
          nextAt: null,
          status: null,
          error: null,
          ms,
          response: null,
        });
    } catch (e) {
      const error = ((e as Error).message || 'ошибка').slice(0, 500);
      const ms = Math.round(performance.now() - t0);
      let until: Date | null = null;
      for (const d of list) {
        const r = failure(d, { status: null, error, ms, response: null });
        out.push(r);
        if (r.nextAt && (!until || r.nextAt < until)) until = r.nextAt;
      }
      if (until) await repo.backoff(t.id, until);
    }
  }

  /** One round: batches until nothing is due (or `stopped()`). */
  async function round(stopped: () => boolean = () => false): Promise<RoundStats> {
    const stats: RoundStats = { sent: 0, delivered: 0, failed: 0, retried: 0 };
    while (!stopped()) {
      const batch = await repo.claim(options.batch, options.leaseSeconds);
      if (!batch.length) break;
      const byTarget = new Map<number, ClaimedDelivery[]>();
      for (const d of batch) {
        const l = byTarget.get(d.target_id);
        if (l) l.push(d);
        else byTarget.set(d.target_id, [d]);
      }
      const targets = new Map((await repo.targetsByIds([...byTarget.keys()])).map((t) => [t.id, t]));
      const out: AttemptResult[] = [];
      const released: number[] = [];
      await Promise.all(
        [...byTarget].map(async ([id, list]) => {
          const t = targets.get(id);
          if (!t) return;
          if (t.kind === 'webhook') await sendWebhooks(t, list, out, released);
          else await sendSyslog(t, list, out);
        }),
      );
      await repo.record(out);
      await repo.release(released);
      for (const r of out) {
        stats.sent++;
        if (r.state === 'delivered') stats.delivered++;
        else if (r.state === 'failed') stats.failed++;
        else stats.retried++;
      }
      if (!out.length) break;
    }
    return stats;
  }

  return { round };
}
export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
