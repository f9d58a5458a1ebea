/* Accounts: leaks from the catalogue linked to an account event, and leak names for autocomplete. */
import { idParams, noContent } from '@forpost/contract/events';
import {
  leakNamesQuery,
  leakNamesResponse,
  linkedLeaksResponse,
  linkLeakRequest,
  unlinkLeakQuery,
} from '@forpost/contract/events-extras';
import { EVENT_MSG } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { assertModule, callerOf } from './access';
import { eventsPath, pascal, tagsOf } from './events.routes';
import type { ExtraRegistrar } from './extras';

const rowsOf = async <T>(db: Db, q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];

export const linkedLeaksExtra: ExtraRegistrar = (app, m, ctx) => {
  const P = pascal(m.code);
  const tags = tagsOf(m);
  const linked = async (eventId: number) =>
    (
      await rowsOf<{ id: number; name: string; linked_at: Date | string }>(
        ctx.db,
        sql`SELECT l.id, l.name, al.created_at AS linked_at FROM account_leaks al JOIN leaks l ON l.id = al.leak_id WHERE al.event_id = ${eventId} ORDER BY al.created_at, l.id`,
      )
    ).map((r) => ({ ...r, linked_at: iso(r.linked_at) }));

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
    async (req) => ({ items: await linked((await ctx.events.load(callerOf(req), m, req.params.id, 'events.read')).id) }),
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
    async (req, reply) => {
      const c = callerOf(req);
      await ctx.db.transaction(async (tx) => {
        const ev = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        const [leak] = await rowsOf<{ id: number; name: string }>(
          tx,
          sql`SELECT id, name FROM leaks WHERE id = ${req.body.leak_id}`,
        );
        if (!leak) throw badRequest(EVENT_MSG.leakNotFound, { leak_id: EVENT_MSG.leakNotFound });
        const ins = await rowsOf(
          tx,
          sql`INSERT INTO account_leaks (event_id, leak_id, created_by) VALUES (${ev.id}, ${leak.id}, ${c.auth.user.id}) ON CONFLICT DO NOTHING RETURNING leak_id`,
        );
        if (!ins.length) throw conflict(EVENT_MSG.leakAlreadyLinked);
        await ctx.events.recordHistory(
          c,
          ev.id,
          [{ action: 'link', field: 'leaks', before: null, after: { id: leak.id, name: leak.name } }],
          tx,
        );
      });
      return reply.code(201).send({ items: await linked(req.params.id) });
    },
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
      const c = callerOf(req);
      await ctx.db.transaction(async (tx) => {
        const ev = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        const del = await rowsOf<{ leak_id: number }>(
          tx,
          sql`DELETE FROM account_leaks WHERE event_id = ${ev.id} AND leak_id = ${req.query.leak_id} RETURNING leak_id`,
        );
        if (!del.length) throw notFound(EVENT_MSG.leakNotLinked);
        await ctx.events.recordHistory(
          c,
          ev.id,
          [{ action: 'unlink', field: 'leaks', before: { id: req.query.leak_id }, after: null }],
          tx,
        );
      });
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
    async (req) => {
      assertModule(callerOf(req), m.code);
      const q = req.query.q ? `%${req.query.q.replace(/[\\%_]/g, (x) => `\\${x}`)}%` : null;
      return {
        items: await rowsOf<{ id: number; name: string }>(
          ctx.db,
          sql`SELECT id, name FROM leaks WHERE ${q === null ? sql`TRUE` : sql`name ILIKE ${q}`} ORDER BY name LIMIT ${req.query.limit}`,
        ),
      };
    },
  );
};
