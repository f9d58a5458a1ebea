/*
 * What the events service's operations share: their dependencies (EventsDeps), who a caller is as
 * history records it, and whether a company takes a module's events.
 */
import { EVENT_MSG } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import type { Audit } from '../../../lib/audit';
import type { Caller } from '../../../lib/caller';
import type { DocStore } from '../../../lib/docstore';
import { ApiError, notFound } from '../../../lib/errors';
import type { Assignment } from '../assignment/assignment';
import type { EventsRepo } from '../events.repo';
import type { ListCache } from '../list/list-cache';
import type { Refs } from '../refs/refs';
import type { UndoField } from './change-words';
import type { Actor } from './changes';
import type { CardVault } from './event-data';
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

/** What every operation of the service works with: its dependencies and the assignment rules over them. */
export type EventsDeps = EventsServiceDeps & { assignment: Assignment };

/** Who a caller is, as history and the author columns record it. */
export const actorOf = (c: Caller): Actor => ({ actorUserId: c.actor.userId ?? null, actorKeyId: c.actor.keyId ?? null });

/** One field of one event as a change left it (what «Отменить» puts back). */
export interface UndoItem {
  eventId: number;
  field: UndoField;
  before: unknown;
  after: unknown;
}
