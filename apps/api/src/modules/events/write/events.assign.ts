/*
 * Assigning events (an operation of the events service over EventsDeps, used by patch, batch and
 * undo): the assignee is checked by the assignment rules, one UPDATE, one audit entry, one notice.
 */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import type { Caller } from '../../../lib/caller';
import { type NewNotification, notify } from '../../notifications/index';
import type { EventRow, HistoryEntry } from '../events.repo';
import { type Assignee, assigneeEntry } from './changes';
import { actorOf, type EventsDeps } from './events.deps';

/**
 * Sets the assignee of locked rows (`assigneeId` undefined: the body does not assign; null: unassigns).
 * The assignee must see every one of them (400 otherwise). One UPDATE, one audit entry and one
 * notification for the assignee (unless they assign themselves); returns the history rows.
 */
export async function assignRows(
  deps: EventsDeps,
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
      : await deps.assignment.assignee(
          c,
          assigneeId,
          rows.map((r) => ({ companyId: r.company_id, module: m.code })),
          tx,
        );
  const changed = rows.filter((r) => (r.assignee_id ?? null) !== (to?.id ?? null));
  if (!changed.length) return [];
  await deps.repo.setAssignee(
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
    await deps.audit.record(
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
