/*
 * The watch as the API sees it: a company's schedule and rules (read: discovery.read, change:
 * discovery.manage — the watch is discovery's traffic), an event's watch flag (events.write, as the
 * «Наблюдать» decision it overrides) and an event's timeline (events.read). Tenant scope from the
 * principal; another company's objects are 404. Changes are audited in their transaction.
 */
import { getModule } from '@forpost/contract/modules';
import {
  DEFAULT_WATCH_INTERVAL_MINUTES,
  type EventWatch,
  type eventWatchPut,
  transitionLabel,
  WATCH_MSG,
  type WatchSettings,
  type watchSettingsPut,
} from '@forpost/contract/watch';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import { assertModule, assertOn, type Caller } from '../../lib/caller';
import { ApiError, notFound } from '../../lib/errors';
import type { WatchRepo } from './watch.repo';

const DOMAINS = getModule('domains').code;
/** States and transitions an event's timeline shows (newest first). */
const TIMELINE_LIMIT = 200;

export function createWatchService(deps: { db: Db; audit: Audit; repo: WatchRepo }) {
  const { db, audit, repo } = deps;

  async function company(c: Caller, companyId: number, perm: 'discovery.read' | 'discovery.manage') {
    assertOn(c, perm, companyId, WATCH_MSG.companyNotFound);
    if (!(await repo.companyExists(companyId))) throw notFound(WATCH_MSG.companyNotFound);
  }

  async function settingsOf(companyId: number): Promise<WatchSettings> {
    const s = await repo.settings(companyId);
    return { ...s, watched: await repo.watchedCount(companyId) };
  }

  async function event(c: Caller, id: number, perm: 'events.read' | 'events.write') {
    assertModule(c, DOMAINS);
    const t = await repo.target(id);
    if (!t) throw notFound(WATCH_MSG.eventNotFound);
    assertOn(c, perm, t.company_id, WATCH_MSG.eventNotFound);
    if (t.module !== DOMAINS) throw new ApiError(400, WATCH_MSG.notDomain);
    return t;
  }

  async function timeline(id: number): Promise<EventWatch> {
    const t = await repo.target(id);
    if (!t) throw notFound(WATCH_MSG.eventNotFound);
    const s = await repo.settings(t.company_id);
    const watched = (t.watched ?? t.decision_monitor) && s.enabled;
    const interval = t.interval_minutes ?? s.interval_minutes ?? DEFAULT_WATCH_INTERVAL_MINUTES;
    const states = await repo.states(id, TIMELINE_LIMIT);
    const transitions = await repo.transitions(id, TIMELINE_LIMIT);
    const iso = (v: string | Date) => new Date(v).toISOString();
    return {
      event_id: id,
      flag: t.watched,
      watched,
      company_enabled: s.enabled,
      interval_minutes: t.interval_minutes,
      effective_interval_minutes: interval,
      last_observed_at: t.observed_at ? iso(t.observed_at) : null,
      next_due_at: watched
        ? t.observed_at
          ? new Date(new Date(t.observed_at).getTime() + interval * 60_000).toISOString()
          : new Date().toISOString()
        : null,
      states: states.map((x) => ({ ...x, first_seen: iso(x.first_seen), last_seen: iso(x.last_seen) })),
      transitions: transitions.map((x) => ({ ...x, at: iso(x.at), label: transitionLabel(x.kind) })),
    };
  }

  return {
    async getSettings(c: Caller, companyId: number): Promise<WatchSettings> {
      await company(c, companyId, 'discovery.read');
      return settingsOf(companyId);
    },

    async putSettings(c: Caller, companyId: number, b: z.infer<typeof watchSettingsPut>): Promise<WatchSettings> {
      await company(c, companyId, 'discovery.manage');
      await db.transaction(async (tx) => {
        const before = await repo.settings(companyId, tx);
        await repo.putSettings(companyId, b, tx);
        await audit.record(
          c.actor,
          {
            action: 'watch_settings.update',
            entity: 'watch_settings',
            entityId: companyId,
            companyId,
            before: { enabled: before.enabled, interval_minutes: before.interval_minutes, rules: before.rules },
            after: b,
          },
          tx,
        );
      });
      return settingsOf(companyId);
    },

    async getEvent(c: Caller, id: number): Promise<EventWatch> {
      await event(c, id, 'events.read');
      return timeline(id);
    },

    async putEvent(c: Caller, id: number, b: z.infer<typeof eventWatchPut>): Promise<EventWatch> {
      const t = await event(c, id, 'events.write');
      await db.transaction(async (tx) => {
        await repo.setFlag(id, t.company_id, b.watched, b.interval_minutes, tx);
        await audit.record(
          c.actor,
          {
            action: 'watch_event.update',
            entity: 'watch_event',
            entityId: id,
            companyId: t.company_id,
            before: { watched: t.watched, interval_minutes: t.interval_minutes },
            after: b,
          },
          tx,
        );
      });
      return timeline(id);
    },
  };
}
export type WatchService = ReturnType<typeof createWatchService>;
