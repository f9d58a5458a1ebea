/*
 * The watch's rounds (a poller of ROLE=all|worker, like the CT monitor): domain events with the
 * «Наблюдать» decision are enrolled, due targets are claimed in batches under a lease (FOR UPDATE SKIP
 * LOCKED: several workers never observe one domain at once), observed with bounded concurrency, and
 * each observation is recorded in one transaction with what it changes: the state row (its time range
 * extended, or a new one), the transitions (classifier transitions.ts), the event's history, the
 * event card's fields (card.ts), the priority raised by the company's rule, and an allowlisted domain
 * whose MX or login form appears reopened with the reason. A site serving no TLS shows the newest
 * certificate the CT monitor saw for its name (watch_ct_certs).
 */

import { createHash } from 'node:crypto';
import { type TransitionKind, transitionLabel, WATCH_MSG, type WatchState } from '@forpost/contract/watch';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import type { EventsRepo, HistoryEntry } from '../events/index';
import { notify } from '../notifications/index';
import { cardChanges, cardFieldsOf, writeCard } from './card';
import type { Observer } from './observer';
import { stateKey } from './observer';
import { summaryOf, transitionsBetween, webLive } from './transitions';
import type { ClaimedTarget, WatchRepo } from './watch.repo';

/** Targets claimed at once, and how long their lease holds (a crashed worker's targets come back after it). */
export const CLAIM_BATCH = 500;
export const LEASE_SECONDS = 600;
/** Transitions after which an allowlisted domain is reopened. */
const REOPEN_ON: ReadonlySet<TransitionKind> = new Set(['mx_appeared', 'login_form']);

export interface RoundResult {
  observed: number;
  transitions: number;
  byKind: Partial<Record<TransitionKind, number>>;
}

export interface ObservedTransition {
  eventId: number;
  kind: TransitionKind;
}

export function createWatchWorker(deps: {
  db: Db;
  repo: WatchRepo;
  events: Pick<EventsRepo, 'insertHistory' | 'findById' | 'update'>;
  /** An observer per round (its resolver is closed after the round). */
  observer: () => Promise<{ observer: Observer; close(): void }>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Called after each committed transition (tests, notifications). */
  onTransition?: (t: ObservedTransition) => void;
  now?: () => Date;
}) {
  const { db, repo } = deps;
  const now = deps.now ?? (() => new Date());
  // Looked up once per worker. The promise is cached synchronously: concurrent records of one round
  // (an `??=` around an await let a second caller replace the cache, and the first then read nothing
  // from it: the priority rule silently not applied) all share the one lookup.
  const priorities = new Map<string, Promise<{ id: number; level: number } | undefined>>();
  let initialStatus: Promise<number | undefined> | null = null;

  function priorityOf(code: string) {
    let p = priorities.get(code);
    if (!p) {
      p = repo.priority(code);
      priorities.set(code, p);
    }
    return p;
  }

  /** Records one observation of a claimed target; returns the transitions it made. */
  async function record(t: ClaimedTarget, observed: WatchState): Promise<TransitionKind[]> {
    const at = now();
    const prev = t.state;
    // RDAP is asked only now and then: a state without it keeps the last known status.
    let next: WatchState = observed.rdap_status === null && prev ? { ...observed, rdap_status: prev.rdap_status } : observed;
    // A live page that did not answer in time (after a retry) is no evidence yet: the first such
    // observation keeps the last known page; the second in a row counts (the page is gone).
    let webMisses = 0;
    if (next.http_timeout && prev && webLive(prev) && t.web_misses < 1) {
      next = {
        ...next,
        http_status: prev.http_status,
        final_url: prev.final_url,
        title: prev.title,
        content_hash: prev.content_hash,
        login_form: prev.login_form,
        tls_issuer: prev.tls_issuer,
        tls_sans: prev.tls_sans,
        tls_fingerprint: prev.tls_fingerprint,
        tls_serial: prev.tls_serial,
        tls_source: prev.tls_source,
      };
      webMisses = t.web_misses + 1;
    }
    // A site serving no TLS (not yet, or no longer) shows the newest certificate the CT monitor saw for
    // its name: «certificate issued» comes from the log before the site uses it, and once.
    if (t.ct_cert && next.dns === 'registered' && !next.tls_fingerprint)
      next = {
        ...next,
        tls_issuer: t.ct_cert.issuer,
        tls_sans: [...t.ct_cert.sans].sort(),
        tls_fingerprint: t.ct_cert.fingerprint,
        tls_serial: t.ct_cert.serial,
        tls_source: 'ct',
      };
    const hash = createHash('sha256').update(stateKey(next)).digest('hex');
    const { kinds, down } = transitionsBetween(prev, next, t.down, t.last_fingerprint, t.seen_certs ?? []);
    const history: HistoryEntry[] = [];
    let priority: { id: number; level: number } | undefined;
    for (const k of kinds) {
      const code = t.rules[k];
      const p = code ? await priorityOf(code) : undefined;
      if (p && p.level > (priority?.level ?? t.priority_level ?? 0)) priority = p;
    }
    const reopen = t.allowlisted && t.status_final && kinds.some((k) => REOPEN_ON.has(k));
    if (reopen) initialStatus ??= repo.initialStatus();
    const initial = reopen && initialStatus ? await initialStatus : undefined;
    await db.transaction(async (tx) => {
      await repo.record(tx, {
        eventId: t.event_id,
        stateId: t.state_id,
        sameState: t.state_hash === hash,
        state: next,
        hash,
        down,
        webMisses,
        at,
        domain: t.domain,
      });
      // The card's own fields follow the observation (before the priority and status: the change is
      // computed from the row as it is now). Lines of fields a transition explains are left out (card.ts).
      const card = t.card === undefined ? {} : cardChanges(t.card, cardFieldsOf(next));
      const cardHistory = Object.keys(card).length ? await writeCard(deps.events, tx, t.event_id, card, kinds) : [];
      if (!kinds.length) {
        if (cardHistory.length) await deps.events.insertHistory(cardHistory, tx);
        return;
      }
      await repo.insertTransitions(
        tx,
        kinds.map((kind) => ({
          eventId: t.event_id,
          companyId: t.company_id,
          kind,
          at,
          before: summaryOf(kind, prev),
          after: summaryOf(kind, next),
        })),
      );
      for (const kind of kinds)
        history.push({
          eventId: t.event_id,
          actorUserId: null,
          actorKeyId: null,
          action: 'action',
          field: 'watch',
          after: { kind, comment: `${transitionLabel(kind)}${detail(kind, next)}` },
        });
      if (priority && priority.id !== t.priority_id) {
        await repo.setPriority(tx, t.event_id, priority.id);
        history.push({
          eventId: t.event_id,
          actorUserId: null,
          actorKeyId: null,
          action: 'update',
          field: 'priority_id',
          before: t.priority_id,
          after: priority.id,
        });
      }
      if (reopen && initial !== undefined && initial !== t.status_id) {
        await repo.setStatus(tx, t.event_id, initial);
        const why = kinds
          .filter((k) => REOPEN_ON.has(k))
          .map(transitionLabel)
          .join(', ');
        history.push(
          {
            eventId: t.event_id,
            actorUserId: null,
            actorKeyId: null,
            action: 'update',
            field: 'status_id',
            before: t.status_id,
            after: initial,
          },
          {
            eventId: t.event_id,
            actorUserId: null,
            actorKeyId: null,
            action: 'action',
            field: 'watch',
            after: { kind: 'reopened', comment: `${WATCH_MSG.reopened}: ${why}` },
          },
        );
      }
      history.push(...cardHistory);
      await deps.events.insertHistory(history, tx);
      // The bell of the event's assignee (mailings read the transitions themselves: mailings.repo collectTransitions).
      if (t.assignee_id !== null)
        await notify(tx, [
          {
            userId: t.assignee_id,
            kind: 'watch',
            eventId: t.event_id,
            companyId: t.company_id,
            module: 'domains',
            text: `${t.domain}: ${kinds.map(transitionLabel).join(', ')}`,
            actorId: null,
          },
        ]);
    });
    for (const kind of kinds) deps.onTransition?.({ eventId: t.event_id, kind });
    return kinds;
  }

  /**
   * One round: enrol, then claim and observe due targets in batches until none is due (or `stopped()`).
   * `limit` bounds the targets of the round (tests and bench).
   */
  async function round(stopped: () => boolean = () => false, limit = Number.POSITIVE_INFINITY): Promise<RoundResult> {
    await repo.enrol();
    const res: RoundResult = { observed: 0, transitions: 0, byKind: {} };
    const { observer, close } = await deps.observer();
    try {
      while (!stopped() && res.observed < limit) {
        const batch = await repo.claim(Math.min(CLAIM_BATCH, limit - res.observed), LEASE_SECONDS);
        if (!batch.length) break;
        const done = new Set<number>();
        try {
          await observer.observeMany(
            // RDAP only at the first observation (registration status changes slowly; RDAP servers limit hard).
            batch.map((t) => ({ ...t, rdap: !t.state })),
            async (t, state) => {
              if (stopped()) return;
              const kinds = await record(t, state);
              done.add(t.event_id);
              res.observed++;
              res.transitions += kinds.length;
              for (const k of kinds) res.byKind[k] = (res.byKind[k] ?? 0) + 1;
            },
          );
        } finally {
          await repo.release(batch.map((t) => t.event_id).filter((id) => !done.has(id)));
        }
      }
    } finally {
      close();
    }
    return res;
  }

  return { round, record };
}
export type WatchWorker = ReturnType<typeof createWatchWorker>;

/** A short detail of a transition for the history line. */
function detail(kind: TransitionKind, s: WatchState): string {
  switch (kind) {
    case 'mx_appeared':
      return `: ${s.mx.join(', ')}`;
    case 'parked':
      return s.ns.length ? `: ${s.ns.join(', ')}` : '';
    case 'login_form':
    case 'web_live':
    case 'came_back':
      return s.final_url ? `: ${s.final_url}${s.title ? ` («${s.title}»)` : ''}` : '';
    case 'cert_issued':
      return `: ${s.tls_issuer ?? 'издатель неизвестен'}${s.tls_sans.length ? `, ${s.tls_sans.join(', ')}` : ''}${s.tls_source === 'ct' ? ' (журнал CT)' : ''}`;
    case 'offline':
      return s.dns === 'nxdomain'
        ? ' (NXDOMAIN)'
        : !s.a.length && !s.aaaa.length
          ? ' (нет A/AAAA)'
          : s.http_status
            ? ` (HTTP ${s.http_status})`
            : s.http_error
              ? ` (${s.http_error})`
              : '';
    default:
      return '';
  }
}
