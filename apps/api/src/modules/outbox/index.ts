/*
 * The outbox and integrations (#33): the door other areas write through — `emitOutbox(tx, items)` for
 * any message and `emitEventHistory(tx, entries)` for what an event's history records (created,
 * status/decision/priority change, assignment, watch transition, takedown step) — both in the caller's transaction,
 * so a message exists exactly when its change committed. `createIntegrations` builds the API's
 * service and routes and the delivery worker (a poller on ROLE=all|worker).
 */
import { hostname } from 'node:os';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Logger } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import { type Poller, startPoller } from '../../lib/poller';
import type { App } from '../../lib/routes';
import { createSecretBox } from '../../lib/secretbox';
import { integrationsRoutes } from './integrations.routes';
import { createIntegrationsService } from './integrations.service';
import { createOutboxRepo, type EventOutboxItem, insertEventOutbox, insertOutbox, type OutboxItem } from './outbox.repo';
import { createOutboxWorker, DEFAULT_WORKER_OPTIONS, type WorkerOptions } from './outbox.worker';

export { cefOf, formatCef, octetFrame, parseCef, syslogLine } from './cef';
export type { EventOutboxItem, OutboxItem } from './outbox.repo';
export { RETRY_SCHEDULE_MS } from './outbox.worker';

/** Writes messages (and their deliveries to the targets that want them) in the caller's transaction. */
export const emitOutbox = (tx: Db, items: readonly OutboxItem[]) => insertOutbox(tx, items);
/** Writes event messages; company, module, priority and names come from the event row. */
export const emitEventOutbox = (tx: Db, items: readonly EventOutboxItem[]) => insertEventOutbox(tx, items);

/** An event history entry, as events.repo writes it. */
interface HistoryLike {
  eventId: number;
  action: string;
  field: string | null;
  before?: unknown;
  after?: unknown;
}
const FIELD_TYPES: Record<string, string> = {
  status_id: 'event.status_changed',
  decision_id: 'event.decision_changed',
  priority_id: 'event.priority_changed',
  assignee_id: 'event.assigned',
};

/** The messages an event's history entries stand for (other entries: none). */
export function eventMessagesOf(entries: readonly HistoryLike[]): EventOutboxItem[] {
  const out: EventOutboxItem[] = [];
  for (const h of entries) {
    if (h.action === 'create') out.push({ eventId: h.eventId, type: 'event.created' });
    else if ((h.action === 'update' || h.action === 'undo') && h.field && FIELD_TYPES[h.field])
      out.push({ eventId: h.eventId, type: FIELD_TYPES[h.field] as string, field: h.field, before: h.before, after: h.after });
    else if (h.action === 'action' && h.field === 'watch' && h.after && typeof h.after === 'object')
      out.push({ eventId: h.eventId, type: 'watch.transition', extra: { change: { field: 'watch', ...(h.after as object) } } });
    else if (h.action === 'action' && h.field === 'takedown' && h.after && typeof h.after === 'object')
      out.push({
        eventId: h.eventId,
        type: 'takedown.state_changed',
        extra: { change: { field: 'takedown', ...(h.after as object) } },
      });
  }
  return out;
}

/** What an event's history records, as outbox messages, in the same transaction. */
export const emitEventHistory = (tx: Db, entries: readonly HistoryLike[]) => insertEventOutbox(tx, eventMessagesOf(entries));

/** How long sent (delivered or failed) messages stay for the delivery log. */
export const RETENTION_DAYS = 30;

export function createIntegrations(deps: {
  db: Db;
  audit: Audit;
  secret: string;
  outbound: OutboundPolicy;
  log: Pick<Logger, 'warn'>;
  version: string;
  options?: Partial<WorkerOptions>;
}) {
  const repo = createOutboxRepo(deps.db);
  const box = createSecretBox(deps.secret, 'integrations');
  const options: WorkerOptions = { ...DEFAULT_WORKER_OPTIONS, hostname: hostname(), version: deps.version, ...deps.options };
  const worker = createOutboxWorker({ repo, box, outbound: deps.outbound, log: deps.log, options });
  const service = createIntegrationsService({
    db: deps.db,
    audit: deps.audit,
    repo,
    box,
    allowPrivate: deps.outbound.allowPrivate,
    version: deps.version,
  });
  const pollers: Poller[] = [];
  return {
    service,
    worker,
    repo,
    /** Sends every due delivery now (tests, bench). */
    drain: (stopped?: () => boolean) => worker.round(stopped),
    mount(app: App) {
      integrationsRoutes(app, { integrations: service });
    },
    /** `background: false` (tests): no poller (call drain). */
    attach(opts: { work: boolean; background?: boolean; intervalMs?: number }) {
      if (!opts.work || opts.background === false) return;
      pollers.push(
        startPoller({
          intervalMs: opts.intervalMs ?? 2000,
          run: (stopped) => worker.round(stopped),
          log: deps.log,
          failure: 'outbox round failed',
        }),
        // Sent messages are kept RETENTION_DAYS for the delivery log, then dropped (an hourly pass).
        startPoller({
          intervalMs: 3_600_000,
          run: () => repo.prune(RETENTION_DAYS),
          log: deps.log,
          failure: 'outbox prune failed',
        }),
      );
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
    },
  };
}
export type Integrations = ReturnType<typeof createIntegrations>;
