/*
 * Writing a batch of event records in the job's transaction, a round of unique keys at a time:
 * the existing events of the round are locked and changed (or skipped), the new ones inserted, and
 * the history of both written — by the rules of events/changes.ts and the statements of events.repo,
 * as the events service writes one event.
 */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import type {
  CardVault,
  CreateGuards,
  EventsRepo,
  EventUpdate,
  HistoryEntry,
  NewEvent,
  Refs,
  WhitelistKindFor,
} from '../events/index';
import {
  type Actor,
  changeOf,
  columnsOf,
  createdEntry,
  type EventColumns,
  newEventRow,
  type StoredEvent,
  whitelistAfter,
} from '../events/index';
import type { EventRecord } from './event-row';
import { emptyResult, type ImportContext, inRounds, type RowError, type WriteResult } from './targets';
import type { TargetsRepo } from './targets.repo';

export interface EventWriter {
  m: ModuleDescriptor;
  /** The batched writes of events (the same SQL the events service writes one event with). */
  events: EventsRepo;
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

/** The unique key of an event: its company and fingerprint (the events' unique index, per module). */
export const keyOf = (r: { companyId: number; fingerprint: string }) => `${r.companyId}:${r.fingerprint}`;

/** Guard lookups of a dry-run batch running at once (each is a query on the pool). */
const CHECK_CONCURRENCY = 8;

/** What a batch is written for: an import (its id), or another writer such as discovery (`importId` null). */
export type WriteContext = Pick<ImportContext, 'mode' | 'authorId' | 'authorKeyId'> & {
  importId: number | null;
  /** Told the ids of the events each round inserted (discovery queues their snapshots after the commit). */
  onCreated?: (ids: number[]) => void;
};

export async function writeEvents(w: EventWriter, tx: Db, records: EventRecord[], ctx: WriteContext): Promise<WriteResult> {
  const res = emptyResult();
  await inRounds(records, keyOf, (rows) => writeRound(w, tx, rows, ctx, res));
  return res;
}

/** One round (unique keys): existing events changed or skipped, new ones inserted. Returns the rows to retry. */
async function writeRound(w: EventWriter, tx: Db, rows: EventRecord[], ctx: WriteContext, res: WriteResult) {
  if (!rows.length) return [];
  const actor: Actor = { actorUserId: ctx.authorId, actorKeyId: ctx.authorKeyId };
  const existing = new Map<string, StoredEvent>();
  for (const e of await w.events.lockByFingerprints(w.m.code, rows, tx))
    existing.set(keyOf({ companyId: e.company_id, fingerprint: e.fingerprint }), e);
  const fresh = rows.filter((r) => !existing.has(keyOf(r)));
  const changed = ctx.mode === 'skip' ? { updates: [], history: [] } : await changesOf(w, rows, existing, actor);
  res.skipped += rows.length - fresh.length - changed.updates.length;
  await w.events.updateMany(changed.updates, tx);
  res.updated += changed.updates.length;
  const inserted = await insertNew(w, tx, fresh, ctx, actor, res);
  await w.events.insertHistory([...changed.history, ...inserted.history], tx);
  return inserted.retry;
}

/**
 * A file row's cells set their columns (an empty cell keeps what the event has; tags are added to
 * the event's), its module cells the module's fields.
 */
function columnsAfter(e: StoredEvent, r: EventRecord): EventColumns {
  const was = columnsOf(e);
  return {
    title: r.title ?? was.title,
    statusId: r.statusId ?? was.statusId,
    priorityId: r.priorityId ?? was.priorityId,
    decisionId: r.decisionId ?? was.decisionId,
    source: r.source ?? was.source,
    mlState: r.mlState ?? was.mlState,
    detectedAt: r.detectedAt ? iso(r.detectedAt) : was.detectedAt,
    tags: r.tags ? [...new Set([...was.tags, ...r.tags])] : was.tags,
  };
}

/** The updates and history of the rows that match an existing event (rows that change nothing are left out). */
async function changesOf(w: EventWriter, rows: EventRecord[], existing: Map<string, StoredEvent>, actor: Actor) {
  const updates: (EventUpdate & { id: number })[] = [];
  const history: HistoryEntry[] = [];
  for (const r of rows) {
    const e = existing.get(keyOf(r));
    if (!e) continue;
    const change = changeOf(w.m, w.vault, e, columnsAfter(e, r), r.input, actor);
    if (!change) continue;
    const whitelistKind = await whitelistAfter(change, e, async (data) =>
      r.noWhitelist ? null : w.whitelistKindFor(e.company_id, w.m.code, data),
    );
    updates.push({ id: e.id, ...change.row, whitelistKind });
    history.push(...change.history);
  }
  return { updates, history };
}

/** The refusal of the module's create guards (e.g. allowlisted domains) as the row's error, if any. */
async function guardError(w: Pick<EventWriter, 'm' | 'guards'>, r: EventRecord, tx: Db): Promise<RowError | null> {
  try {
    for (const g of w.guards[w.m.code] ?? []) await g({ companyId: r.companyId, module: w.m.code, data: r.data, tx });
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { row: r.row, col: null, column: null, value: null, message: e.message };
  }
}

/**
 * The dry run of `writeEvents`: the errors it would report — the create guards of the rows that
 * would be new (no event with their key yet), read on `db`, nothing written or locked. A key repeated
 * in the file is checked each time: the guards read the key's own fields (the domain), so the
 * repeat fares as the first row did.
 */
export async function checkEvents(
  w: Pick<EventWriter, 'm' | 'guards'>,
  repo: TargetsRepo,
  db: Db,
  records: EventRecord[],
): Promise<RowError[]> {
  if (!w.guards[w.m.code]?.length) return [];
  const existing = await repo.existingKeys(w.m.code, records, db);
  const todo = records.filter((r) => !existing.has(keyOf(r)));
  const found: (RowError | null)[] = new Array(todo.length).fill(null);
  // The guards read the pool: several rows at once (their errors kept in row order).
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < todo.length; i = next++) found[i] = await guardError(w, todo[i] as EventRecord, db);
  };
  await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, todo.length) }, worker));
  return found.filter((e): e is RowError => e !== null);
}

/**
 * New events: the module's create guards (e.g. allowlisted domains; a refusal is the row's error),
 * the whitelist mark, then one insert. Rows inserted meanwhile by someone else come back to retry.
 */
async function insertNew(w: EventWriter, tx: Db, fresh: EventRecord[], ctx: WriteContext, actor: Actor, res: WriteResult) {
  const inserts = new Map<string, { r: EventRecord; row: NewEvent }>();
  const initialStatus = w.refs.initialStatus(w.m.code);
  for (const r of fresh) {
    const refused = await guardError(w, r, tx);
    if (refused) {
      res.errors.push(refused);
      continue;
    }
    const whitelistKind =
      r.whitelistKind !== undefined ? r.whitelistKind : await w.whitelistKindFor(r.companyId, w.m.code, r.data);
    inserts.set(keyOf(r), { r, row: newEventRow(w.m, r, { initialStatus, whitelistKind, actor, importId: ctx.importId }) });
  }
  const history: HistoryEntry[] = [];
  if (!inserts.size) return { history, retry: [] };
  const created = await w.events.insertMany(
    [...inserts.values()].map((x) => x.row),
    tx,
  );
  res.created += created.length;
  if (created.length) ctx.onCreated?.(created.map((c) => c.id));
  for (const c of created) {
    const k = keyOf({ companyId: c.company_id, fingerprint: c.fingerprint });
    const x = inserts.get(k);
    if (x) history.push(createdEntry(c.id, actor, x.row.title, ctx.importId));
    inserts.delete(k);
  }
  return { history, retry: [...inserts.values()].map((x) => x.r) };
}
