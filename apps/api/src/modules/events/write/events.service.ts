/*
 * The generic event service: one implementation for every module descriptor. Tenant scope comes from
 * the caller's principal; every change is written to event_history field by field.
 *
 * Its operations are plain functions over the shared dependencies (EventsDeps), by concern:
 * events.reads.ts (view, card, load, history, card reveal), events.list.ts (the list page),
 * events.writes.ts (create, patch, delete, batches), events.assign.ts (the assignee),
 * events.restore.ts («Отменить»). createEventsService binds them to one set of dependencies.
 */
import { createAssignment } from '../assignment/assignment';
import type { EventsDeps, EventsServiceDeps } from './events.deps';
import { listEvents } from './events.list';
import { eventHistory, getEvent, load, revealCard, toView } from './events.reads';
import { restoreEvents } from './events.restore';
import {
  batchDelete,
  batchPatch,
  createEvent,
  lockBatch,
  patchEvent,
  recordHistory,
  removeEvent,
  validateRefs,
} from './events.writes';

export {
  assertModuleEnabled,
  type EventsDeps,
  type EventsServiceDeps,
  MODULE_DISABLED_MSG,
  moduleEnabled,
  type UndoItem,
} from './events.deps';

export function createEventsService(d: EventsServiceDeps) {
  const deps: EventsDeps = { ...d, assignment: createAssignment(d.db) };
  /** An operation with the service's dependencies bound. */
  const bind =
    <A extends unknown[], R>(op: (deps: EventsDeps, ...args: A) => R) =>
    (...args: A): R =>
      op(deps, ...args);
  return {
    toView,
    load: bind(load),
    assignment: deps.assignment,
    list: bind(listEvents),
    get: bind(getEvent),
    create: bind(createEvent),
    patch: bind(patchEvent),
    remove: bind(removeEvent),
    lockBatch: bind(lockBatch),
    validateRefs: bind(validateRefs),
    batchPatch: bind(batchPatch),
    restore: bind(restoreEvents),
    batchDelete: bind(batchDelete),
    history: bind(eventHistory),
    recordHistory: bind(recordHistory),
    reveal: bind(revealCard),
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
