/*
 * Rules of the modules' extras whose routes are in *.extras.ts: leaks linked to an account event,
 * files of a repository event, and references events still use. Each change is checked against
 * its event (events.service `load`, locked) and written with a history entry in one transaction.
 */
import type { repoFileItem } from '@forpost/contract/events-extras';
import { EVENT_MSG, type ModuleDescriptor } from '@forpost/contract/modules';
import type { z } from 'zod';
import type { Db } from '../../../db/client';
import { assertModule, type Caller } from '../../../lib/caller';
import { badRequest, conflict, notFound } from '../../../lib/errors';
import { iso } from '../../../lib/serialize';
import type { DocsService } from '../../docs/index';
import type { EventsService } from '../write/events.service';
import { createExtrasRepo, type RepoFileRow } from './extras.repo';

interface Deps {
  db: Db;
  events: Pick<EventsService, 'load' | 'recordHistory'>;
  docs: Pick<DocsService, 'assertUsableFor'>;
}

/** Leaks from the catalogue linked to the events of an accounts module, and leak names for autocomplete. */
export function createLinkedLeaksService(deps: Deps, m: ModuleDescriptor) {
  const { db, events } = deps;
  const repo = createExtrasRepo(db);
  const linked = async (eventId: number) =>
    (await repo.linkedLeaks(eventId)).map((r) => ({ id: r.id, name: r.name, linked_at: iso(r.linkedAt) }));
  return {
    async list(c: Caller, eventId: number) {
      return { items: await linked((await events.load(c, m, eventId, 'events.read')).id) };
    },
    async link(c: Caller, eventId: number, leakId: number) {
      await db.transaction(async (tx) => {
        const ev = await events.load(c, m, eventId, 'events.write', tx, true);
        const leak = await repo.leak(leakId, tx);
        if (!leak) throw badRequest(EVENT_MSG.leakNotFound, { leak_id: EVENT_MSG.leakNotFound });
        if (!(await repo.linkLeak({ eventId: ev.id, leakId: leak.id, createdBy: c.auth.user.id }, tx)))
          throw conflict(EVENT_MSG.leakAlreadyLinked);
        await events.recordHistory(
          c,
          ev.id,
          [{ action: 'link', field: 'leaks', before: null, after: { id: leak.id, name: leak.name } }],
          tx,
        );
      });
      return { items: await linked(eventId) };
    },
    async unlink(c: Caller, eventId: number, leakId: number) {
      await db.transaction(async (tx) => {
        const ev = await events.load(c, m, eventId, 'events.write', tx, true);
        if (!(await repo.unlinkLeak(ev.id, leakId, tx))) throw notFound(EVENT_MSG.leakNotLinked);
        await events.recordHistory(c, ev.id, [{ action: 'unlink', field: 'leaks', before: { id: leakId }, after: null }], tx);
      });
    },
    async names(c: Caller, q: { q?: string; limit: number }) {
      assertModule(c, m.code);
      return { items: await repo.leakNames(q.q, q.limit) };
    },
  };
}

const toFile = (r: RepoFileRow): z.infer<typeof repoFileItem> => ({
  id: r.id,
  event_id: r.eventId,
  path: r.path,
  url: r.url,
  matched: r.matched,
  doc_id: r.docId,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});
type FileBody = { path?: string; url?: string | null; matched?: string | null; doc_id?: number | null };

/** Files found in the events of a repositories module (path, link, matched fragment, optional sample doc). */
export function createRepositoryFilesService(deps: Deps, m: ModuleDescriptor) {
  const { db, events, docs } = deps;
  const repo = createExtrasRepo(db);
  const one = async (tx: Db, eventId: number, fileId: number) => {
    const r = await repo.file(eventId, fileId, tx);
    if (!r) throw notFound(EVENT_MSG.fileNotFound);
    return r;
  };
  return {
    async list(c: Caller, eventId: number) {
      const ev = await events.load(c, m, eventId, 'events.read');
      return { items: (await repo.files(ev.id)).map(toFile) };
    },
    async create(c: Caller, eventId: number, b: FileBody & { path: string }) {
      return db.transaction(async (tx) => {
        const ev = await events.load(c, m, eventId, 'events.write', tx, true);
        if (b.doc_id) await docs.assertUsableFor(b.doc_id, ev.company_id);
        const r = await repo.insertFile(
          { eventId: ev.id, path: b.path, url: b.url ?? null, matched: b.matched ?? null, docId: b.doc_id ?? null },
          tx,
        );
        await events.recordHistory(
          c,
          ev.id,
          [{ action: 'link', field: 'files', before: null, after: { id: r.id, path: r.path } }],
          tx,
        );
        return toFile(r);
      });
    },
    async update(c: Caller, eventId: number, fileId: number, b: FileBody) {
      return db.transaction(async (tx) => {
        const ev = await events.load(c, m, eventId, 'events.write', tx, true);
        const before = await one(tx, ev.id, fileId);
        if (b.doc_id) await docs.assertUsableFor(b.doc_id, ev.company_id);
        const next = {
          path: b.path ?? before.path,
          url: b.url === undefined ? before.url : b.url,
          matched: b.matched === undefined ? before.matched : b.matched,
          docId: b.doc_id === undefined ? before.docId : b.doc_id,
        };
        const r = await repo.updateFile(before.id, next, tx);
        await events.recordHistory(
          c,
          ev.id,
          [
            {
              action: 'update',
              field: 'files',
              before: { id: before.id, path: before.path, url: before.url },
              after: { id: before.id, path: next.path, url: next.url },
            },
          ],
          tx,
        );
        return toFile(r);
      });
    },
    async remove(c: Caller, eventId: number, fileId: number) {
      await db.transaction(async (tx) => {
        const ev = await events.load(c, m, eventId, 'events.write', tx, true);
        const f = await one(tx, ev.id, fileId);
        await repo.removeFile(f.id, tx);
        await events.recordHistory(
          c,
          ev.id,
          [{ action: 'unlink', field: 'files', before: { id: f.id, path: f.path }, after: null }],
          tx,
        );
      });
    },
  };
}

/** Checks the reference lists of a module run before a write or a delete. */
export function createReferenceChecks(db: Db, m: ModuleDescriptor) {
  const repo = createExtrasRepo(db);
  return {
    /** Refuses (`message`) a delete of `id` while an event of the module has it in the data field `key`. */
    async refuseInUse(key: string, id: number, message: string, tx: Db): Promise<void> {
      if (await repo.eventRefers(m.code, key, id, tx)) throw conflict(message);
    },
    async leakTypeExists(id: number): Promise<boolean> {
      return repo.leakTypeExists(id);
    },
  };
}
