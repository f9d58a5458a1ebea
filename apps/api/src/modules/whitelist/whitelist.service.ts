import { can, type Principal } from '@forpost/contract/permissions';
import type { bulkWhitelistLine } from '@forpost/contract/whitelist';
import {
  type BulkWhitelistRequest,
  type CreateWhitelistItem,
  detectWhitelistType,
  normaliseWhitelistValue,
  type UpdateWhitelistItem,
  WHITELIST_BULK_MAX_LINES,
  WHITELIST_MSG,
  type WhitelistItem,
  type WhitelistKind,
  type WhitelistListQuery,
  type WhitelistSubject,
  type WhitelistType,
} from '@forpost/contract/whitelist';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit, AuditActor } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { errInfo, type Logger } from '../../lib/logger';
import { type Poller, startPoller } from '../../lib/poller';
import { iso, isUniqueViolation } from '../../lib/serialize';
import type { CompaniesRepo } from '../companies/index';
import { createEventsRemarker, type EventsRemarker, kindForEvent, loadEventMatcher } from './whitelist.events';
import { hasCandidates, subjectCandidates } from './whitelist.match';
import { createWhitelistRepo, type Scope, type WhitelistRepo, type WhitelistRow } from './whitelist.repo';

type BulkLine = z.infer<typeof bulkWhitelistLine>;

/** Told after every committed change of a company list (companyId) or of the global one (null). */
export type WhitelistChangeHandler = (change: { companyId: Scope; actor: AuditActor }) => void | Promise<void>;

function toItem(r: WhitelistRow, now = Date.now()): WhitelistItem {
  return {
    id: r.id,
    company_id: r.companyId,
    type: r.type,
    value: r.value,
    kind: r.kind,
    comment: r.comment,
    expires_at: iso(r.expiresAt),
    is_expired: r.expiresAt !== null && r.expiresAt.getTime() <= now,
    created_by: r.createdBy !== null && r.createdByName !== null ? { id: r.createdBy, name: r.createdByName } : null,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

const pairKey = (type: string, key: string) => `${type}\u0000${key}`;
const audited = (r: Pick<WhitelistRow, 'type' | 'value' | 'kind' | 'comment' | 'expiresAt'>) => ({
  type: r.type,
  value: r.value,
  kind: r.kind,
  comment: r.comment,
  expires_at: iso(r.expiresAt),
});

export interface WhitelistServiceDeps {
  companies: CompaniesRepo;
  db: Db;
  audit: Audit;
  repo?: WhitelistRepo;
  onChange?: WhitelistChangeHandler;
  /** Re-marks existing events after a change; by default one running in this process (null: none). */
  remarker?: EventsRemarker | null;
  log?: Pick<Logger, 'warn'>;
}

/**
 * Company whitelists (`companyId` a number) and the global one (`companyId` null). Tenant scope comes
 * from the principal: another company's list or entry is a 404, reading without the right to manage is a 403.
 */
export function createWhitelistService(deps: WhitelistServiceDeps) {
  const { db, audit } = deps;
  const repo = deps.repo ?? createWhitelistRepo(db);
  const companiesRepo = deps.companies;
  let onChange = deps.onChange;
  const remarker = deps.remarker === undefined ? createEventsRemarker({ db, log: deps.log, repo }) : deps.remarker;

  /**
   * Re-marks the events of entries that have expired since the last sweep (an expired entry no
   * longer applies). Each expiry is handled once; moving `expires_at` makes the entry pending again.
   * Returns how many entries expired.
   */
  async function sweepExpired(): Promise<number> {
    const scopes = await repo.takeExpired();
    for (const s of scopes) remarker?.schedule(s); // coalesced by the remarker
    return scopes.length;
  }

  async function changed(companyId: Scope, actor: AuditActor) {
    remarker?.schedule(companyId);
    if (!onChange) return;
    try {
      await onChange({ companyId, actor });
    } catch (err) {
      deps.log?.warn({ err: errInfo(err) }, 'whitelist change handler failed');
    }
  }

  /** Checks the principal may read (and, with `manage`, change) the list of `companyId`. */
  async function authorize(p: Principal, companyId: Scope, manage: boolean): Promise<void> {
    if (companyId === null) {
      if (!can(p, manage ? 'global_whitelist.manage' : 'global_whitelist.read')) throw forbidden();
      return;
    }
    if (!can(p, 'whitelist.read', companyId) || !(await companiesRepo.exists(companyId)))
      throw notFound(WHITELIST_MSG.companyNotFound);
    if (manage && !can(p, 'whitelist.manage', companyId)) throw forbidden();
  }

  function normalised(type: WhitelistType, value: string) {
    const r = normaliseWhitelistValue(type, value);
    if (!r.ok) throw badRequest(r.error, { value: r.error });
    return r;
  }

  async function load(companyId: Scope, id: number) {
    const r = await repo.find(companyId, id);
    if (!r) throw notFound(WHITELIST_MSG.notFound);
    return r;
  }

  const duplicate = () => conflict(WHITELIST_MSG.duplicate, { value: WHITELIST_MSG.duplicate });

  /**
   * The whitelist kind of an event's subject in a company: the company's live entries first,
   * then the global list; null when nothing matches. Expired entries are ignored.
   */
  async function whitelistKindFor(companyId: number | null, subject: WhitelistSubject): Promise<WhitelistKind | null> {
    const c = subjectCandidates(subject);
    if (!hasCandidates(c)) return null;
    return (await repo.match(companyId, c))?.kind ?? null;
  }

  return {
    /** A further listener to committed changes (the events re-marking is built in). */
    setChangeHandler(fn: WhitelistChangeHandler | undefined) {
      onChange = fn;
    },

    async list({ auth: { principal: p } }: Caller, companyId: Scope, q: WhitelistListQuery) {
      await authorize(p, companyId, false);
      const { rows, total } = await repo.list(companyId, q);
      const now = Date.now();
      return { items: rows.map((r) => toItem(r, now)), total, page: q.page, page_size: q.page_size };
    },

    async get({ auth: { principal: p } }: Caller, companyId: Scope, id: number): Promise<WhitelistItem> {
      await authorize(p, companyId, false);
      return toItem(await load(companyId, id));
    },

    async create({ auth: { principal: p }, actor }: Caller, companyId: Scope, body: CreateWhitelistItem): Promise<WhitelistItem> {
      await authorize(p, companyId, true);
      const n = normalised(body.type, body.value);
      let id: number;
      try {
        id = await db.transaction(async (tx) => {
          const id = await repo.insert(
            {
              companyId,
              type: body.type,
              value: n.value,
              matchKey: n.key,
              kind: body.kind,
              comment: body.comment || null,
              expiresAt: body.expires_at ? new Date(body.expires_at) : null,
              createdBy: actor.userId ?? null,
            },
            tx,
          );
          await audit.record(
            actor,
            {
              action: 'whitelist.create',
              entity: 'whitelist_item',
              entityId: id,
              companyId,
              after: {
                type: body.type,
                value: n.value,
                kind: body.kind,
                comment: body.comment ?? null,
                expires_at: body.expires_at ?? null,
              },
            },
            tx,
          );
          return id;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw duplicate();
        throw e;
      }
      await changed(companyId, actor);
      return toItem(await load(companyId, id));
    },

    async update(
      { auth: { principal: p }, actor }: Caller,
      companyId: Scope,
      id: number,
      body: UpdateWhitelistItem,
    ): Promise<WhitelistItem> {
      await authorize(p, companyId, true);
      const before = await load(companyId, id);
      const type = body.type ?? before.type;
      const n = body.value !== undefined || body.type !== undefined ? normalised(type, body.value ?? before.value) : undefined;
      try {
        await db.transaction(async (tx) => {
          const ok = await repo.update(
            companyId,
            id,
            {
              ...(n && { type, value: n.value, matchKey: n.key }),
              ...(body.kind !== undefined && { kind: body.kind }),
              ...(body.comment !== undefined && { comment: body.comment || null }),
              ...(body.expires_at !== undefined && {
                expiresAt: body.expires_at ? new Date(body.expires_at) : null,
                expiryAppliedAt: null,
              }),
            },
            tx,
          );
          if (!ok) throw notFound(WHITELIST_MSG.notFound);
          await audit.record(
            actor,
            {
              action: 'whitelist.update',
              entity: 'whitelist_item',
              entityId: id,
              companyId,
              before: audited(before),
              after: body,
            },
            tx,
          );
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw duplicate();
        throw e;
      }
      await changed(companyId, actor);
      return toItem(await load(companyId, id));
    },

    async remove({ auth: { principal: p }, actor }: Caller, companyId: Scope, id: number): Promise<void> {
      await authorize(p, companyId, true);
      await db.transaction(async (tx) => {
        const before = await repo.find(companyId, id, tx);
        if (!before || !(await repo.remove(companyId, id, tx))) throw notFound(WHITELIST_MSG.notFound);
        await audit.record(
          actor,
          { action: 'whitelist.delete', entity: 'whitelist_item', entityId: id, companyId, before: audited(before) },
          tx,
        );
      });
      await changed(companyId, actor);
    },

    /**
     * One entry per line (empty lines skipped). Each line gets a result; valid new lines are saved,
     * lines repeating an earlier line or an existing entry are reported and nothing is saved twice.
     */
    async bulk({ auth: { principal: p }, actor }: Caller, companyId: Scope, body: BulkWhitelistRequest) {
      await authorize(p, companyId, true);
      const lines = body.text.split(/\r\n|\r|\n/);
      const filled = lines.filter((l) => l.trim() !== '').length;
      if (filled === 0) throw badRequest(WHITELIST_MSG.emptyText, { text: WHITELIST_MSG.emptyText });
      if (filled > WHITELIST_BULK_MAX_LINES) {
        const m = WHITELIST_MSG.tooManyLines(WHITELIST_BULK_MAX_LINES);
        throw badRequest(m, { text: m });
      }
      const results: (BulkLine & { key?: string })[] = [];
      const seen = new Set<string>();
      lines.forEach((raw, i) => {
        const value = raw.trim();
        if (value === '') return;
        const type = body.type ?? detectWhitelistType(value);
        const n = normaliseWhitelistValue(type, value);
        if (!n.ok) {
          results.push({ line: i + 1, value, type, ok: false, error: n.error });
          return;
        }
        const k = pairKey(type, n.key);
        if (seen.has(k)) {
          results.push({ line: i + 1, value: n.value, type, ok: false, error: WHITELIST_MSG.duplicateInText });
          return;
        }
        seen.add(k);
        results.push({ line: i + 1, value: n.value, type, ok: true, key: n.key });
      });

      const created = await db.transaction(async (tx) => {
        const candidates = results.filter((r) => r.ok);
        const exists = await repo.existing(
          companyId,
          candidates.map((r) => ({ type: r.type, key: r.key as string })),
          tx,
        );
        for (const r of candidates) {
          if (exists.has(pairKey(r.type, r.key as string))) Object.assign(r, { ok: false, error: WHITELIST_MSG.duplicate });
        }
        const fresh = candidates.filter((r) => r.ok);
        const ids = await repo.insertMany(
          fresh.map((r) => ({
            companyId,
            type: r.type,
            value: r.value,
            matchKey: r.key as string,
            kind: body.kind,
            comment: body.comment || null,
            expiresAt: body.expires_at ? new Date(body.expires_at) : null,
            createdBy: actor.userId ?? null,
          })),
          tx,
        );
        for (const r of fresh) {
          const id = ids.get(pairKey(r.type, r.key as string));
          // Lost a race with a concurrent insert of the same value.
          if (id === undefined) Object.assign(r, { ok: false, error: WHITELIST_MSG.duplicate });
          else r.id = id;
        }
        if (ids.size) {
          await audit.record(
            actor,
            {
              action: 'whitelist.bulk_create',
              entity: 'whitelist_item',
              companyId,
              meta: { created: ids.size, ids: [...ids.values()].slice(0, 1000), kind: body.kind },
            },
            tx,
          );
        }
        return ids.size;
      });
      if (created) await changed(companyId, actor);
      const items: BulkLine[] = results.map(({ key: _k, ...r }) => r);
      return { items, created, failed: items.filter((r) => !r.ok).length };
    },

    /** The events engine's `whitelistKindFor` hook: (companyId, module, data) → kind. */
    kindForEvent: kindForEvent(whitelistKindFor),

    whitelistKindFor,

    /** For bulk work (imports): the company's entries loaded once, matched in memory. */
    eventMatcher: (companyId: number) => loadEventMatcher(db, companyId),

    /** Background re-marking of events after changes (tests wait on `idle()`; the app closes it). */
    remarker,

    sweepExpired,

    /** Runs `sweepExpired` every `everyMs` in this process (ROLE=all|worker). */
    startExpirySweep(everyMs = 60_000): Poller {
      return startPoller({
        intervalMs: everyMs,
        run: sweepExpired,
        log: deps.log ?? { warn() {} },
        failure: 'whitelist expiry sweep failed',
      });
    },

    /** Like whitelistKindFor, with the entry that matched. */
    async matchEntry(companyId: number | null, subject: WhitelistSubject) {
      const c = subjectCandidates(subject);
      if (!hasCandidates(c)) return null;
      return (await repo.match(companyId, c)) ?? null;
    },
  };
}
export type WhitelistService = ReturnType<typeof createWhitelistService>;
