/*
 * Import into the events of a module: a file row is read into a record (event-row.ts), a batch of
 * records gets its whitelist marks outside the transaction, then is written (event-write.ts).
 */
import { importFieldsOf } from '@forpost/contract/imports';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { CardVault, CreateGuards, EventsRepo, Refs, WhitelistKindFor } from '../events/index';
import { moduleEnabled } from '../events/index';
import { nameIndex } from './cells';
import { type EventLookups, type EventRecord, prepareEventRow } from './event-row';
import { checkEvents, keyOf, writeEvents } from './event-write';
import { refIndexes, type Target } from './targets';
import { EVENTS_ANALYZE, type TargetsRepo } from './targets.repo';

export interface EventTargetDeps {
  /** The events repository: the batched writes (the same SQL the events service writes one event with). */
  events: EventsRepo;
  /** SQL of the lookups and the undo. */
  repo: TargetsRepo;
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

/** Whitelist lookups of one batch running at once (each is a query on the pool). */
const WHITELIST_CONCURRENCY = 6;

export function eventTarget(m: ModuleDescriptor, deps: EventTargetDeps): Target<EventRecord, EventLookups> {
  const fields = importFieldsOf(m);
  const reader = { m, fields, refs: deps.refs, vault: deps.vault };
  const writer = { m, ...deps };
  return {
    fields,
    table: 'events',
    analyze: EVENTS_ANALYZE,
    loadLookups: (ctx) => loadLookups(m, deps.repo, ctx.scope),
    prepare: (r, mapping, headers, lookups, ctx) => prepareEventRow(reader, r, mapping, headers, lookups, ctx),
    enrich: (records) => markWhitelist(m, deps, records),
    check: (db, records) => checkEvents(writer, deps.repo, db, records),
    keyOf,
    write: (tx, records, ctx) => writeEvents(writer, tx, records, ctx),
    undo: (tx, importId) => deps.repo.deleteImportedEvents(importId, m.code, tx),
  };
}

/** The names a row's cells may refer to, loaded once per job (or preview). */
async function loadLookups(m: ModuleDescriptor, repo: TargetsRepo, scope: 'all' | number[]): Promise<EventLookups> {
  const companies = await repo.companies(scope);
  return {
    companies: nameIndex(companies.map((c) => ({ id: c.id, names: [c.name] }))),
    disabled: new Set(companies.filter((c) => !moduleEnabled(c.modules, m.code)).map((c) => c.id)),
    tags: nameIndex((await repo.tags()).map((t) => ({ id: t.id, names: [t.name] }))),
    refs: await refIndexes(repo, m.fields),
  };
}

/**
 * Whitelist marks of the batch's rows, looked up concurrently outside the transaction. Companies
 * with no whitelist entries (their own or global) need no lookup at all.
 */
async function markWhitelist(m: ModuleDescriptor, deps: EventTargetDeps, records: EventRecord[]): Promise<void> {
  const listed = await deps.repo.whitelisted([...new Set(records.map((r) => r.companyId))]);
  const todo: EventRecord[] = [];
  for (const r of records) {
    r.noWhitelist = !listed.global && !listed.companies.has(r.companyId);
    if (r.noWhitelist) r.whitelistKind = null;
    else todo.push(r);
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < todo.length; i = next++) {
      const r = todo[i] as EventRecord;
      r.whitelistKind = await deps.whitelistKindFor(r.companyId, m.code, r.data);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WHITELIST_CONCURRENCY, todo.length) }, worker));
}
