/*
 * Rules of the domains' extras (routes in domains.extras.ts): the snapshot history of an event
 * (produced by modules/snapshots on «Перепроверить», or posted by an external collector), and the
 * per-company allowlist — an allowlisted domain (or any subdomain of it) never raises a new event.
 */
import type {
  allowlistCreateRequest,
  allowlistListQuery,
  allowlistPatchRequest,
  snapshotCreateRequest,
} from '@forpost/contract/events-extras';
import { punycodeToUnicode, unicodeToPunycode } from '@forpost/contract/helpers';
import { EVENT_MSG, type ModuleDescriptor } from '@forpost/contract/modules';
import type { z } from 'zod';
import type { Db } from '../../../db/client';
import type { Audit } from '../../../lib/audit';
import { assertModule, assertOn, type Caller, scopeFor, targetCompany } from '../../../lib/caller';
import { ApiError, conflict, notFound } from '../../../lib/errors';
import { iso, isUniqueViolation } from '../../../lib/serialize';
import type { DocsService } from '../../docs/index';
import { createSnapshotsRepo, type SnapshotRow } from '../../snapshots/index';
import type { EventRow } from '../events.repo';
import type { EventsService } from '../write/events.service';
import { type AllowlistRow, createAllowlistRepo } from './allowlist.repo';

interface Deps {
  db: Db;
  audit: Audit;
  events: Pick<EventsService, 'load'>;
  docs: Pick<DocsService, 'assertUsableFor'>;
}

const snapshotItem = (r: SnapshotRow) => ({
  id: r.id,
  event_id: r.eventId,
  taken_at: iso(r.takenAt),
  screenshot_doc_id: r.screenshotDocId,
  ip: r.ip,
  http_status: r.httpStatus,
  page_title: r.pageTitle,
  final_url: r.finalUrl,
  error: r.error,
});

/** The snapshots of a module's events: read, and added by a collector. */
export function createSnapshotHistory(deps: Deps, m: ModuleDescriptor) {
  const { events, docs } = deps;
  const repo = createSnapshotsRepo(deps.db);
  const list = async (eventId: number) => (await repo.history(eventId)).map(snapshotItem);
  return {
    async list(c: Caller, eventId: number) {
      return { items: await list((await events.load(c, m, eventId, 'events.read')).id) };
    },
    async add(c: Caller, eventId: number, b: z.infer<typeof snapshotCreateRequest>) {
      const ev = await events.load(c, m, eventId, 'events.write');
      if (b.screenshot_doc_id) await docs.assertUsableFor(b.screenshot_doc_id, ev.company_id);
      const id = await repo.record({
        eventId: ev.id,
        takenAt: b.taken_at,
        screenshotDocId: b.screenshot_doc_id ?? null,
        ip: b.ip ?? null,
        httpStatus: b.http_status ?? null,
        pageTitle: b.page_title ?? null,
        finalUrl: b.final_url ?? null,
        error: b.error ?? null,
      });
      const item = (await list(ev.id)).find((s) => s.id === id);
      if (!item) throw notFound(EVENT_MSG.snapshotNotFound);
      return item;
    },
  };
}

/** 'a.b.sber.ru' → ['a.b.sber.ru', 'b.sber.ru', 'sber.ru']: an entry for any of them covers the domain. */
function domainSuffixes(ascii: string): string[] {
  const labels = ascii.toLowerCase().split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

const allowItem = (r: AllowlistRow) => ({
  id: r.id,
  company_id: r.companyId,
  company_name: r.companyName,
  domain: r.domain,
  domain_punycode: r.domainPunycode,
  comment: r.comment,
  created_by: r.createdBy,
  created_at: iso(r.createdAt),
});
const normalise = (domain: string) => {
  const unicode = punycodeToUnicode(domain.toLowerCase());
  return { domain: unicode, ascii: unicodeToPunycode(unicode) };
};
const unique = async <T>(f: () => Promise<T>) => {
  try {
    return await f();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(EVENT_MSG.allowlistDuplicate, { domain: EVENT_MSG.allowlistDuplicate });
    throw e;
  }
};

/** The per-company allowlist of a domains module: CRUD with audit, the create guard and the `allowlist` action. */
export function createAllowlistService(deps: Pick<Deps, 'db' | 'audit'>, m: ModuleDescriptor) {
  const { db, audit } = deps;
  const repo = createAllowlistRepo(db);

  async function find(c: Caller, id: number, perm: 'events.read' | 'events.write'): Promise<AllowlistRow> {
    assertModule(c, m.code);
    const r = await repo.find(id);
    if (!r) throw notFound(EVENT_MSG.allowlistNotFound);
    assertOn(c, perm, r.companyId, EVENT_MSG.allowlistNotFound);
    return r;
  }

  return {
    /** Refuses to create (or import) an event whose domain the company allowlisted. */
    async refuseAllowlisted(companyId: number, data: Record<string, unknown>, tx: Db): Promise<void> {
      const ascii = typeof data.domain_punycode === 'string' ? data.domain_punycode : undefined;
      if (!ascii) return;
      const hit = await repo.anyOf(companyId, domainSuffixes(ascii), tx);
      if (hit) throw new ApiError(409, `${EVENT_MSG.allowlisted} (${hit.domain})`, { allowlist_id: hit.id });
    },

    /** The `allowlist` action: adds the event's domain to its company's allowlist (inside the action's transaction). */
    async addEventDomain(c: Caller, row: EventRow, tx: Db): Promise<{ allowlist_id: number }> {
      const domain = String(row.data.domain ?? '');
      const ascii = String(row.data.domain_punycode ?? unicodeToPunycode(domain));
      const id = await repo.ensure(
        {
          companyId: row.company_id,
          domain,
          domainPunycode: ascii,
          comment: `Из события №${row.id}`,
          createdBy: c.auth.user.id,
        },
        tx,
      );
      return { allowlist_id: id };
    },

    async list(c: Caller, q: z.infer<typeof allowlistListQuery>) {
      assertModule(c, m.code);
      const scope = scopeFor(c, 'events.read', q.company_id);
      if (scope !== 'all' && !scope.length) return { items: [], total: 0, page: q.page, page_size: q.page_size };
      const { rows, total } = await repo.page({
        scope,
        q: q.q,
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      return { items: rows.map(allowItem), total, page: q.page, page_size: q.page_size };
    },

    async get(c: Caller, id: number) {
      return allowItem(await find(c, id, 'events.read'));
    },

    async create(c: Caller, b: z.infer<typeof allowlistCreateRequest>) {
      assertModule(c, m.code);
      const companyId = targetCompany(c, 'events.write', b.company_id);
      const d = normalise(b.domain);
      const id = await unique(() =>
        db.transaction(async (tx) => {
          const id = await repo.create(
            {
              companyId,
              domain: d.domain,
              domainPunycode: d.ascii,
              comment: b.comment ?? null,
              createdBy: c.auth.user.id,
            },
            tx,
          );
          if (id === null) throw notFound(EVENT_MSG.companyNotFound);
          await audit.record(
            c.actor,
            {
              action: 'domain_allowlist.create',
              entity: 'domain_allowlist',
              entityId: id,
              companyId,
              after: { domain: d.domain },
            },
            tx,
          );
          return id;
        }),
      );
      return allowItem(await find(c, id, 'events.read'));
    },

    async update(c: Caller, id: number, b: z.infer<typeof allowlistPatchRequest>) {
      const r = await find(c, id, 'events.write');
      const d = b.domain ? normalise(b.domain) : { domain: r.domain, ascii: r.domainPunycode };
      const comment = b.comment === undefined ? r.comment : b.comment;
      await unique(() =>
        db.transaction(async (tx) => {
          await repo.update(r.id, { domain: d.domain, domainPunycode: d.ascii, comment }, tx);
          await audit.record(
            c.actor,
            {
              action: 'domain_allowlist.update',
              entity: 'domain_allowlist',
              entityId: r.id,
              companyId: r.companyId,
              before: { domain: r.domain, comment: r.comment },
              after: { domain: d.domain, comment },
            },
            tx,
          );
        }),
      );
      return allowItem(await find(c, r.id, 'events.read'));
    },

    async remove(c: Caller, id: number): Promise<void> {
      const r = await find(c, id, 'events.write');
      await db.transaction(async (tx) => {
        await repo.remove(r.id, tx);
        await audit.record(
          c.actor,
          {
            action: 'domain_allowlist.delete',
            entity: 'domain_allowlist',
            entityId: r.id,
            companyId: r.companyId,
            before: { domain: r.domain },
          },
          tx,
        );
      });
    },
  };
}
