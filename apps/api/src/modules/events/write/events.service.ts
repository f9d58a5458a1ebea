/*
 * The generic event service: one implementation for every module descriptor. Tenant scope comes from
 * the caller's principal; every change is written to event_history field by field.
 */
import { API_MSG } from '@forpost/contract/errors';
import { COUNT_CAP, type EventHistoryItem, type EventListQuery, SEARCH_COUNT_CAP } from '@forpost/contract/events';
import { EVENT_MSG, hasDecisions, historyFieldLabel, type ModuleDescriptor, type RefList } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import type { Audit } from '../../../lib/audit';
import { assertModule, assertOn, type Caller, targetCompany } from '../../../lib/caller';
import type { DocStore } from '../../../lib/docstore';
import { ApiError, badRequest, notFound } from '../../../lib/errors';
import { iso, isUniqueViolation } from '../../../lib/serialize';
import { type NewNotification, notify } from '../../notifications/index';
import { slaView } from '../../sla/index';
import { createAssignment } from '../assignment/assignment';
import type { EventAttachmentRow, EventRow, EventsRepo, HistoryEntry, SearchStatusCounts } from '../events.repo';
import { afterCondition, and, KEYSET_SORTS, keysetCursor, orderBy, orderedSort } from '../list/events.query';
import { type ListCache, listCacheKey } from '../list/list-cache';
import { listFilter, listWhere } from '../list/list-filter';
import type { Refs } from '../refs/refs';
import { changeWords, tagIdsOf, type UndoField } from './change-words';
import {
  type Actor,
  type Assignee,
  assigneeEntry,
  changeOf,
  createdEntry,
  type EventColumns,
  newEventData,
  newEventRow,
  whitelistAfter,
} from './changes';
import { type CardVault, type Data, pickModuleInput, viewOf } from './event-data';
import type { CreateGuards, WhitelistKindFor } from './hooks';

export const MODULE_DISABLED_MSG = 'Этот модуль не подключён для компании';

/** Does a company with this list of enabled modules take events of `code`? (An empty list: every module.) */
export const moduleEnabled = (enabled: readonly string[] | null | undefined, code: string) =>
  !enabled?.length || enabled.includes(code);

/** The company (its enabled modules; null: no such company) exists and takes events of `code`. */
export function assertModuleEnabled(enabled: readonly string[] | null, code: string): void {
  if (!enabled) throw notFound(EVENT_MSG.companyNotFound);
  if (!moduleEnabled(enabled, code)) throw new ApiError(403, MODULE_DISABLED_MSG);
}

export interface EventsServiceDeps {
  db: Db;
  repo: EventsRepo;
  refs: Refs;
  audit: Audit;
  vault: CardVault;
  docstore: DocStore;
  whitelistKindFor: WhitelistKindFor;
  guards: CreateGuards;
  /** The list pages this instance answered, for a moment (list-cache.ts; LIST_CACHE_MS=0: none). */
  listCache: ListCache;
}

/** Who a caller is, as history and the author columns record it. */
const actorOf = (c: Caller): Actor => ({ actorUserId: c.actor.userId ?? null, actorKeyId: c.actor.keyId ?? null });
/** One field of one event as a change left it (what «Отменить» puts back). */
export interface UndoItem {
  eventId: number;
  field: UndoField;
  before: unknown;
  after: unknown;
}

/** The value of a field an undo item names, as history records it (tags sorted, the assignee by id). */
function currentOf(r: EventRow, field: UndoField): unknown {
  switch (field) {
    case 'status_id':
      return r.status_id;
    case 'priority_id':
      return r.priority_id;
    case 'decision_id':
      return r.decision_id;
    case 'assignee_id':
      return r.assignee_id;
    default:
      return [...(r.tags ?? [])].sort((a, b) => a - b);
  }
}
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const REF_TABLE: Record<RefList, 'media_types' | 'leak_types' | 'leaks'> = {
  media_types: 'media_types',
  leak_types: 'leak_types',
  leaks: 'leaks',
};

export function createEventsService(deps: EventsServiceDeps) {
  const { db, repo, refs, audit, vault, listCache } = deps;
  const assignment = createAssignment(db);

  /** Event as the API shows it (list item). */
  function toView(m: ModuleDescriptor, r: EventRow): Data {
    const v: Data = {
      id: r.id,
      module: r.module,
      company_id: r.company_id,
      company_name: r.company_name,
      title: r.title,
      status_id: r.status_id,
      priority_id: r.priority_id,
      source: r.source,
      ml_state: r.ml_state,
      whitelist_kind: r.whitelist_kind,
      tags: r.tags ?? [],
      detected_at: iso(r.detected_at),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      author_id: r.author_id,
      author_name: r.author_name,
      import_id: r.import_id,
      assignee_id: r.assignee_id ?? null,
      assignee_name: r.assignee_name ?? null,
      sla: slaView(r),
    };
    if (hasDecisions(m)) v.decision_id = r.decision_id;
    return viewOf(m, r.data ?? {}, v);
  }

  /** The card's view: the event, its comment count and its files. */
  const cardView = (m: ModuleDescriptor, r: EventRow, comments: number, atts: EventAttachmentRow[]): Data => {
    const v = toView(m, r);
    v.comments_count = comments;
    v.attachments = atts.map((a) => ({ ...a, size: Number(a.size), created_at: iso(a.created_at) }));
    return v;
  };

  /** The card of event `id` (one statement), or undefined. */
  async function detailOf(m: ModuleDescriptor, id: number, tx: Db = db): Promise<Data | undefined> {
    const r = await repo.findDetail(m.code, id, tx);
    if (!r) return undefined;
    const { comments_count, attachments, ...row } = r;
    return cardView(m, row, comments_count, attachments);
  }

  /** Loads an event of the module; 404 if absent or of a company the caller cannot read, 403 without `perm`. */
  async function load(
    c: Caller,
    m: ModuleDescriptor,
    id: number,
    perm: 'events.read' | 'events.write' | 'events.delete',
    tx: Db = db,
    forUpdate = false,
  ) {
    assertModule(c, m.code);
    const r = await repo.findById(m.code, id, tx, forUpdate);
    if (!r) throw notFound(EVENT_MSG.eventNotFound);
    assertOn(c, perm, r.company_id, EVENT_MSG.eventNotFound);
    return r;
  }

  /** Checks ids of statuses, priorities, decisions, tags and reference fields against their lists. */
  async function validateRefs(m: ModuleDescriptor, body: Data, moduleInput: Data): Promise<void> {
    const fields: Record<string, string> = {};
    if (typeof body.status_id === 'number' && !refs.isStatus(m.code, body.status_id)) fields.status_id = EVENT_MSG.unknownStatus;
    if (typeof body.priority_id === 'number' && !refs.isPriority(m.code, body.priority_id))
      fields.priority_id = EVENT_MSG.unknownPriority;
    if (typeof body.decision_id === 'number' && !refs.isDecision(m.code, body.decision_id))
      fields.decision_id = EVENT_MSG.unknownDecision;
    const tagIds = [...new Set([...((body.tags as number[]) ?? []), ...((body.tags_add as number[]) ?? [])])];
    if (tagIds.length) {
      const found = await repo.existingIds('tags', tagIds);
      if (tagIds.some((t) => !found.has(t))) fields[body.tags ? 'tags' : 'tags_add'] = EVENT_MSG.unknownTag;
    }
    for (const f of m.fields) {
      if (f.type !== 'ref' || !f.ref || typeof moduleInput[f.key] !== 'number') continue;
      const found = await repo.existingIds(REF_TABLE[f.ref], [moduleInput[f.key] as number]);
      if (!found.size) fields[f.key] = EVENT_MSG.unknownRef;
    }
    const first = Object.values(fields)[0];
    if (first) throw badRequest(Object.keys(fields).length === 1 ? first : API_MSG.validation, fields);
  }

  async function duplicate(companyId: number, m: ModuleDescriptor, fp: string, tx: Db = db): Promise<never> {
    const existing = await repo.idByFingerprint(companyId, m.code, fp, tx);
    throw new ApiError(
      409,
      existing ? `${EVENT_MSG.duplicate} (№${existing})` : EVENT_MSG.duplicate,
      existing ? { id: existing } : undefined,
    );
  }

  /** Applies a validated patch body to a locked row; returns the history entries (nothing written yet). */
  async function patchRow(c: Caller, m: ModuleDescriptor, r: EventRow, body: Data, tx: Db): Promise<HistoryEntry[]> {
    const input = pickModuleInput(m, body);
    await validateRefs(m, body, input);
    let tags = r.tags ?? [];
    if (Array.isArray(body.tags)) tags = [...new Set(body.tags as number[])];
    if (Array.isArray(body.tags_add)) tags = [...new Set([...tags, ...(body.tags_add as number[])])];
    if (Array.isArray(body.tags_remove)) tags = tags.filter((t) => !(body.tags_remove as number[]).includes(t));
    const columns: EventColumns = {
      title: (body.title as string | undefined) ?? r.title,
      statusId: (body.status_id as number | undefined) ?? r.status_id,
      priorityId: body.priority_id === undefined ? r.priority_id : (body.priority_id as number | null),
      decisionId: body.decision_id === undefined ? r.decision_id : (body.decision_id as number | null),
      source: (body.source as string | undefined) ?? r.source,
      mlState: (body.ml_state as string | undefined) ?? r.ml_state,
      detectedAt: body.detected_at === undefined ? iso(r.detected_at) : iso(body.detected_at as string | null),
      tags,
    };
    const change = changeOf(m, vault, r, columns, input, actorOf(c));
    if (!change) return [];
    const whitelistKind = await whitelistAfter(change, r, (data) => deps.whitelistKindFor(r.company_id, m.code, data));
    try {
      // A savepoint: a duplicate fingerprint refuses this change, not the caller's whole transaction.
      await tx.transaction((sp) => repo.update(r.id, { ...change.row, whitelistKind }, sp));
    } catch (e) {
      if (!isUniqueViolation(e, 'events_fingerprint_uq')) throw e;
      return duplicate(r.company_id, m, change.row.fingerprint, tx);
    }
    return change.history;
  }

  /**
   * Sets the assignee of locked rows (`assigneeId` undefined: the body does not assign; null: unassigns).
   * The assignee must see every one of them (400 otherwise). One UPDATE, one audit entry and one
   * notification for the assignee (unless they assign themselves); returns the history rows.
   */
  async function assignRows(
    c: Caller,
    m: ModuleDescriptor,
    rows: readonly EventRow[],
    assigneeId: number | null | undefined,
    tx: Db,
    /** false: the caller writes its own audit entry (an undo). */
    audited = true,
  ): Promise<HistoryEntry[]> {
    if (assigneeId === undefined) return [];
    const to: Assignee | null =
      assigneeId === null
        ? null
        : await assignment.assignee(
            c,
            assigneeId,
            rows.map((r) => ({ companyId: r.company_id, module: m.code })),
            tx,
          );
    const changed = rows.filter((r) => (r.assignee_id ?? null) !== (to?.id ?? null));
    if (!changed.length) return [];
    await repo.setAssignee(
      changed.map((r) => r.id),
      to?.id ?? null,
      tx,
    );
    const history = changed.flatMap((r) => {
      const was = r.assignee_id === null ? null : { id: r.assignee_id, name: r.assignee_name ?? '' };
      const h = assigneeEntry(r.id, was, to, actorOf(c));
      return h ? [h] : [];
    });
    const one = changed.length === 1 ? changed[0] : undefined;
    if (audited)
      await audit.record(
        c.actor,
        {
          action: 'event.assign',
          entity: `event.${m.code}`,
          ...(one ? { entityId: one.id, companyId: one.company_id } : {}),
          meta: { ids: changed.map((r) => r.id), assignee_id: to?.id ?? null, assignee_name: to?.name ?? null },
        },
        tx,
      );
    if (to && to.id !== c.actor.userId) await notify(tx, [assignedNotice(c, m, changed, to.id)]);
    return history;
  }

  /** The assignee's notification: the event itself, or for many at once one summary (the «Мои события» page). */
  function assignedNotice(c: Caller, m: ModuleDescriptor, rows: readonly EventRow[], userId: number): NewNotification {
    const first = rows[0] as EventRow;
    const companies = new Set(rows.map((r) => r.company_id));
    const who = c.auth.user.name;
    return {
      userId,
      kind: 'assigned',
      eventId: rows.length === 1 ? first.id : null,
      companyId: companies.size === 1 ? first.company_id : null,
      module: m.code,
      text:
        rows.length === 1
          ? `${who} назначил(а) вам событие №${first.id} «${first.title}» (${m.name})`
          : `${who} назначил(а) вам событий: ${rows.length} (${m.name})`,
      actorId: c.actor.userId ?? null,
    };
  }

  /**
   * The words of a change for its audit entry: the module, the company (when the events are of one) and
   * what changed, «Статус: Новое → В работе; теги: +«Фишинг»».
   */
  async function wordsOf(m: ModuleDescriptor, rows: readonly EventRow[], entries: readonly HistoryEntry[], tx: Db) {
    const companies = [...new Set(rows.map((r) => r.company_id))];
    const one = companies.length === 1 ? rows[0] : undefined;
    const change = changeWords(m, refs, entries, await repo.tagNames(tagIdsOf(entries), tx));
    return {
      companyId: one ? one.company_id : null,
      meta: {
        module: m.code,
        module_name: m.name,
        company_name: one ? one.company_name : null,
        change,
        summary: `${m.name}${one ? `, ${one.company_name}` : ''}: ${change || 'без изменений'}`,
      },
    };
  }

  /** Rows of a batch, all or nothing: any id absent or unreadable → 404, any without the right → 403. */
  async function lockBatch(c: Caller, m: ModuleDescriptor, ids: number[], perm: 'events.write' | 'events.delete', tx: Db) {
    assertModule(c, m.code);
    const unique = [...new Set(ids)];
    const rows = await repo.findByIdsForUpdate(m.code, unique, tx);
    const p = c.auth.principal;
    const visible = new Map(rows.filter((r) => can(p, 'events.read', r.company_id)).map((r) => [r.id, r]));
    const missing = unique.filter((id) => !visible.has(id));
    if (missing.length) throw new ApiError(404, EVENT_MSG.batchNotFound, { ids: missing });
    const denied = rows.filter((r) => !can(p, perm, r.company_id)).map((r) => r.id);
    if (denied.length) throw new ApiError(403, EVENT_MSG.batchForbidden, { ids: denied });
    return rows;
  }

  async function removeRows(c: Caller, m: ModuleDescriptor, rows: EventRow[], tx: Db): Promise<string[]> {
    const ids = rows.map((r) => r.id);
    const docsOf = await repo.docKeysOfEvents(ids, tx);
    await repo.deleteDocs(
      docsOf.map((d) => d.id),
      tx,
    );
    await repo.deleteByIds(ids, tx);
    for (const r of rows) {
      await audit.record(
        c.actor,
        { action: 'event.delete', entity: `event.${m.code}`, entityId: r.id, companyId: r.company_id, before: toView(m, r) },
        tx,
      );
    }
    return docsOf.map((d) => d.storage_key);
  }

  /** GET …/events/{id}: the card in one statement, then the caller's right to its company. */
  async function get(c: Caller, m: ModuleDescriptor, id: number) {
    assertModule(c, m.code);
    const r = await detailOf(m, id);
    if (!r) throw notFound(EVENT_MSG.eventNotFound);
    assertOn(c, 'events.read', r.company_id as number, EVENT_MSG.eventNotFound);
    return r;
  }

  const dropFiles = async (keys: string[]) => {
    for (const k of keys) await deps.docstore.delete(k).catch(() => undefined);
  };

  /** One page of the list, its total and, when asked, its per-status counts (list() keeps it for a moment). */
  async function listPage(c: Caller, m: ModuleDescriptor, q: EventListQuery) {
    const page = q.page;
    const pageSize = q.page_size;
    const f = await listFilter(c, m, q, { vault, resolveQuery: repo.resolveQuery });
    if (!f) return { items: [], total: 0, page, page_size: pageSize, total_capped: false };
    const { base, own, text, anyRule, rules, searching } = f;
    const where = listWhere(f);
    const ruleCase = rules
      ? sql`CASE ${sql.join(
          rules.conds.map((rc, i) => sql`WHEN ${rc} THEN ${i}`),
          sql` `,
        )} END`
      : undefined;
    const cap = searching ? SEARCH_COUNT_CAP : COUNT_CAP;
    // Keyset paging: the page after the cursor's event (`page` is then ignored).
    const after = q.after === undefined ? undefined : afterCondition(q.sort, q.after);
    const offset = after ? 0 : (page - 1) * pageSize;
    // A free-text search in an indexed order: page, count and per-status counts by the search plan
    // (events.repo searchList).
    const search =
      text && orderedSort(q.sort) && !after
        ? repo.searchList({
            base: and(base),
            filter: and([...own, ...anyRule]),
            text,
            order: orderBy(m, q.sort),
            limit: pageSize,
            offset,
            ruleCase,
            cap,
            statusWhere: q.status_counts ? and([...f.ownButStatus, ...anyRule]) : undefined,
            byStatus: f.own.length !== f.ownButStatus.length,
          })
        : undefined;
    const pageQuery: Promise<{ rows: EventRow[]; counted: number; statusCounts?: SearchStatusCounts }> =
      search ??
      repo.list({
        where,
        order: orderBy(m, q.sort),
        limit: pageSize,
        offset,
        cap,
        ruleCase,
        after,
        prepared: !text && offset === 0,
      });
    const [{ rows, counted, statusCounts: searchStatusCounts }, listStatusCounts] = await Promise.all([
      pageQuery,
      !q.status_counts || search
        ? undefined
        : searching
          ? // A search reads at most cap + 1 matches, then gives up the per-status numbers.
            repo.statusCounts({ where: and([...base, ...f.ownButStatus, ...(text ? [text] : []), ...anyRule]), cap })
          : // A list counts each status up to the cap (an index walk per status).
            repo
              .statusCountsPerStatus({ module: m.code, where: and([...base, ...f.ownButStatus, ...anyRule]), cap })
              .then((items) => ({ items, capped: false })),
    ]);
    const statusCounts = searchStatusCounts ?? listStatusCounts;
    return {
      items: rows.map((r) => toView(m, r)),
      total: Math.min(counted, cap),
      page,
      page_size: pageSize,
      total_capped: counted > cap,
      ...(KEYSET_SORTS.includes(q.sort)
        ? { next_cursor: rows.length === pageSize ? keysetCursor(rows[rows.length - 1] as EventRow) : null }
        : {}),
      ...(statusCounts ? { status_counts: statusCounts.items, status_counts_capped: statusCounts.capped } : {}),
      ...(rules
        ? {
            rules: rules.raw,
            rules_map: rows.filter((r) => r.rule_index != null).map((r) => ({ item_id: r.id, rule_index: Number(r.rule_index) })),
          }
        : {}),
    };
  }
  type ListPage = Awaited<ReturnType<typeof listPage>>;

  return {
    toView,
    load,
    assignment,

    /**
     * A page of the module's list: the same page for the same scope and query is answered from this
     * instance's memory until any change of events, users or companies (list-cache.ts).
     */
    async list(c: Caller, m: ModuleDescriptor, q: EventListQuery) {
      const key = listCacheKey(c, m, q);
      // The page and its list of items are frozen; the items themselves are not: Object.freeze on 20
      // objects of ~30 fields cost 0.35 ms a page (half of what reading it costs), and nothing after
      // list() writes to them — the route only serializes them.
      return (await listCache.through(key, async () => {
        const p = await listPage(c, m, q);
        Object.freeze(p.items);
        return Object.freeze(p);
      })) as ListPage;
    },

    get,

    /** `opts.tx`: create inside the caller's transaction (a savepoint), e.g. with the caller's audit entry. */
    async create(c: Caller, m: ModuleDescriptor, body: Data, opts: { importId?: number; tx?: Db } = {}) {
      assertModule(c, m.code);
      const companyId = targetCompany(c, 'events.write', body.company_id as number | undefined);
      assertModuleEnabled(await repo.companyModules(companyId), m.code);
      const input = pickModuleInput(m, body);
      await validateRefs(m, body, input);
      const { data, fingerprint } = newEventData(m, input, vault);
      const actor = actorOf(c);
      const row = newEventRow(
        m,
        {
          companyId,
          input,
          data,
          fingerprint,
          title: body.title as string | undefined,
          statusId: body.status_id as number | undefined,
          priorityId: body.priority_id as number | null | undefined,
          decisionId: body.decision_id as number | null | undefined,
          source: body.source as string | undefined,
          mlState: body.ml_state as string | undefined,
          tags: body.tags as number[] | undefined,
          detectedAt: body.detected_at as string | null | undefined,
        },
        {
          initialStatus: refs.initialStatus(m.code),
          whitelistKind: await deps.whitelistKindFor(companyId, m.code, data),
          actor,
          importId: opts.importId ?? null,
        },
      );
      const id = await (opts.tx ?? db).transaction(async (tx) => {
        for (const g of deps.guards[m.code] ?? []) await g({ companyId, module: m.code, data, tx });
        const newId = await repo.insert(row, tx);
        if (newId === null) return duplicate(companyId, m, fingerprint, tx);
        await repo.insertHistory([createdEntry(newId, actor, row.title)], tx);
        return newId;
      });
      const r = await detailOf(m, id, opts.tx ?? db);
      if (!r) throw notFound(EVENT_MSG.eventNotFound);
      return r;
    },

    async patch(c: Caller, m: ModuleDescriptor, id: number, body: Data) {
      await db.transaction(async (tx) => {
        const r = await load(c, m, id, 'events.write', tx, true);
        const changes = await patchRow(c, m, r, body, tx);
        const assigned = await assignRows(c, m, [r], body.assignee_id as number | null | undefined, tx);
        await repo.insertHistory([...changes, ...assigned], tx);
      });
      return get(c, m, id);
    },

    async remove(c: Caller, m: ModuleDescriptor, id: number) {
      const keys = await db.transaction(async (tx) => {
        const r = await load(c, m, id, 'events.delete', tx, true);
        return removeRows(c, m, [r], tx);
      });
      await dropFiles(keys);
    },

    lockBatch,
    /** 400 in the error shape when a body names a status, priority, decision, tag or reference value that does not exist. */
    validateRefs,

    /**
     * All or nothing: one id that is not the caller's to change refuses the whole batch. `outer`: inside
     * the caller's transaction (a savepoint), e.g. a bulk job's chunk with its progress.
     */
    async batchPatch(c: Caller, m: ModuleDescriptor, ids: number[], patch: Data, outer: Db = db) {
      const done = await outer.transaction(async (tx) => {
        const rows = await lockBatch(c, m, ids, 'events.write', tx);
        const all: HistoryEntry[] = [];
        for (const r of rows) all.push(...(await patchRow(c, m, r, patch, tx)));
        all.push(...(await assignRows(c, m, rows, patch.assignee_id as number | null | undefined, tx)));
        await repo.insertHistory(all, tx);
        const words = await wordsOf(m, rows, all, tx);
        await audit.record(
          c.actor,
          {
            action: 'event.batch_update',
            entity: `event.${m.code}`,
            companyId: words.companyId,
            meta: { ...words.meta, ids: rows.map((r) => r.id), patch },
          },
          tx,
        );
        return { ids: rows.map((r) => r.id), history: all, words };
      });
      return { ids: done.ids, count: done.ids.length, history: done.history, words: done.words };
    },

    /**
     * «Отменить»: each item (an event's field and the values a change set it from and to) goes back when
     * the field still holds what the change left; otherwise, or when the event is gone or no longer the
     * caller's to change, the event is skipped. History entries are `undo`; one audit entry.
     */
    async restore(c: Caller, m: ModuleDescriptor, items: readonly UndoItem[], tx: Db) {
      assertModule(c, m.code);
      const byEvent = new Map<number, UndoItem[]>();
      for (const it of items) byEvent.set(it.eventId, [...(byEvent.get(it.eventId) ?? []), it]);
      const rows = await repo.findByIdsForUpdate(m.code, [...byEvent.keys()], tx);
      const found = new Map(rows.map((r) => [r.id, r]));
      const p = c.auth.principal;
      const all: HistoryEntry[] = [];
      const assignTo = new Map<number | null, EventRow[]>();
      let skipped = 0;
      for (const [id, its] of byEvent) {
        const r = found.get(id);
        if (!r || !can(p, 'events.write', r.company_id)) {
          skipped++;
          continue;
        }
        const body: Data = {};
        let partial = false;
        for (const it of its) {
          if (!sameValue(currentOf(r, it.field), it.after)) {
            partial = true;
            continue;
          }
          if (it.field === 'assignee_id')
            assignTo.set(it.before as number | null, [...(assignTo.get(it.before as number | null) ?? []), r]);
          else body[it.field] = it.before;
        }
        if (partial) skipped++;
        if (Object.keys(body).length) all.push(...(await patchRow(c, m, r, body, tx)));
      }
      for (const [to, rs] of assignTo) all.push(...(await assignRows(c, m, rs, to, tx, false)));
      const undone = all.map((h) => ({ ...h, action: 'undo' as const }));
      await repo.insertHistory(undone, tx);
      const ids = [...new Set(undone.map((h) => h.eventId))];
      const words = await wordsOf(
        m,
        ids.map((id) => found.get(id) as EventRow),
        undone,
        tx,
      );
      await audit.record(
        c.actor,
        {
          action: 'event.undo',
          entity: `event.${m.code}`,
          companyId: words.companyId,
          meta: { ...words.meta, ids, skipped },
        },
        tx,
      );
      return { ids, restored: ids.length, skipped };
    },

    /** As batchPatch; the files go once the rows are gone (with `outer`: before it commits). */
    async batchDelete(c: Caller, m: ModuleDescriptor, ids: number[], outer: Db = db) {
      const { done, keys } = await outer.transaction(async (tx) => {
        const rows = await lockBatch(c, m, ids, 'events.delete', tx);
        const keys = await removeRows(c, m, rows, tx);
        return { done: rows.map((r) => r.id), keys };
      });
      await dropFiles(keys);
      return { ids: done, count: done.length };
    },

    async history(c: Caller, m: ModuleDescriptor, id: number): Promise<{ items: EventHistoryItem[] }> {
      await load(c, m, id, 'events.read');
      const rows = await repo.history(id);
      return {
        items: rows.map((h) => ({
          id: h.id,
          at: iso(h.at) as string,
          action: h.action,
          field: h.field,
          field_label: h.field ? historyFieldLabel(m, h.field) : null,
          before: h.before ?? null,
          after: h.after ?? null,
          actor_id: h.actor_id,
          actor_name: h.actor_name,
        })),
      };
    },

    /** Writes history entries of an extra (actions, links) for an event the caller may write. */
    async recordHistory(
      c: Caller,
      eventId: number,
      entries: Omit<HistoryEntry, 'eventId' | 'actorUserId' | 'actorKeyId'>[],
      tx: Db = db,
    ) {
      return repo.insertHistory(
        entries.map((e) => ({ ...e, eventId, ...actorOf(c) })),
        tx,
      );
    },

    /** The clear card number, for callers with events.card_reveal in the event's company; audited. */
    async reveal(c: Caller, m: ModuleDescriptor, id: number) {
      const r = await load(c, m, id, 'events.read');
      if (!can(c.auth.principal, 'events.card_reveal', r.company_id)) throw new ApiError(403, API_MSG.forbidden);
      const f = m.fields.find((x) => x.sensitive === 'card');
      const sealed = f ? r.data[f.key] : undefined;
      if (!f || typeof sealed !== 'string') throw notFound(EVENT_MSG.noCard);
      const clear = vault.open(sealed);
      await audit.record(c.actor, {
        action: 'event.card_reveal',
        entity: `event.${m.code}`,
        entityId: r.id,
        companyId: r.company_id,
        meta: { mask: r.data[`${f.key}_mask`] },
      });
      return { card_number: clear };
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
