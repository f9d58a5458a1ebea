/*
 * Simple reference lists (tags, media types, leak types, the leaks catalogue) from one generator:
 * list with `q` and pages, get, and — where the list allows — create, update, delete; unique names,
 * Russian messages, audit. A list's own rules plug in through `beforeDelete` and `toItem`.
 */
import type { RefListEntity } from '@forpost/contract/audit';
import { idParam } from '@forpost/contract/common';
import { noContent } from '@forpost/contract/events';
import type { Permission } from '@forpost/contract/permissions';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import type { Audit } from '../../../lib/audit';
import { callerOf } from '../../../lib/caller';
import { conflict, notFound } from '../../../lib/errors';
import type { App } from '../../../lib/routes';
import { isUniqueViolation } from '../../../lib/serialize';
import { createRefListRepo, type RefRow as RowOf, type RefTable as Table } from './reflist.repo';

type Body = Record<string, unknown>;

export interface RefListSpec<T extends Table = Table> {
  /** Route of the collection, e.g. '/tags'. */
  path: string;
  /** Singular and plural operation names: 'Tag' / 'Tags' → listTags, getTag, createTag, updateTag, deleteTag. */
  one: string;
  many: string;
  /** Russian name for summaries: 'теги'. */
  label: string;
  tags: string[];
  table: T;
  entity: RefListEntity;
  toItem: (r: RowOf<T>) => Record<string, unknown>;
  item: z.ZodType;
  query: z.ZodType<{ q?: string; page: number; page_size: number } & Record<string, unknown>>;
  create?: z.ZodType<Body>;
  patch?: z.ZodType<Body>;
  /** Extra list filters: a numeric query parameter → the column it must equal (besides `q` on the name). */
  equal?: Record<string, PgColumn>;
  read: Permission;
  write: Permission;
  messages: { notFound: string; duplicate: string };
  /** Map the request body to column values (default: snake_case keys → the same-named camelCase columns). */
  toColumns?: (body: Body) => Record<string, unknown>;
  /** Extra checks of a create/update body (throw a Russian 400 to refuse). */
  validate?: (body: Body) => Promise<void>;
  /** Refuse (throw) or clean up before a delete, inside its transaction. */
  beforeDelete?: (id: number, tx: Db) => Promise<void>;
  /** Whether to paginate the list response ({items,total,page,page_size}) or return {items} only. */
  paged?: boolean;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const defaultColumns = (body: Body) =>
  Object.fromEntries(
    Object.entries(body)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [camel(k), v]),
  );

function refListService<T extends Table>(db: Db, audit: Audit, spec: RefListSpec<T>) {
  const repo = createRefListRepo(db, spec.table);
  const toCols = spec.toColumns ?? defaultColumns;
  const get = async (id: number): Promise<RowOf<T>> => {
    const r = await repo.find(id);
    if (!r) throw notFound(spec.messages.notFound);
    return r;
  };
  const unique = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(spec.messages.duplicate, { name: spec.messages.duplicate });
      throw e;
    }
  };
  return {
    async list(q: { q?: string; page: number; page_size: number } & Body) {
      const equal = Object.entries(spec.equal ?? {})
        .filter(([key]) => typeof q[key] === 'number')
        .map(([key, col]): [PgColumn, unknown] => [col, q[key]]);
      const { rows, total } = await repo.list({ q: q.q, equal, limit: q.page_size, offset: (q.page - 1) * q.page_size });
      return { items: rows.map(spec.toItem), total, page: q.page, page_size: q.page_size };
    },
    get: async (id: number) => spec.toItem(await get(id)),
    async create(actor: Parameters<Audit['record']>[0], body: Body) {
      await spec.validate?.(body);
      return unique(() =>
        db.transaction(async (tx) => {
          const r = await repo.insert(toCols(body), tx);
          await audit.record(actor, { action: `${spec.entity}.create`, entity: spec.entity, entityId: r.id, after: body }, tx);
          return spec.toItem(r);
        }),
      );
    },
    async update(actor: Parameters<Audit['record']>[0], id: number, body: Body) {
      const before = await get(id);
      await spec.validate?.(body);
      const cols = toCols(body);
      if (!Object.keys(cols).length) return spec.toItem(before);
      return unique(() =>
        db.transaction(async (tx) => {
          const r = await repo.update(id, cols, tx);
          await audit.record(
            actor,
            { action: `${spec.entity}.update`, entity: spec.entity, entityId: id, before: spec.toItem(before), after: body },
            tx,
          );
          return spec.toItem(r);
        }),
      );
    },
    async remove(actor: Parameters<Audit['record']>[0], id: number) {
      await db.transaction(async (tx) => {
        const r = await repo.find(id, tx, true);
        if (!r) throw notFound(spec.messages.notFound);
        await spec.beforeDelete?.(id, tx);
        await repo.remove(id, tx);
        await audit.record(
          actor,
          { action: `${spec.entity}.delete`, entity: spec.entity, entityId: id, before: spec.toItem(r) },
          tx,
        );
      });
    },
  };
}

export function refListRoutes<T extends Table>(app: App, db: Db, audit: Audit, spec: RefListSpec<T>) {
  const svc = refListService(db, audit, spec);
  const listResponse =
    spec.paged === false
      ? z.object({ items: z.array(spec.item) })
      : z.object({ items: z.array(spec.item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
  const actor = (req: Parameters<typeof callerOf>[0]) => callerOf(req).actor;

  app.get(
    spec.path,
    {
      config: { permission: spec.read },
      schema: {
        operationId: `list${spec.many}`,
        tags: spec.tags,
        summary: `Справочник: ${spec.label}`,
        querystring: spec.query,
        response: { 200: listResponse },
      },
    },
    async (req) => {
      const r = await svc.list(req.query as never);
      return spec.paged === false ? { items: r.items } : r;
    },
  );
  app.get(
    `${spec.path}/:id`,
    {
      config: { permission: spec.read },
      schema: {
        operationId: `get${spec.one}`,
        tags: spec.tags,
        summary: `Справочник: ${spec.label} — запись`,
        params: idParam,
        response: { 200: spec.item },
      },
    },
    async (req) => svc.get(req.params.id),
  );
  if (spec.create) {
    app.post(
      spec.path,
      {
        config: { permission: spec.write },
        schema: {
          operationId: `create${spec.one}`,
          tags: spec.tags,
          summary: `Справочник: ${spec.label} — добавить`,
          body: spec.create,
          response: { 201: spec.item },
        },
      },
      async (req, reply) => reply.code(201).send(await svc.create(actor(req), req.body)),
    );
  }
  if (spec.patch) {
    app.patch(
      `${spec.path}/:id`,
      {
        config: { permission: spec.write },
        schema: {
          operationId: `update${spec.one}`,
          tags: spec.tags,
          summary: `Справочник: ${spec.label} — изменить`,
          params: idParam,
          body: spec.patch,
          response: { 200: spec.item },
        },
      },
      async (req) => svc.update(actor(req), req.params.id, req.body),
    );
  }
  if (spec.create) {
    app.delete(
      `${spec.path}/:id`,
      {
        config: { permission: spec.write },
        schema: {
          operationId: `delete${spec.one}`,
          tags: spec.tags,
          summary: `Справочник: ${spec.label} — удалить`,
          params: idParam,
          response: { 204: noContent },
        },
      },
      async (req, reply) => {
        await svc.remove(actor(req), req.params.id);
        return reply.code(204).send(null);
      },
    );
  }
  return svc;
}
