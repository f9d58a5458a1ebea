/*
 * The rules of writing an event, once for both writers: the events service (one event per request)
 * and the import (a batch of rows in one statement). A new event: its stored data, dedup key,
 * title, defaults and search text. A change: which fields are compared, the history rows it
 * records, and what it recomputes (fingerprint, search text, indicators, whether the whitelist mark
 * is looked up again). The repository (events.repo) writes the results; nothing here touches the database.
 */
import { indicatorsOf, type ModuleDescriptor } from '@forpost/contract/modules';
import { iso } from '../../../lib/serialize';
import type { EventRow, EventUpdate, HistoryEntry, NewEvent } from '../events.repo';
import { applyInput, type CardVault, type Data, fingerprintOf, historyValue, searchTextOf } from './event-data';

/** Who makes a write, as history and the author columns record it. */
export interface Actor {
  actorUserId: number | null;
  actorKeyId: number | null;
}

/** The common columns of an event (its module's fields live in `data`); `detectedAt` is ISO 8601 or null. */
export type EventColumns = Pick<
  NewEvent,
  'title' | 'statusId' | 'priorityId' | 'decisionId' | 'source' | 'mlState' | 'detectedAt' | 'tags'
>;

/** A stored event, as a change starts from it. */
export type StoredEvent = Pick<
  EventRow,
  | 'id'
  | 'company_id'
  | 'title'
  | 'status_id'
  | 'priority_id'
  | 'decision_id'
  | 'source'
  | 'ml_state'
  | 'whitelist_kind'
  | 'fingerprint'
  | 'tags'
  | 'data'
  | 'detected_at'
>;

/** The common columns of a stored event, in the form a change sets them. */
export const columnsOf = (r: StoredEvent): EventColumns => ({
  title: r.title,
  statusId: r.status_id,
  priorityId: r.priority_id,
  decisionId: r.decision_id,
  source: r.source,
  mlState: r.ml_state,
  detectedAt: iso(r.detected_at),
  tags: r.tags ?? [],
});

/** Two values are the same for history (JSON equality; undefined is null). */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const sortedInts = (a: readonly number[]) => [...a].sort((x, y) => x - y);

/** The common fields a change compares, in the order of their history rows (history field → value). */
const COMPARED: readonly (readonly [string, (c: EventColumns) => unknown])[] = [
  ['title', (c) => c.title],
  ['status_id', (c) => c.statusId],
  ['priority_id', (c) => c.priorityId],
  ['decision_id', (c) => c.decisionId],
  ['source', (c) => c.source],
  ['ml_state', (c) => c.mlState],
  ['detected_at', (c) => c.detectedAt],
  // Tags are a set: history shows them sorted, and an order change is no change.
  ['tags', (c) => sortedInts(c.tags)],
];

export interface EventChange {
  /** What the update writes, but the whitelist mark (see `whitelistAfter`). */
  row: Omit<EventUpdate, 'whitelistKind'>;
  /** The module's data changed: the fingerprint was recomputed and the whitelist mark must be. */
  moduleChanged: boolean;
  /** One `update` row per changed field: the common ones, then the module's in the descriptor's order. */
  history: HistoryEntry[];
}

/**
 * A change of a stored event to `columns` (its common columns after the change) and module `input`
 * (plain values; null clears a field). Null when it changes nothing: no write, no history.
 */
export function changeOf(
  m: ModuleDescriptor,
  vault: CardVault,
  before: StoredEvent,
  columns: EventColumns,
  input: Data,
  actor: Actor,
): EventChange | null {
  const moduleChanged = Object.keys(input).length > 0;
  const data = moduleChanged ? applyInput(m, before.data, input, vault) : before.data;
  const history: HistoryEntry[] = [];
  const compare = (field: string, a: unknown, b: unknown) => {
    if (!sameValue(a, b)) history.push({ eventId: before.id, ...actor, action: 'update', field, before: a, after: b });
  };
  const was = columnsOf(before);
  for (const [field, value] of COMPARED) compare(field, value(was), value(columns));
  for (const f of m.fields) if (f.key in input) compare(f.key, historyValue(f, before.data, f.key), historyValue(f, data, f.key));
  if (!history.length) return null;
  return {
    row: {
      ...columns,
      data,
      fingerprint: moduleChanged ? fingerprintOf(m, data) : before.fingerprint,
      searchText: searchTextOf(m, columns.title, data),
      indicators: indicatorsOf(m, data),
    },
    moduleChanged,
    history,
  };
}

/** The whitelist mark after a change: looked up again (`lookup`) only when the module's data changed. */
export async function whitelistAfter(
  change: EventChange,
  before: StoredEvent,
  lookup: (data: Data) => Promise<string | null>,
): Promise<string | null> {
  return change.moduleChanged ? lookup(change.row.data) : before.whitelist_kind;
}

/** A new event's stored data (derived fields, sealed cards) and dedup key, from its module input. */
export function newEventData(m: ModuleDescriptor, input: Data, vault: CardVault): { data: Data; fingerprint: string } {
  const data = applyInput(m, {}, input, vault);
  return { data, fingerprint: fingerprintOf(m, data) };
}

/** What a new event is given; the rest takes the defaults. */
export interface NewEventSpec {
  companyId: number;
  /** Module input, plain values. */
  input: Data;
  data: Data;
  fingerprint: string;
  title?: string;
  statusId?: number;
  priorityId?: number | null;
  decisionId?: number | null;
  source?: string;
  mlState?: string;
  tags?: readonly number[];
  detectedAt?: string | null;
}

/**
 * The title the module gives an event of this input: its descriptor's title over the input and what it
 * derives (a domain in Unicode, whatever spelling came in), else the module's name. Also what the titles
 * backfill re-titles old rows by (titles-backfill.ts).
 */
export function titleOf(m: ModuleDescriptor, input: Data): string {
  return (
    m
      .title({ ...input, ...(m.derive?.(input) ?? {}) })
      .trim()
      .slice(0, 500) || m.name
  );
}

/**
 * The row of a new event: the module's title of its input when none is given (its name when that is
 * empty), the module's initial status, source «Other», ML state «NotDetermined», the search text.
 */
export function newEventRow(
  m: ModuleDescriptor,
  e: NewEventSpec,
  meta: { initialStatus: number; whitelistKind: string | null; actor: Actor; importId: number | null },
): NewEvent {
  const title = e.title ?? titleOf(m, e.input);
  return {
    companyId: e.companyId,
    module: m.code,
    title,
    statusId: e.statusId ?? meta.initialStatus,
    priorityId: e.priorityId ?? null,
    decisionId: e.decisionId ?? null,
    source: e.source ?? 'Other',
    mlState: e.mlState ?? 'NotDetermined',
    whitelistKind: meta.whitelistKind,
    fingerprint: e.fingerprint,
    tags: [...new Set(e.tags ?? [])],
    data: e.data,
    searchText: searchTextOf(m, title, e.data),
    indicators: indicatorsOf(m, e.data),
    detectedAt: iso(e.detectedAt),
    authorId: meta.actor.actorUserId,
    authorKeyId: meta.actor.actorKeyId,
    importId: meta.importId,
  };
}

/** The history row of a created event (an imported one names its import). */
export function createdEntry(eventId: number, actor: Actor, title: string, importId: number | null = null): HistoryEntry {
  return {
    eventId,
    ...actor,
    action: 'create',
    field: null,
    after: importId === null ? { title } : { title, import_id: importId },
  };
}

/** An event's assignee as history records it: the user and the name they had then. */
export interface Assignee {
  id: number;
  name: string;
}

/**
 * The history row of an assignment (`assignee_id`: was → became, each `{id, name}` or null); null when
 * it changes nothing. The assignee is not part of `changeOf`: an import never sets it.
 */
export function assigneeEntry(
  eventId: number,
  before: Assignee | null,
  after: Assignee | null,
  actor: Actor,
): HistoryEntry | null {
  if ((before?.id ?? null) === (after?.id ?? null)) return null;
  return { eventId, ...actor, action: 'update', field: 'assignee_id', before, after };
}
