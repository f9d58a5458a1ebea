/*
 * Whitelist ↔ events: what part of an event is compared with the whitelist, and re-marking the
 * events of a company after its whitelist (or the global one) changed.
 */
import { FIELD_KINDS, getModule, isModuleCode, type ModuleCode, type WhitelistSlot } from '@forpost/contract/modules';
import { ipInCidr, isDomain } from '@forpost/contract/validation';
import type { WhitelistKind, WhitelistSubject } from '@forpost/contract/whitelist';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { type Candidates, hasCandidates, subjectCandidates } from './whitelist.match';
import { createWhitelistRepo, type WhitelistRepo } from './whitelist.repo';

/** How a value fills the subject, by the field kind's whitelist slot (the first value of a slot wins). */
const FILL: Record<WhitelistSlot, (s: WhitelistSubject, v: string) => void> = {
  domain: (s, v) => {
    s.domain ??= v;
  },
  host: (s, v) => {
    if (isDomain(v.toLowerCase())) s.domain ??= v;
    else s.ip ??= v;
  },
  url: (s, v) => {
    s.url ??= v;
  },
  email: (s, v) => {
    s.email ??= v;
  },
  ip: (s, v) => {
    s.ip ??= v;
  },
  inn: (s, v) => {
    s.inn ??= v;
  },
};

/**
 * The whitelist subject of an event, from its module's field types: the first domain, host (domain
 * or IP), URL, e-mail, IP and ИНН field that has a value, and the module's whitelist name field
 * (legal entity and merchant names) where it has one.
 */
export function subjectOfEvent(module: ModuleCode, data: Record<string, unknown>): WhitelistSubject {
  const s: WhitelistSubject = {};
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const m = getModule(module);
  for (const f of m.fields) {
    const v = str(data[f.key]);
    if (v === undefined) continue;
    const slot = FIELD_KINDS[f.type].whitelist;
    if (slot) FILL[slot](s, v);
  }
  if (m.whitelistName) s.name = str(data[m.whitelistName]);
  return s;
}

interface Entry {
  id: number;
  companyId: number | null;
  type: string;
  matchKey: string;
  kind: WhitelistKind;
}

/**
 * In-memory matching over a set of live entries, with the same rules as the database query
 * (company entries before global ones, then the oldest): for re-marking many events at once.
 */
export function matchIn(entries: readonly Entry[], c: Candidates): WhitelistKind | null {
  if (!hasCandidates(c)) return null;
  for (const e of entries) {
    switch (e.type) {
      case 'domain':
      case 'url':
      case 'email':
      case 'inn':
      case 'name':
        if ((c[e.type] as string[]).includes(e.matchKey)) return e.kind;
        break;
      case 'ip':
        if (c.ip && ipInCidr(c.ip, e.matchKey)) return e.kind;
        break;
    }
  }
  return null;
}

/**
 * A synchronous matcher over one company's entries (and the global ones), loaded once: for bulk
 * work such as imports, where a query per row would be too slow.
 */
export async function loadEventMatcher(
  db: Db,
  companyId: number,
): Promise<(module: ModuleCode, data: Record<string, unknown>) => WhitelistKind | null> {
  const entries = (await createWhitelistRepo(db).liveEntries(companyId)).filter(
    (e) => e.companyId === companyId || e.companyId === null,
  );
  return (module, data) => matchIn(entries, subjectCandidates(subjectOfEvent(module, data)));
}

const BATCH = 1000;

export interface EventsRemarker {
  /** Queues re-marking of one company's events (null: every company, after a global change). Returns at once. */
  schedule(companyId: number | null): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Re-marks events after whitelist changes, in the background and in batches (keyset by id). Runs are
 * serialised and coalesced: a burst of edits costs one pass. An event changed by someone meanwhile
 * (updated_at moved) is left to the event service, which recomputes the kind itself.
 */
export function createEventsRemarker(deps: { db: Db; log?: Pick<Logger, 'warn'>; repo?: WhitelistRepo }): EventsRemarker {
  const repo = deps.repo ?? createWhitelistRepo(deps.db);
  const pending = new Set<number | 'all'>();
  let running: Promise<void> | null = null;
  let closed = false;

  async function run(scope: number | 'all') {
    const entries = await repo.liveEntries(scope === 'all' ? null : scope);
    const global = entries.filter((e) => e.companyId === null);
    const perCompany = new Map<number, Entry[]>();
    const entriesOf = (companyId: number) => {
      let list = perCompany.get(companyId);
      if (!list) {
        list = [...entries.filter((e) => e.companyId === companyId), ...global];
        perCompany.set(companyId, list);
      }
      return list;
    };
    let lastId = 0;
    for (;;) {
      if (closed) return;
      const rows = await repo.eventsAfter(scope, lastId, BATCH);
      if (rows.length === 0) return;
      lastId = rows[rows.length - 1]?.id ?? lastId;
      // An event changed meanwhile keeps its kind: the event service recomputes it itself.
      const changes: { id: number; kind: WhitelistKind | null; updatedAt: string }[] = [];
      for (const r of rows) {
        if (!isModuleCode(r.module)) continue;
        const kind = matchIn(entriesOf(r.companyId), subjectCandidates(subjectOfEvent(r.module, r.data ?? {})));
        if (kind !== r.kind) changes.push({ id: r.id, kind, updatedAt: r.updatedAt });
      }
      await repo.setEventKinds(changes);
      if (rows.length < BATCH) return;
    }
  }

  async function loop() {
    while (pending.size && !closed) {
      const scopes: (number | 'all')[] = pending.has('all') ? ['all'] : [...pending];
      pending.clear();
      for (const s of scopes) {
        try {
          await run(s);
        } catch (err) {
          deps.log?.warn({ err, scope: s }, 'whitelist re-marking of events failed');
        }
      }
    }
  }

  return {
    schedule(companyId) {
      if (closed) return;
      pending.add(companyId ?? 'all');
      if (!running) {
        // Started on the next microtask: the schedules of one synchronous burst (a sweep's scopes)
        // are coalesced into one pass.
        running = Promise.resolve()
          .then(loop)
          .finally(() => {
            running = null;
          });
      }
    },
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      await running;
    },
  };
}

/** The events engine's hook: the whitelist kind of an event of `module` with these fields. */
export function kindForEvent(
  kindFor: (companyId: number, s: WhitelistSubject) => Promise<WhitelistKind | null>,
): (companyId: number, module: ModuleCode, data: Record<string, unknown>) => Promise<WhitelistKind | null> {
  return (companyId, module, data) => kindFor(companyId, subjectOfEvent(module, data));
}
