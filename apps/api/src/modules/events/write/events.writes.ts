/*
 * Writing events (the events service's operations over EventsDeps): create, patch and delete one, a
 * batch all or nothing, and the checks and words they share. Every change is written to event_history
 * field by field; batch changes and deletions record their audit entry in the same transaction.
 */
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG, type ModuleDescriptor, type RefList } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import type { Db } from '../../../db/client';
import { assertModule, type Caller, targetCompany } from '../../../lib/caller';
import { ApiError, badRequest, notFound } from '../../../lib/errors';
import { iso, isUniqueViolation } from '../../../lib/serialize';
import type { EventRow, HistoryEntry } from '../events.repo';
import { changeWords, tagIdsOf } from './change-words';
import { changeOf, createdEntry, type EventColumns, newEventData, newEventRow, whitelistAfter } from './changes';
import { type Data, pickModuleInput } from './event-data';
import { assignRows } from './events.assign';
import { actorOf, assertModuleEnabled, type EventsDeps } from './events.deps';
import { detailOf, getEvent, load, toView } from './events.reads';

const REF_TABLE: Record<RefList, 'media_types' | 'leak_types' | 'leaks'> = {
  media_types: 'media_types',
  leak_types: 'leak_types',
  leaks: 'leaks',
};

/** 400 in the error shape when a body names a status, priority, decision, tag or reference value that does not exist. */
export async function validateRefs(deps: EventsDeps, m: ModuleDescriptor, body: Data, moduleInput: Data): Promise<void> {
  const { refs, repo } = deps;
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
    if (!f.ref || typeof moduleInput[f.key] !== 'number') continue;
    const found = await repo.existingIds(REF_TABLE[f.ref], [moduleInput[f.key] as number]);
    if (!found.size) fields[f.key] = EVENT_MSG.unknownRef;
  }
  const first = Object.values(fields)[0];
  if (first) throw badRequest(Object.keys(fields).length === 1 ? first : API_MSG.validation, fields);
}

/** 409: an event of the same fingerprint exists (with its number when the caller's transaction sees it). */
async function duplicate(deps: EventsDeps, companyId: number, m: ModuleDescriptor, fp: string, tx: Db = deps.db): Promise<never> {
  const existing = await deps.repo.idByFingerprint(companyId, m.code, fp, tx);
  throw new ApiError(
    409,
    existing ? `${EVENT_MSG.duplicate} (№${existing})` : EVENT_MSG.duplicate,
    existing ? { id: existing } : undefined,
  );
}

/** Applies a validated patch body to a locked row; returns the history entries (nothing written yet). */
export async function patchRow(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  r: EventRow,
  body: Data,
  tx: Db,
): Promise<HistoryEntry[]> {
  const input = pickModuleInput(m, body);
  await validateRefs(deps, m, body, input);
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
  const change = changeOf(m, deps.vault, r, columns, input, actorOf(c));
  if (!change) return [];
  const whitelistKind = await whitelistAfter(change, r, (data) => deps.whitelistKindFor(r.company_id, m.code, data));
  try {
    // A savepoint: a duplicate fingerprint refuses this change, not the caller's whole transaction.
    await tx.transaction((sp) => deps.repo.update(r.id, { ...change.row, whitelistKind }, sp));
  } catch (e) {
    if (!isUniqueViolation(e, 'events_fingerprint_uq')) throw e;
    return duplicate(deps, r.company_id, m, change.row.fingerprint, tx);
  }
  return change.history;
}

/**
 * The words of a change for its audit entry: the module, the company (when the events are of one) and
 * what changed, «Статус: Новое → В работе; теги: +«Фишинг»».
 */
export async function wordsOf(
  deps: EventsDeps,
  m: ModuleDescriptor,
  rows: readonly EventRow[],
  entries: readonly HistoryEntry[],
  tx: Db,
) {
  const companies = [...new Set(rows.map((r) => r.company_id))];
  const one = companies.length === 1 ? rows[0] : undefined;
  const change = changeWords(m, deps.refs, entries, await deps.repo.tagNames(tagIdsOf(entries), tx));
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
export async function lockBatch(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  ids: number[],
  perm: 'events.write' | 'events.delete',
  tx: Db,
) {
  assertModule(c, m.code);
  const unique = [...new Set(ids)];
  const rows = await deps.repo.findByIdsForUpdate(m.code, unique, tx);
  const p = c.auth.principal;
  const visible = new Map(rows.filter((r) => can(p, 'events.read', r.company_id)).map((r) => [r.id, r]));
  const missing = unique.filter((id) => !visible.has(id));
  if (missing.length) throw new ApiError(404, EVENT_MSG.batchNotFound, { ids: missing });
  const denied = rows.filter((r) => !can(p, perm, r.company_id)).map((r) => r.id);
  if (denied.length) throw new ApiError(403, EVENT_MSG.batchForbidden, { ids: denied });
  return rows;
}

/** Deletes locked rows with their files' records and one audit entry each; returns the files' storage keys. */
async function removeRows(deps: EventsDeps, c: Caller, m: ModuleDescriptor, rows: EventRow[], tx: Db): Promise<string[]> {
  const { repo } = deps;
  const ids = rows.map((r) => r.id);
  const docsOf = await repo.docKeysOfEvents(ids, tx);
  await repo.deleteDocs(
    docsOf.map((d) => d.id),
    tx,
  );
  await repo.deleteByIds(ids, tx);
  for (const r of rows) {
    await deps.audit.record(
      c.actor,
      { action: 'event.delete', entity: `event.${m.code}`, entityId: r.id, companyId: r.company_id, before: toView(m, r) },
      tx,
    );
  }
  return docsOf.map((d) => d.storage_key);
}

/** The stored files of deleted events (a file that cannot be removed stays behind, the event is gone). */
async function dropFiles(deps: EventsDeps, keys: string[]) {
  for (const k of keys) await deps.docstore.delete(k).catch(() => undefined);
}

/** `opts.tx`: create inside the caller's transaction (a savepoint), e.g. with the caller's audit entry. */
export async function createEvent(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  body: Data,
  opts: { importId?: number; tx?: Db } = {},
) {
  const { db, repo } = deps;
  assertModule(c, m.code);
  const companyId = targetCompany(c, 'events.write', body.company_id as number | undefined);
  assertModuleEnabled(await repo.companyModules(companyId), m.code);
  const input = pickModuleInput(m, body);
  await validateRefs(deps, m, body, input);
  const { data, fingerprint } = newEventData(m, input, deps.vault);
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
      initialStatus: deps.refs.initialStatus(m.code),
      whitelistKind: await deps.whitelistKindFor(companyId, m.code, data),
      actor,
      importId: opts.importId ?? null,
    },
  );
  const id = await (opts.tx ?? db).transaction(async (tx) => {
    for (const g of deps.guards[m.code] ?? []) await g({ companyId, module: m.code, data, tx });
    const newId = await repo.insert(row, tx);
    if (newId === null) return duplicate(deps, companyId, m, fingerprint, tx);
    await repo.insertHistory([createdEntry(newId, actor, row.title)], tx);
    return newId;
  });
  const r = await detailOf(deps, m, id, opts.tx ?? db);
  if (!r) throw notFound(EVENT_MSG.eventNotFound);
  return r;
}

export async function patchEvent(deps: EventsDeps, c: Caller, m: ModuleDescriptor, id: number, body: Data) {
  await deps.db.transaction(async (tx) => {
    const r = await load(deps, c, m, id, 'events.write', tx, true);
    const changes = await patchRow(deps, c, m, r, body, tx);
    const assigned = await assignRows(deps, c, m, [r], body.assignee_id as number | null | undefined, tx);
    await deps.repo.insertHistory([...changes, ...assigned], tx);
  });
  return getEvent(deps, c, m, id);
}

export async function removeEvent(deps: EventsDeps, c: Caller, m: ModuleDescriptor, id: number) {
  const keys = await deps.db.transaction(async (tx) => {
    const r = await load(deps, c, m, id, 'events.delete', tx, true);
    return removeRows(deps, c, m, [r], tx);
  });
  await dropFiles(deps, keys);
}

/**
 * All or nothing: one id that is not the caller's to change refuses the whole batch. `outer`: inside
 * the caller's transaction (a savepoint), e.g. a bulk job's chunk with its progress.
 */
export async function batchPatch(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  ids: number[],
  patch: Data,
  outer: Db = deps.db,
) {
  const done = await outer.transaction(async (tx) => {
    const rows = await lockBatch(deps, c, m, ids, 'events.write', tx);
    const all: HistoryEntry[] = [];
    for (const r of rows) all.push(...(await patchRow(deps, c, m, r, patch, tx)));
    all.push(...(await assignRows(deps, c, m, rows, patch.assignee_id as number | null | undefined, tx)));
    await deps.repo.insertHistory(all, tx);
    const words = await wordsOf(deps, m, rows, all, tx);
    await deps.audit.record(
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
}

/** As batchPatch; the files go once the rows are gone (with `outer`: before it commits). */
export async function batchDelete(deps: EventsDeps, c: Caller, m: ModuleDescriptor, ids: number[], outer: Db = deps.db) {
  const { done, keys } = await outer.transaction(async (tx) => {
    const rows = await lockBatch(deps, c, m, ids, 'events.delete', tx);
    const keys = await removeRows(deps, c, m, rows, tx);
    return { done: rows.map((r) => r.id), keys };
  });
  await dropFiles(deps, keys);
  return { ids: done, count: done.length };
}

/** Writes history entries of an extra (actions, links) for an event the caller may write. */
export async function recordHistory(
  deps: EventsDeps,
  c: Caller,
  eventId: number,
  entries: Omit<HistoryEntry, 'eventId' | 'actorUserId' | 'actorKeyId'>[],
  tx: Db = deps.db,
) {
  return deps.repo.insertHistory(
    entries.map((e) => ({ ...e, eventId, ...actorOf(c) })),
    tx,
  );
}
