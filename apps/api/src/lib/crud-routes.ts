/*
 * The routes of an admin entity: list and create on its collection, GET/PATCH/DELETE on `/…/{id}`,
 * each with its zod schemas, operationId and declared permission. The helper only wires a route to
 * its service call, with the one caller shape (`callerOf`): the rules, tenant scope, transaction and
 * audit entry stay in the service (the audit entry in the change's transaction). Not a framework: an
 * entity with other routes registers them beside it as usual.
 */
import { idParam } from '@forpost/contract/common';
import type { Permission } from '@forpost/contract/permissions';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Caller, callerOf } from './caller';
import type { App } from './routes';

/** The answer of a DELETE: 204 with no body. */
export const noContent = z.null().describe('Нет содержимого');

/** One route: its permission, operationId, summary and the service call it makes. */
type Op<A extends unknown[], R> = readonly [
  permission: Permission,
  operationId: string,
  summary: string,
  run: (c: Caller, ...args: A) => Promise<R>,
];

type Any = z.ZodType;
const none = z.object({});

export interface CrudSchemas<
  P extends Any,
  R extends Any,
  B extends Any,
  CP extends Any,
  Q extends Any,
  L extends Any,
  C extends Any,
  CR extends Any,
> {
  tags: string[];
  /** The collection's path (list, create), e.g. `/apikeys` or `/companies/:id/assets`. */
  path?: string;
  /** Its path parameters, if it has any. */
  pathParams?: CP;
  query?: Q;
  /** The answer of the list. */
  page?: L;
  /** The body of create. */
  create?: C;
  /** The answer of create (201); the item's answer when not given. */
  created?: CR;
  /** The item's path and its parameters: by default the collection's path + `/:id` and `{ id }`. */
  item?: string;
  params?: P;
  /** The answer of GET and PATCH. */
  response: R;
  /** The body of PATCH. */
  body?: B;
}

export interface CrudOps<
  P extends Any,
  R extends Any,
  B extends Any,
  CP extends Any,
  Q extends Any,
  L extends Any,
  C extends Any,
  CR extends Any,
> {
  list?: Op<[query: z.infer<Q>, params: z.infer<CP>], z.input<L>>;
  create?: Op<[body: z.infer<C>, params: z.infer<CP>], z.input<CR>>;
  get?: Op<[params: z.infer<P>], z.input<R>>;
  update?: Op<[params: z.infer<P>, body: z.infer<B>], z.input<R>>;
  remove?: Op<[params: z.infer<P>], void>;
}

type Req = FastifyRequest & { params: unknown; body: unknown; query: unknown };

/**
 * Registers an entity's routes (list, create, GET, PATCH, DELETE — those given), e.g.
 * `crudRoutes(app, { tags, item: '/apikeys/:id', params: idParam, response, body }, { get: ['apikeys.read',
 * 'getApiKey', 'API-ключ', (c, { id }) => svc.get(c, id)], update: […], remove: […] })`.
 */
export function crudRoutes<
  P extends Any = typeof idParam,
  R extends Any = Any,
  B extends Any = Any,
  CP extends Any = typeof none,
  Q extends Any = Any,
  L extends Any = Any,
  C extends Any = Any,
  CR extends Any = R,
>(app: App, s: CrudSchemas<P, R, B, CP, Q, L, C, CR>, ops: CrudOps<P, R, B, CP, Q, L, C, CR>): void {
  const { tags, response } = s;
  const params = s.params ?? idParam;
  const item = s.item ?? `${s.path}/:id`;
  const route = (op: Op<never, unknown>, schema: object) => ({
    config: { permission: op[0] },
    schema: { operationId: op[1], tags, summary: op[2], ...schema },
  });
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${item}: ${what} is not given`);
    return v;
  };
  const { list, create, get, update, remove } = ops;
  const cp = s.pathParams ? { params: s.pathParams } : {};
  if (list) {
    const schema = { ...cp, querystring: need(s.query, 'the list query'), response: { 200: need(s.page, 'the list answer') } };
    app.get(need(s.path, 'the collection path'), route(list, schema), async (req: Req) =>
      list[3](callerOf(req), req.query as z.infer<Q>, req.params as z.infer<CP>),
    );
  }
  if (create) {
    const schema = { ...cp, body: need(s.create, 'the create body'), response: { 201: s.created ?? response } };
    app.post(need(s.path, 'the collection path'), route(create, schema), async (req: Req, reply: FastifyReply) =>
      reply.code(201).send(await create[3](callerOf(req), req.body as z.infer<C>, req.params as z.infer<CP>)),
    );
  }
  if (get) {
    app.get(item, route(get, { params, response: { 200: response } }), async (req: Req) =>
      get[3](callerOf(req), req.params as z.infer<P>),
    );
  }
  if (update) {
    const schema = { params, body: need(s.body, 'the PATCH body'), response: { 200: response } };
    app.patch(item, route(update, schema), async (req: Req) =>
      update[3](callerOf(req), req.params as z.infer<P>, req.body as z.infer<B>),
    );
  }
  if (remove) {
    app.delete(item, route(remove, { params, response: { 204: noContent } }), async (req: Req, reply: FastifyReply) => {
      await remove[3](callerOf(req), req.params as z.infer<P>);
      return reply.code(204).send(null);
    });
  }
}
