/* Accounts: leaks from the catalogue linked to an account event, and leak names for autocomplete. */
import { idParams, noContent } from '@forpost/contract/events';
import {
  leakNamesQuery,
  leakNamesResponse,
  linkedLeaksResponse,
  linkLeakRequest,
  unlinkLeakQuery,
} from '@forpost/contract/events-extras';
import { callerOf } from '../../../lib/caller';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ExtraRegistrar } from './extras';
import { createLinkedLeaksService } from './extras.service';

export const linkedLeaksExtra: ExtraRegistrar = (app, m, ctx) => {
  const P = pascal(m.code);
  const tags = tagsOf(m);
  const svc = createLinkedLeaksService(ctx, m);

  app.get(
    `${eventsPath(m)}/:id/leaks`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: `list${P}EventLeaks`,
        tags,
        summary: `${m.name}: утечки аккаунта`,
        params: idParams,
        response: { 200: linkedLeaksResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.params.id),
  );

  app.post(
    `${eventsPath(m)}/:id/leaks`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `link${P}EventLeak`,
        tags,
        summary: `${m.name}: привязать утечку к аккаунту`,
        params: idParams,
        body: linkLeakRequest,
        response: { 201: linkedLeaksResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.link(callerOf(req), req.params.id, req.body.leak_id)),
  );

  app.delete(
    `${eventsPath(m)}/:id/leaks`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `unlink${P}EventLeak`,
        tags,
        summary: `${m.name}: отвязать утечку (?leak_id=)`,
        params: idParams,
        querystring: unlinkLeakQuery,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.unlink(callerOf(req), req.params.id, req.query.leak_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `/modules/${m.code}/leaknames`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: `list${P}LeakNames`,
        tags,
        summary: `${m.name}: названия утечек (для подсказок)`,
        querystring: leakNamesQuery,
        response: { 200: leakNamesResponse },
      },
    },
    async (req) => svc.names(callerOf(req), req.query),
  );
};
