/* What every extras file receives, and the registry of extras → their route registrars. */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import type { Audit } from '../../../lib/audit';
import type { Caller } from '../../../lib/caller';
import type { App } from '../../../lib/routes';
import type { DocsService } from '../../docs/index';
import type { SnapshotsService } from '../../snapshots/index';
import type { EventRow } from '../events.repo';
import type { Refs } from '../refs/refs';
import type { EventsService } from '../write/events.service';
import type { CreateGuards } from '../write/hooks';

/** Extra work of one action of one module (e.g. domains' `allowlist`), inside the action's transaction. */
export type ActionHandler = (c: Caller, row: EventRow, tx: Db) => Promise<Record<string, unknown>>;

export interface ExtrasContext {
  db: Db;
  audit: Audit;
  events: EventsService;
  docs: DocsService;
  refs: Refs;
  /** Vetoes on create, per module (filled by extras, read by the events service). */
  guards: CreateGuards;
  /** `${module}:${action}` → its extra work (filled by extras, run by the actions endpoint). */
  actionHandlers: Map<string, ActionHandler>;
  /** The domain snapshot producer (queues checks). */
  snapshots?: SnapshotsService;
}

export type ExtraRegistrar = (app: App, m: ModuleDescriptor, ctx: ExtrasContext) => void | Promise<void>;
