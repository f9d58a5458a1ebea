/*
 * Wiring of the event engine: seeds the reference lists, builds the services, mounts the common
 * endpoints of every module and each module's extras. Called once from buildApp inside the /api/v1
 * scope; the areas around every event (tags, comments, docs) stand above or below it and are wired
 * by buildApp (the documents service comes in through `deps.docs`).
 */
import path from 'node:path';
import { MODULE_LIST, type ModuleExtra } from '@forpost/contract/modules';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Audit } from '../../lib/audit';
import { createLocalDocStore, type DocStore } from '../../lib/docstore';
import type { App } from '../../lib/routes';
import type { DocsService } from '../docs/index';
import type { SnapshotsService } from '../snapshots/index';
import { assignmentRoutes } from './assignment/assignment.routes';
import { createActionRunner } from './bulk/bulk.actions';
import { bulkRoutes } from './bulk/bulk.routes';
import type { BulkJobs } from './bulk/bulk.service';
import { createEventsRepo } from './events.repo';
import { eventRoutes } from './events.routes';
import { linkedLeaksExtra } from './extras/accounts.extras';
import { cardRevealExtra } from './extras/acquiring.extras';
import { actionsExtra } from './extras/actions.extras';
import { allowlistExtra, snapshotsExtra } from './extras/domains.extras';
import type { ActionHandler, ExtraRegistrar, ExtrasContext } from './extras/extras';
import { leakCatalogueExtra, leakTypesExtra } from './extras/leaks.extras';
import { mediaTypesExtra } from './extras/media.extras';
import { merchantCategoriesExtra } from './extras/merchant.extras';
import { filesExtra } from './extras/repositories.extras';
import type { ListCache } from './list/list-cache';
import { loadRefs, seedEventReference } from './refs/refs';
import { createRelatedRepo } from './related/related.repo';
import { relatedRoutes } from './related/related.routes';
import { createRelatedService } from './related/related.service';
import { createUndo } from './undo/undo.service';
import { createCardVault } from './write/event-data';
import { createEventsService } from './write/events.service';
import { type CreateGuards, whitelistKindFor as noWhitelist, type WhitelistKindFor } from './write/hooks';

/** Every extra a descriptor may name → the file that mounts it (a missing one is a type error). */
const EXTRAS: Record<ModuleExtra, ExtraRegistrar> = {
  decisions: () => undefined, // mounted by the common routes (GET …/decisions)
  actions: actionsExtra,
  snapshots: snapshotsExtra,
  allowlist: allowlistExtra,
  card_reveal: cardRevealExtra,
  files: filesExtra,
  media_types: mediaTypesExtra,
  leak_catalogue: leakCatalogueExtra,
  leak_types: leakTypesExtra,
  linked_leaks: linkedLeaksExtra,
  merchant_categories: merchantCategoriesExtra,
};

export interface EventEngineDeps {
  database: Database;
  config: Config;
  audit: Audit;
  /** The documents area (files of events, module extras). */
  docs: DocsService;
  /** Where document bytes go (default: DATA_DIR/files on local disk). */
  docstore?: DocStore;
  /** The whitelist matcher from the settings area (default: nothing matches). */
  whitelistKindFor?: WhitelistKindFor;
  /** The domain snapshot producer (the `recheck` action queues it); absent = recheck only records the request. */
  snapshots?: SnapshotsService;
  /** Bulk operations on «все N по фильтру» (their jobs are attached to pg-boss by main.ts). */
  bulk: BulkJobs;
  /** The list pages this instance answered, for a moment (list-cache.ts). */
  listCache: ListCache;
}

export async function registerEventEngine(app: App, deps: EventEngineDeps) {
  const db = deps.database.db;
  await seedEventReference(db);
  const refs = await loadRefs(db);
  const store = deps.docstore ?? createLocalDocStore(path.join(deps.config.dataDir, 'files'));
  const guards: CreateGuards = {};
  const actionHandlers = new Map<string, ActionHandler>();
  const repo = createEventsRepo(db);
  const vault = createCardVault(deps.config.secret);
  const events = createEventsService({
    db,
    repo,
    refs,
    audit: deps.audit,
    vault,
    docstore: store,
    whitelistKindFor: deps.whitelistKindFor ?? noWhitelist,
    guards,
    listCache: deps.listCache,
  });
  const docs = deps.docs;

  const undo = createUndo(db);
  undo.mount(events);
  await eventRoutes(app, { events, refs, undo });
  assignmentRoutes(app, { assignment: events.assignment });
  relatedRoutes(app, { related: createRelatedService({ events, repo: createRelatedRepo(db) }) });
  const ctx: ExtrasContext = { db, audit: deps.audit, events, docs, refs, guards, actionHandlers, snapshots: deps.snapshots };
  for (const m of MODULE_LIST) for (const extra of m.extras) await EXTRAS[extra](app, m, ctx);
  deps.bulk.mount({ events, repo, vault, actions: createActionRunner(ctx), undo });
  bulkRoutes(app, { bulk: deps.bulk });

  return { events, docs, refs, store, guards, whitelistKindFor: deps.whitelistKindFor ?? noWhitelist };
}
export type EventEngine = Awaited<ReturnType<typeof registerEventEngine>>;
export { createAssignment, type EventPlace } from './assignment/assignment';
export { startIndicatorsBackfill } from './backfill/indicators-backfill';
export { startSearchBackfill } from './backfill/search-backfill';
export { startTitlesBackfill } from './backfill/titles-backfill';
export { createBulkJobs } from './bulk/bulk.service';
export {
  createEventsRepo,
  type EventRow,
  type EventsRepo,
  type EventUpdate,
  type HistoryEntry,
  type NewEvent,
} from './events.repo';
export { pascal } from './events.routes';
export { filterConditions, matching, orderBy, textQueryOf } from './list/events.query';
export { createListCache } from './list/list-cache';
export { refListRoutes } from './refs/reflist';
export { createRefListRepo } from './refs/reflist.repo';
export type { Refs } from './refs/refs';
export {
  type Actor,
  changeOf,
  columnsOf,
  createdEntry,
  type EventColumns,
  type NewEventSpec,
  newEventData,
  newEventRow,
  type StoredEvent,
  sameValue,
  whitelistAfter,
} from './write/changes';
export { type CardVault, createCardVault } from './write/event-data';
export { assertModuleEnabled, MODULE_DISABLED_MSG, moduleEnabled } from './write/events.service';
export type { CreateGuards, WhitelistKindFor } from './write/hooks';
