/* Comments on events: read with events.read, written with events.write, in the event's company only. */
import { COMMENT_EDIT_WINDOW_MS, COMMENT_MSG, type Comment } from '@forpost/contract/comments';
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import { ApiError, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import type { Caller } from '../events/access';

/** Raw SQL rows carry timestamps as text (drizzle's parsers); either form is accepted. */
const ms = (d: Date | string) => new Date(d).getTime();

interface CommentRow {
  id: number;
  event_id: number;
  text: string;
  author_id: number | null;
  author_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  company_id: number;
}

export function createCommentsService(deps: { db: Db; audit: Audit; now?: () => number }) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;
  const rows = async <T>(q: ReturnType<typeof sql>): Promise<T[]> => (await db.execute(q)).rows as T[];

  const isAdmin = (c: Caller) => ['SUPER_ADMIN', 'ADMIN'].includes(c.auth.principal.role);
  /** The author within 15 minutes of posting, or an administrator, may edit or delete. */
  const mayEdit = (c: Caller, r: CommentRow) =>
    can(c.auth.principal, 'events.write', r.company_id) &&
    (isAdmin(c) || (r.author_id === c.auth.user.id && now() - ms(r.created_at) <= COMMENT_EDIT_WINDOW_MS));

  const toItem = (c: Caller, r: CommentRow): Comment => ({
    id: r.id,
    event_id: r.event_id,
    text: r.text,
    author_id: r.author_id,
    author_name: r.author_name,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    edited: ms(r.updated_at) - ms(r.created_at) > 1000,
    can_edit: mayEdit(c, r),
  });

  async function eventCompany(c: Caller, eventId: number, perm: 'events.read' | 'events.write'): Promise<number> {
    const [ev] = await rows<{ company_id: number; module: string }>(
      sql`SELECT company_id, module FROM events WHERE id = ${eventId}`,
    );
    if (!ev || !can(c.auth.principal, 'events.read', ev.company_id)) throw notFound(EVENT_MSG.eventNotFound);
    const km = c.auth.principal.keyModules;
    if (km && !km.includes(ev.module) && !km.includes('*')) throw notFound(EVENT_MSG.eventNotFound);
    if (!can(c.auth.principal, perm, ev.company_id)) throw new ApiError(403, API_MSG.forbidden);
    return ev.company_id;
  }

  async function find(c: Caller, id: number): Promise<CommentRow> {
    const [r] = await rows<CommentRow>(
      sql`SELECT m.id, m.event_id, m.text, m.author_id, u.name AS author_name, m.created_at, m.updated_at, e.company_id
          FROM event_comments m JOIN events e ON e.id = m.event_id LEFT JOIN users u ON u.id = m.author_id WHERE m.id = ${id}`,
    );
    if (!r || !can(c.auth.principal, 'events.read', r.company_id)) throw notFound(COMMENT_MSG.notFound);
    return r;
  }

  function assertEditable(c: Caller, r: CommentRow) {
    if (mayEdit(c, r)) return;
    if (!can(c.auth.principal, 'events.write', r.company_id)) throw new ApiError(403, API_MSG.forbidden);
    throw new ApiError(403, r.author_id === c.auth.user.id ? COMMENT_MSG.editWindow : COMMENT_MSG.notAuthor);
  }

  return {
    async list(c: Caller, q: { event_id: number; page: number; page_size: number }) {
      await eventCompany(c, q.event_id, 'events.read');
      const [items, [total]] = await Promise.all([
        rows<CommentRow>(
          sql`SELECT m.id, m.event_id, m.text, m.author_id, u.name AS author_name, m.created_at, m.updated_at, e.company_id
              FROM event_comments m JOIN events e ON e.id = m.event_id LEFT JOIN users u ON u.id = m.author_id
              WHERE m.event_id = ${q.event_id} ORDER BY m.id LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
        ),
        rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM event_comments WHERE event_id = ${q.event_id}`),
      ]);
      return { items: items.map((r) => toItem(c, r)), total: total?.n ?? 0, page: q.page, page_size: q.page_size };
    },
    async get(c: Caller, id: number) {
      return toItem(c, await find(c, id));
    },
    async create(c: Caller, body: { event_id: number; text: string }) {
      const companyId = await eventCompany(c, body.event_id, 'events.write');
      const id = await db.transaction(async (tx) => {
        const [r] = (
          await tx.execute<{ id: number }>(
            sql`INSERT INTO event_comments (event_id, author_id, text) VALUES (${body.event_id}, ${c.auth.user.id}, ${body.text}) RETURNING id`,
          )
        ).rows;
        if (!r) throw new Error('comment insert returned nothing');
        await audit.record(
          c.actor,
          { action: 'comment.create', entity: 'comment', entityId: r.id, companyId, meta: { event_id: body.event_id } },
          tx,
        );
        return r.id;
      });
      return toItem(c, await find(c, id));
    },
    async update(c: Caller, id: number, body: { text: string }) {
      const r = await find(c, id);
      assertEditable(c, r);
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE event_comments SET text = ${body.text}, updated_at = now() WHERE id = ${id}`);
        await audit.record(
          c.actor,
          {
            action: 'comment.update',
            entity: 'comment',
            entityId: id,
            companyId: r.company_id,
            before: { text: r.text },
            after: { text: body.text },
          },
          tx,
        );
      });
      return toItem(c, await find(c, id));
    },
    async remove(c: Caller, id: number) {
      const r = await find(c, id);
      assertEditable(c, r);
      await db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM event_comments WHERE id = ${id}`);
        await audit.record(
          c.actor,
          {
            action: 'comment.delete',
            entity: 'comment',
            entityId: id,
            companyId: r.company_id,
            before: { text: r.text, author_id: r.author_id },
          },
          tx,
        );
      });
    },
  };
}
export type CommentsService = ReturnType<typeof createCommentsService>;
