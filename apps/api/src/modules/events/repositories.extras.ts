/* Repositories: files found in a repository event (path, link, matched fragment, optional sample doc). */
import { idParams, noContent } from '@forpost/contract/events';
import {
  repoFileCreateRequest,
  repoFileItem,
  repoFileParams,
  repoFilePatchRequest,
  repoFilesResponse,
} from '@forpost/contract/events-extras';
import { EVENT_MSG } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { callerOf } from './access';
import { eventsPath, pascal, tagsOf } from './events.routes';
import type { ExtraRegistrar } from './extras';

interface FileRow {
  id: number;
  event_id: number;
  path: string;
  url: string | null;
  matched: string | null;
  doc_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}
const rowsOf = async <T>(db: Db, q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];
const toItem = (r: FileRow) => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });
const COLS = sql`id, event_id, path, url, matched, doc_id, created_at, updated_at`;

export const filesExtra: ExtraRegistrar = (app, m, ctx) => {
  const P = pascal(m.code);
  const tags = tagsOf(m);
  const base = `${eventsPath(m)}/:id/files`;
  const one = async (tx: Db, eventId: number, fileId: number) => {
    const [r] = await rowsOf<FileRow>(
      tx,
      sql`SELECT ${COLS} FROM repository_files WHERE id = ${fileId} AND event_id = ${eventId}`,
    );
    if (!r) throw notFound(EVENT_MSG.fileNotFound);
    return r;
  };

  app.get(
    base,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: `list${P}EventFiles`,
        tags,
        summary: `${m.name}: файлы репозитория`,
        params: idParams,
        response: { 200: repoFilesResponse },
      },
    },
    async (req) => {
      const ev = await ctx.events.load(callerOf(req), m, req.params.id, 'events.read');
      return {
        items: (
          await rowsOf<FileRow>(
            ctx.db,
            sql`SELECT ${COLS} FROM repository_files WHERE event_id = ${ev.id} ORDER BY id LIMIT 5000`,
          )
        ).map(toItem),
      };
    },
  );

  app.post(
    base,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `create${P}EventFile`,
        tags,
        summary: `${m.name}: добавить файл`,
        params: idParams,
        body: repoFileCreateRequest,
        response: { 201: repoFileItem },
      },
    },
    async (req, reply) => {
      const c = callerOf(req);
      const b = req.body;
      const item = await ctx.db.transaction(async (tx) => {
        const ev = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        if (b.doc_id) await ctx.docs.assertUsableFor(b.doc_id, ev.company_id);
        const [r] = await rowsOf<FileRow>(
          tx,
          sql`INSERT INTO repository_files (event_id, path, url, matched, doc_id) VALUES (${ev.id}, ${b.path}, ${b.url ?? null}, ${b.matched ?? null}, ${b.doc_id ?? null}) RETURNING ${COLS}`,
        );
        if (!r) throw new Error('file insert returned nothing');
        await ctx.events.recordHistory(
          c,
          ev.id,
          [{ action: 'link', field: 'files', before: null, after: { id: r.id, path: r.path } }],
          tx,
        );
        return toItem(r);
      });
      return reply.code(201).send(item);
    },
  );

  app.patch(
    `${base}/:fileId`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `update${P}EventFile`,
        tags,
        summary: `${m.name}: изменить файл`,
        params: repoFileParams,
        body: repoFilePatchRequest,
        response: { 200: repoFileItem },
      },
    },
    async (req) => {
      const c = callerOf(req);
      const b = req.body;
      return ctx.db.transaction(async (tx) => {
        const ev = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        const before = await one(tx, ev.id, req.params.fileId);
        if (b.doc_id) await ctx.docs.assertUsableFor(b.doc_id, ev.company_id);
        const next = {
          path: b.path ?? before.path,
          url: b.url === undefined ? before.url : b.url,
          matched: b.matched === undefined ? before.matched : b.matched,
          doc_id: b.doc_id === undefined ? before.doc_id : b.doc_id,
        };
        const [r] = await rowsOf<FileRow>(
          tx,
          sql`UPDATE repository_files SET path = ${next.path}, url = ${next.url}, matched = ${next.matched}, doc_id = ${next.doc_id}, updated_at = now()
              WHERE id = ${before.id} RETURNING ${COLS}`,
        );
        await ctx.events.recordHistory(
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
        return toItem(r as FileRow);
      });
    },
  );

  app.delete(
    `${base}/:fileId`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `delete${P}EventFile`,
        tags,
        summary: `${m.name}: удалить файл`,
        params: repoFileParams,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      const c = callerOf(req);
      await ctx.db.transaction(async (tx) => {
        const ev = await ctx.events.load(c, m, req.params.id, 'events.write', tx, true);
        const f = await one(tx, ev.id, req.params.fileId);
        await tx.execute(sql`DELETE FROM repository_files WHERE id = ${f.id}`);
        await ctx.events.recordHistory(
          c,
          ev.id,
          [{ action: 'unlink', field: 'files', before: { id: f.id, path: f.path }, after: null }],
          tx,
        );
      });
      return reply.code(204).send(null);
    },
  );
};
