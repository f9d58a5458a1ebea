/*
 * «Отменить» (an operation of the events service over EventsDeps): puts back the fields a change set,
 * where they still hold what the change left.
 */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import type { Db } from '../../../db/client';
import { assertModule, type Caller } from '../../../lib/caller';
import type { EventRow, HistoryEntry } from '../events.repo';
import type { UndoField } from './change-words';
import type { Data } from './event-data';
import { assignRows } from './events.assign';
import type { EventsDeps, UndoItem } from './events.deps';
import { patchRow, wordsOf } from './events.writes';

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

/**
 * «Отменить»: each item (an event's field and the values a change set it from and to) goes back when
 * the field still holds what the change left; otherwise, or when the event is gone or no longer the
 * caller's to change, the event is skipped. History entries are `undo`; one audit entry.
 */
export async function restoreEvents(deps: EventsDeps, c: Caller, m: ModuleDescriptor, items: readonly UndoItem[], tx: Db) {
  assertModule(c, m.code);
  const byEvent = new Map<number, UndoItem[]>();
  for (const it of items) byEvent.set(it.eventId, [...(byEvent.get(it.eventId) ?? []), it]);
  const rows = await deps.repo.findByIdsForUpdate(m.code, [...byEvent.keys()], tx);
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
    if (Object.keys(body).length) all.push(...(await patchRow(deps, c, m, r, body, tx)));
  }
  for (const [to, rs] of assignTo) all.push(...(await assignRows(deps, c, m, rs, to, tx, false)));
  const undone = all.map((h) => ({ ...h, action: 'undo' as const }));
  await deps.repo.insertHistory(undone, tx);
  const ids = [...new Set(undone.map((h) => h.eventId))];
  const words = await wordsOf(
    deps,
    m,
    ids.map((id) => found.get(id) as EventRow),
    undone,
    tx,
  );
  await deps.audit.record(
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
}
