/*
 * Reading events (the events service's operations over EventsDeps): the API's view of a row, the card,
 * loading with the caller's rights, the history and the card number's reveal.
 */
import { API_MSG } from '@forpost/contract/errors';
import type { EventHistoryItem } from '@forpost/contract/events';
import { EVENT_MSG, hasDecisions, historyFieldLabel, type ModuleDescriptor } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import type { Db } from '../../../db/client';
import { assertModule, assertOn, type Caller } from '../../../lib/caller';
import { ApiError, notFound } from '../../../lib/errors';
import { iso } from '../../../lib/serialize';
import { slaView } from '../../sla/index';
import type { EventAttachmentRow, EventRow } from '../events.repo';
import { type Data, viewOf } from './event-data';
import type { EventsDeps } from './events.deps';

/** Event as the API shows it (list item). */
export function toView(m: ModuleDescriptor, r: EventRow): Data {
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
function cardView(m: ModuleDescriptor, r: EventRow, comments: number, atts: EventAttachmentRow[]): Data {
  const v = toView(m, r);
  v.comments_count = comments;
  v.attachments = atts.map((a) => ({ ...a, size: Number(a.size), created_at: iso(a.created_at) }));
  return v;
}

/** The card of event `id` (one statement), or undefined. */
export async function detailOf(deps: EventsDeps, m: ModuleDescriptor, id: number, tx: Db = deps.db): Promise<Data | undefined> {
  const r = await deps.repo.findDetail(m.code, id, tx);
  if (!r) return undefined;
  const { comments_count, attachments, ...row } = r;
  return cardView(m, row, comments_count, attachments);
}

/** Loads an event of the module; 404 if absent or of a company the caller cannot read, 403 without `perm`. */
export async function load(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  id: number,
  perm: 'events.read' | 'events.write' | 'events.delete',
  tx: Db = deps.db,
  forUpdate = false,
) {
  assertModule(c, m.code);
  const r = await deps.repo.findById(m.code, id, tx, forUpdate);
  if (!r) throw notFound(EVENT_MSG.eventNotFound);
  assertOn(c, perm, r.company_id, EVENT_MSG.eventNotFound);
  return r;
}

/** GET …/events/{id}: the card in one statement, then the caller's right to its company. */
export async function getEvent(deps: EventsDeps, c: Caller, m: ModuleDescriptor, id: number) {
  assertModule(c, m.code);
  const r = await detailOf(deps, m, id);
  if (!r) throw notFound(EVENT_MSG.eventNotFound);
  assertOn(c, 'events.read', r.company_id as number, EVENT_MSG.eventNotFound);
  return r;
}

/** The event's history, newest first, with each field's label. */
export async function eventHistory(
  deps: EventsDeps,
  c: Caller,
  m: ModuleDescriptor,
  id: number,
): Promise<{ items: EventHistoryItem[] }> {
  await load(deps, c, m, id, 'events.read');
  const rows = await deps.repo.history(id);
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
}

/** The clear card number, for callers with events.card_reveal in the event's company; audited. */
export async function revealCard(deps: EventsDeps, c: Caller, m: ModuleDescriptor, id: number) {
  const r = await load(deps, c, m, id, 'events.read');
  if (!can(c.auth.principal, 'events.card_reveal', r.company_id)) throw new ApiError(403, API_MSG.forbidden);
  const f = m.fields.find((x) => x.sensitive === 'card');
  const sealed = f ? r.data[f.key] : undefined;
  if (!f || typeof sealed !== 'string') throw notFound(EVENT_MSG.noCard);
  const clear = deps.vault.open(sealed);
  await deps.audit.record(c.actor, {
    action: 'event.card_reveal',
    entity: `event.${m.code}`,
    entityId: r.id,
    companyId: r.company_id,
    meta: { mask: r.data[`${f.key}_mask`] },
  });
  return { card_number: clear };
}
