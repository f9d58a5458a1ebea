/*
 * Item routes of an admin entity: GET, PATCH and DELETE on `/…/{id}`, each with its zod schemas,
 * operationId and declared permission. The helper only wires a route to its service call: the rules,
 * tenant scope, transaction and audit entry stay in the service (audit in the change's transaction).
 */
import type { Permission } from '@forpost/contract/permissions';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Caller, callerOf } from './caller';
import type { App } from './routes';

/** The answer of a DELETE: 204 with no body. */
export const noContent = z.null().describe('Нет содержимого');

interface ItemOp {
  operationId: string;
  summary: string;
  permission: Permission;
}

export interface ItemRoutesDef<P extends z.ZodType, R extends z.ZodType, B extends z.ZodType> {
  /** The item's path, e.g. `/apikeys/:id`. */
  path: string;
  tags: string[];
  /** The path parameters (validated before the service is called). */
  params: P;
  /** The answer of GET and PATCH. */
  response: R;
  get?: ItemOp & { run: (c: Caller, params: z.infer<P>) => Promise<z.input<R>> };
  update?: ItemOp & { body: B; run: (c: Caller, params: z.infer<P>, body: z.infer<B>) => Promise<z.input<R>> };
  remove?: ItemOp & { run: (c: Caller, params: z.infer<P>) => Promise<void> };
}

type Req = FastifyRequest & { params: unknown; body: unknown };

/** Registers the item routes of `def` (in the order GET, PATCH, DELETE). */
export function itemRoutes<P extends z.ZodType, R extends z.ZodType, B extends z.ZodType>(
  app: App,
  def: ItemRoutesDef<P, R, B>,
): void {
  const { path, tags, params, response } = def;
  const schema = (op: ItemOp) => ({ operationId: op.operationId, tags, summary: op.summary, params });
  const { get, update, remove } = def;
  if (get) {
    app.get(
      path,
      { config: { permission: get.permission }, schema: { ...schema(get), response: { 200: response } } },
      async (req: Req) => get.run(callerOf(req), req.params as z.infer<P>),
    );
  }
  if (update) {
    app.patch(
      path,
      {
        config: { permission: update.permission },
        schema: { ...schema(update), body: update.body, response: { 200: response } },
      },
      async (req: Req) => update.run(callerOf(req), req.params as z.infer<P>, req.body as z.infer<B>),
    );
  }
  if (remove) {
    app.delete(
      path,
      { config: { permission: remove.permission }, schema: { ...schema(remove), response: { 204: noContent } } },
      async (req: Req, reply: FastifyReply) => {
        await remove.run(callerOf(req), req.params as z.infer<P>);
        return reply.code(204).send(null);
      },
    );
  }
}
