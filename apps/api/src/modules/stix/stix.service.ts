/*
 * STIX and TAXII for callers: an event's bundle (card menu), the rows → mapping inputs of exports,
 * and the TAXII 2.1 server's resources (discovery, API root, collections, objects, manifest, one
 * object, its versions). A collection is a company's module; the caller sees the companies where it
 * may read events (an API key: its company) and the modules its key allows. Pages follow the «added»
 * cursor (stix_added, id): the next page starts where the previous stopped, an event changed during a
 * pull moves behind the cursor and comes again, nothing stamped before the horizon can appear later.
 */
import { createHash } from 'node:crypto';
import { API_MSG } from '@forpost/contract/errors';
import { getModule, isModuleCode, MODULE_LIST, type ModuleCode } from '@forpost/contract/modules';
import { companiesWith } from '@forpost/contract/permissions';
import {
  STIX_MEDIA_TYPE,
  TAXII_DEFAULT_LIMIT,
  TAXII_MEDIA_TYPE,
  TAXII_MSG,
  TAXII_ROOT_PATH,
  type TaxiiCollection,
  type TaxiiObjectsQuery,
} from '@forpost/contract/taxii';
import type { Db } from '../../db/client';
import type { Caller } from '../../lib/caller';
import { ApiError, notFound } from '../../lib/errors';
import type { Refs } from '../events/index';
import { bundleHead, companyIdentity, eventToStix, type StixContext, type StixEventInput, type StixObject } from './build';
import { eventIdOf, STIX_NAMESPACE, uuidv5 } from './ids';
import { createStixRepo, type StixEventRow } from './stix.repo';

export interface StixDeps {
  db: Db;
  refs: Refs;
  /** The instance secret: the namespace of event object ids is derived from it (never shown). */
  secret: string;
  /** The console's public address (links back to events), if known. */
  publicUrl?: string;
}

/** Events read per query of a page, and the most one request walks through (filters that match little). */
const BATCH = 500;
const SCAN_CAP = 20_000;
/** The head of a collection (the Forpost identity, the extension, the company) sits before every event. */
const HEAD = '-infinity';
const HEAD_DATE = '2026-01-01T00:00:00.000000Z';
const EVENT_TYPES = new Set(['incident', 'report', 'note', 'indicator', 'relationship']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

interface Position {
  added: string;
  id: number;
  skip: number;
}
const encodeNext = (p: Position) => Buffer.from(JSON.stringify([p.added, p.id, p.skip])).toString('base64url');
function decodeNext(s: string): Position {
  try {
    const [added, id, skip] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (
      (added === HEAD || (typeof added === 'string' && RFC3339.test(added))) &&
      Number.isSafeInteger(id) &&
      Number.isSafeInteger(skip)
    )
      return { added: added as string, id: id as number, skip: skip as number };
  } catch {
    // falls through
  }
  throw new ApiError(400, TAXII_MSG.badNext);
}

/** The instance's namespace for ids of event objects, companies and the extension: from its secret (never shown). */
export const stixNamespace = (secret: string) =>
  uuidv5(STIX_NAMESPACE, `forpost-instance:${createHash('sha256').update(secret).digest('hex')}`);

/** An event row (exports' or TAXII's columns) as the mapping's input; codes from the reference lists. */
export function rowToStixInput(
  r: Pick<
    StixEventRow,
    | 'id'
    | 'company_id'
    | 'company_name'
    | 'title'
    | 'status_id'
    | 'priority_id'
    | 'decision_id'
    | 'data'
    | 'detected_at'
    | 'created_at'
    | 'updated_at'
  > & { tags: number[] | null },
  module: ModuleCode,
  refs: Refs,
  tagNames: Map<number, string>,
): StixEventInput {
  const codeOf = <T extends { id: number; code: string }>(list: T[], id: number | null) =>
    id === null ? null : (list.find((x) => x.id === id)?.code ?? null);
  return {
    id: Number(r.id),
    module,
    companyId: r.company_id,
    companyName: r.company_name,
    title: r.title,
    createdAt: new Date(Number(r.created_at)),
    updatedAt: new Date(Number(r.updated_at)),
    detectedAt: r.detected_at === null ? null : new Date(Number(r.detected_at)),
    status: codeOf(refs.statuses(module), r.status_id),
    priority: codeOf(refs.priorities(module), r.priority_id),
    decision: codeOf(refs.decisions(module), r.decision_id),
    tags: (r.tags ?? []).map((t) => tagNames.get(t)).filter((t): t is string => Boolean(t)),
    data: r.data,
  };
}

export interface TaxiiPage {
  more: boolean;
  next?: string;
  items: { object: StixObject; added: string }[];
}

export function createStixService(deps: StixDeps) {
  const repo = createStixRepo(deps.db);
  const namespace = stixNamespace(deps.secret);
  const ctx: StixContext = { namespace, consoleUrl: deps.publicUrl };
  const collectionHead = uuidv5(namespace, 'taxii-collection').replaceAll('-', '').slice(0, 20);

  async function inputs(rows: StixEventRow[]): Promise<StixEventInput[]> {
    const names = await repo.tagNames([...new Set(rows.flatMap((r) => r.tags))]);
    return rows.map((r) => rowToStixInput(r, r.module as ModuleCode, deps.refs, names));
  }

  // -------------------------------------------------------------------------------------------------
  // Collections
  // -------------------------------------------------------------------------------------------------

  const collectionId = (companyId: number, moduleId: number) => {
    const h = collectionHead + companyId.toString(16).padStart(8, '0') + moduleId.toString(16).padStart(4, '0');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  };
  function parseCollection(id: string): { companyId: number; module: ModuleCode } | null {
    const h = id.toLowerCase().replaceAll('-', '');
    if (!/^[0-9a-f]{32}$/.test(h) || !h.startsWith(collectionHead)) return null;
    const companyId = Number.parseInt(h.slice(20, 28), 16);
    const moduleId = Number.parseInt(h.slice(28, 32), 16);
    const m = MODULE_LIST.find((x) => x.id === moduleId);
    return m ? { companyId, module: m.code } : null;
  }
  const keyAllows = (c: Caller, code: string) => {
    const km = c.auth.principal.keyModules;
    return !km || km.includes(code) || km.includes('*');
  };

  async function readable(c: Caller) {
    const scope = companiesWith(c.auth.principal, 'events.read');
    if (Array.isArray(scope) && !scope.length) return [];
    return repo.companies(scope === 'all' ? null : scope);
  }

  function describeCollection(company: { id: number; name: string }, code: ModuleCode): TaxiiCollection {
    const m = getModule(code);
    return {
      id: collectionId(company.id, m.id),
      title: `${company.name} — ${m.name}`,
      description: `События модуля «${m.name}» компании «${company.name}» в STIX 2.1`,
      can_read: true,
      can_write: false,
      media_types: [STIX_MEDIA_TYPE],
    };
  }

  /** The collection if the caller may read it; 404 (TAXII error) otherwise — another company's is not there. */
  async function collection(c: Caller, id: string) {
    const p = parseCollection(id);
    if (!p || !keyAllows(c, p.module)) throw notFound(TAXII_MSG.collectionNotFound);
    const company = (await readable(c)).find((x) => x.id === p.companyId);
    if (!company) throw notFound(TAXII_MSG.collectionNotFound);
    return { ...p, company, info: describeCollection(company, p.module) };
  }

  // -------------------------------------------------------------------------------------------------
  // Pages
  // -------------------------------------------------------------------------------------------------

  const list = (s: string | undefined) =>
    s
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean);

  /** Objects of a collection from the query's position on, filtered by type and id, up to its limit. */
  async function walk(
    col: { companyId: number; module: ModuleCode; company: { id: number; name: string } },
    q: TaxiiObjectsQuery,
  ): Promise<TaxiiPage> {
    const limit = q.limit ?? TAXII_DEFAULT_LIMIT;
    const types = list(q['match[type]']);
    const ids = list(q['match[id]']);
    if (q.added_after !== undefined && (!RFC3339.test(q.added_after) || Number.isNaN(Date.parse(q.added_after))))
      throw new ApiError(400, TAXII_MSG.badAddedAfter);
    const after = q.added_after ?? null;
    const start = q.next ? decodeNext(q.next) : { added: HEAD, id: 0, skip: 0 };
    const horizon = await repo.horizon();
    if (!horizon) throw new ApiError(503, TAXII_MSG.busy, undefined, { 'Retry-After': '5' });
    // Ids of event objects carry their event: a match on those alone reads only those events.
    const eventIds = ids?.every((x) => EVENT_TYPES.has(x.split('--')[0] ?? ''))
      ? ids.map(eventIdOf).filter((x): x is number => x !== null)
      : undefined;
    const wanted = (o: StixObject) => (!types || types.includes(o.type)) && (!ids || ids.includes(o.id));

    const items: TaxiiPage['items'] = [];
    /** Adds the objects of one group from `skip`; returns the position to continue from when the page is full. */
    const take = (objects: StixObject[], added: string, date: string, id: number, skip: number): Position | null => {
      for (let k = skip; k < objects.length; k++) {
        const o = objects[k] as StixObject;
        if (!wanted(o)) continue;
        if (items.length === limit) return { added, id, skip: k };
        items.push({ object: o, added: date });
      }
      return null;
    };
    const full = (p: Position): TaxiiPage => ({ more: true, next: encodeNext(p), items });

    let cur = start;
    if (cur.added === HEAD) {
      if (!after) {
        const head = [...bundleHead(ctx), companyIdentity(ctx, col.company.id, col.company.name)];
        const stop = take(head, HEAD, HEAD_DATE, 0, cur.skip);
        if (stop) return full(stop);
      }
      cur = { added: HEAD, id: 0, skip: 0 };
    }
    let scanned = 0;
    for (;;) {
      const rows = await repo.page(col.companyId, col.module, {
        from: cur.added === HEAD ? null : { added: cur.added, id: cur.id },
        after,
        horizon,
        limit: BATCH + 1,
        ids: eventIds,
      });
      const batch = rows.slice(0, BATCH);
      const made = await inputs(batch);
      for (const [i, row] of batch.entries()) {
        const skip = row.added === cur.added && row.id === cur.id ? cur.skip : 0;
        const stop = take(eventToStix(made[i] as StixEventInput, ctx), row.added, row.added, row.id, skip);
        if (stop) return full(stop);
        if (++scanned >= SCAN_CAP) return full({ added: row.added, id: row.id, skip: Number.MAX_SAFE_INTEGER });
      }
      const peek = rows[BATCH];
      if (!peek) return { more: false, items };
      cur = { added: peek.added, id: peek.id, skip: 0 };
    }
  }

  /** The version of an object in a collection: `modified`, or when it has none (SCOs) the date it was added. */
  const versionOf = (o: StixObject, added: string) =>
    typeof o.modified === 'string' ? o.modified : added === HEAD_DATE ? HEAD_DATE : added;

  /** One object of a collection (its latest version), by id. */
  async function findObject(c: Caller, collectionIdText: string, objectId: string) {
    const col = await collection(c, collectionIdText);
    const page = await walk(col, { 'match[id]': objectId, limit: 1 });
    const hit = page.items[0];
    if (!hit) throw notFound(TAXII_MSG.objectNotFound);
    return hit;
  }

  const range = (items: TaxiiPage['items']) => ({ first: items[0]?.added, last: items.at(-1)?.added });

  return {
    namespace,
    context: ctx,
    inputs,

    /** An event as a STIX bundle (card menu): the head objects, the company and the event's objects. */
    async eventBundle(c: Caller, module: string, id: number) {
      if (!isModuleCode(module)) throw notFound(API_MSG.notFound);
      const row = await repo.event(module, id);
      const scope = companiesWith(c.auth.principal, 'events.export');
      if (!row || !keyAllows(c, module) || (scope !== 'all' && !scope.includes(row.company_id)))
        throw notFound('Событие не найдено');
      const [input] = await inputs([row]);
      const objects = [
        ...bundleHead(ctx),
        companyIdentity(ctx, row.company_id, row.company_name),
        ...eventToStix(input as StixEventInput, ctx),
      ];
      return {
        fileName: `${module}-${id}.stix.json`,
        bundle: { type: 'bundle', id: `bundle--${uuidv5(namespace, `event-bundle:${id}:${row.added}`)}`, objects },
      };
    },

    discovery(base: string) {
      return {
        title: 'Форпост TAXII 2.1',
        description: 'События «Форпоста» в STIX 2.1: коллекция на каждую компанию и модуль.',
        default: `${base}${TAXII_ROOT_PATH}`,
        api_roots: [`${base}${TAXII_ROOT_PATH}`],
      };
    },
    apiRoot() {
      return {
        title: 'Форпост',
        description: 'Коллекции событий по компаниям и модулям (только чтение).',
        versions: [TAXII_MEDIA_TYPE],
        max_content_length: 0,
      };
    },
    async collections(c: Caller) {
      const companies = await readable(c);
      const collections = companies.flatMap((co) =>
        MODULE_LIST.filter((m) => keyAllows(c, m.code)).map((m) => describeCollection(co, m.code)),
      );
      return { collections };
    },
    async collection(c: Caller, id: string) {
      return (await collection(c, id)).info;
    },
    async objects(c: Caller, id: string, q: TaxiiObjectsQuery) {
      const page = await walk(await collection(c, id), q);
      return {
        body: {
          more: page.more,
          ...(page.next ? { next: page.next } : {}),
          ...(page.items.length ? { objects: page.items.map((x) => x.object) } : {}),
        },
        ...range(page.items),
      };
    },
    async manifest(c: Caller, id: string, q: TaxiiObjectsQuery) {
      const page = await walk(await collection(c, id), q);
      const objects = page.items.map((x) => ({
        id: x.object.id,
        date_added: x.added,
        version: versionOf(x.object, x.added),
        media_type: STIX_MEDIA_TYPE,
      }));
      return {
        body: { more: page.more, ...(page.next ? { next: page.next } : {}), ...(objects.length ? { objects } : {}) },
        ...range(page.items),
      };
    },
    async object(c: Caller, id: string, objectId: string) {
      const hit = await findObject(c, id, objectId);
      return { body: { more: false, objects: [hit.object] }, first: hit.added, last: hit.added };
    },
    async versions(c: Caller, id: string, objectId: string) {
      const hit = await findObject(c, id, objectId);
      return { body: { more: false, versions: [versionOf(hit.object, hit.added)] }, first: hit.added, last: hit.added };
    },
  };
}
export type StixService = ReturnType<typeof createStixService>;
