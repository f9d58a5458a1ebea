/* Comments on events: read with events.read, written with events.write, in the event's company only. */
import { COMMENT_EDIT_WINDOW_MS, COMMENT_MSG, type Comment } from '@forpost/contract/comments';
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG } from '@forpost/contract/modules';
import { mentionedUserIds, mentionsAsText } from '@forpost/contract/notifications';
import { can } from '@forpost/contract/permissions';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { ApiError, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { createAssignment, createEventsRepo, type EventPlace } from '../events/index';
import { notify } from '../notifications/index';
import { type CommentRow, createCommentsRepo } from './comments.repo';

/** An event's place and its title (what a mention's notification names). */
type Place = EventPlace & { title: string };

const QUOTE_MAX = 160;
/** «Имя упомянул(а) вас в «Заголовок»: первая строка комментария» (mentions shown as «@Имя»). */
export function mentionNotice(author: string, title: string, text: string): string {
  const first = mentionsAsText(text).trim().split('\n', 1)[0]?.trim() ?? '';
  const quote = first.length > QUOTE_MAX ? `${first.slice(0, QUOTE_MAX - 1)}…` : first;
  return `${author} упомянул(а) вас в «${title.slice(0, 200)}»: ${quote}`;
}

export function createCommentsService(deps: { db: Db; audit: Audit; now?: () => number }) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;
  const repo = createCommentsRepo(db);
  const events = createEventsRepo(db);
  const assignment = createAssignment(db);

  /**
   * Notifies exactly the users a comment newly mentions by id (`@[Имя](user:42)`, contract
   * MENTION_RE; never by a name) — of them only those who may see the event, never the author — in
   * the comment's transaction. The notification names the event and quotes the comment's first line.
   */
  async function notifyMentions(c: Caller, eventId: number, at: Place, text: string, before: string, tx: Db) {
    const was = new Set(mentionedUserIds(before));
    const ids = mentionedUserIds(text).filter((id) => !was.has(id) && id !== c.auth.user.id);
    if (!ids.length) return;
    const users = await assignment.seeing(ids, at, tx);
    await notify(
      tx,
      users.map((u) => ({
        userId: u.id,
        kind: 'mention' as const,
        eventId,
        companyId: at.companyId,
        module: at.module,
        text: mentionNotice(c.auth.user.name, at.title, text),
        actorId: c.auth.user.id,
      })),
    );
  }

  const isAdmin = (c: Caller) => ['SUPER_ADMIN', 'ADMIN'].includes(c.auth.principal.role);
  /** The author within 15 minutes of posting, or an administrator, may edit or delete. */
  const mayEdit = (c: Caller, r: CommentRow) =>
    can(c.auth.principal, 'events.write', r.companyId) &&
    (isAdmin(c) || (r.authorId === c.auth.user.id && now() - r.createdAt.getTime() <= COMMENT_EDIT_WINDOW_MS));

  const toItem = (c: Caller, r: CommentRow): Comment => ({
    id: r.id,
    event_id: r.eventId,
    text: r.text,
    author_id: r.authorId,
    author_name: r.authorName,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    edited: r.updatedAt.getTime() - r.createdAt.getTime() > 1000,
    can_edit: mayEdit(c, r),
  });

  async function eventPlace(c: Caller, eventId: number, perm: 'events.read' | 'events.write'): Promise<Place> {
    const ev = await events.owner(eventId);
    if (!ev || !can(c.auth.principal, 'events.read', ev.companyId)) throw notFound(EVENT_MSG.eventNotFound);
    const km = c.auth.principal.keyModules;
    if (km && !km.includes(ev.module) && !km.includes('*')) throw notFound(EVENT_MSG.eventNotFound);
    if (!can(c.auth.principal, perm, ev.companyId)) throw new ApiError(403, API_MSG.forbidden);
    return ev;
  }

  async function find(c: Caller, id: number): Promise<CommentRow> {
    const r = await repo.find(id);
    if (!r || !can(c.auth.principal, 'events.read', r.companyId)) throw notFound(COMMENT_MSG.notFound);
    return r;
  }

  function assertEditable(c: Caller, r: CommentRow) {
    if (mayEdit(c, r)) return;
    if (!can(c.auth.principal, 'events.write', r.companyId)) throw new ApiError(403, API_MSG.forbidden);
    throw new ApiError(403, r.authorId === c.auth.user.id ? COMMENT_MSG.editWindow : COMMENT_MSG.notAuthor);
  }

  return {
    async list(c: Caller, q: { event_id: number; page: number; page_size: number }) {
      await eventPlace(c, q.event_id, 'events.read');
      const { rows, total } = await repo.list(q.event_id, q.page_size, (q.page - 1) * q.page_size);
      return { items: rows.map((r) => toItem(c, r)), total, page: q.page, page_size: q.page_size };
    },
    async get(c: Caller, id: number) {
      return toItem(c, await find(c, id));
    },
    async create(c: Caller, body: { event_id: number; text: string }) {
      const at = await eventPlace(c, body.event_id, 'events.write');
      const companyId = at.companyId;
      const id = await db.transaction(async (tx) => {
        const id = await repo.insert({ eventId: body.event_id, authorId: c.auth.user.id, text: body.text }, tx);
        await notifyMentions(c, body.event_id, at, body.text, '', tx);
        await audit.record(
          c.actor,
          { action: 'comment.create', entity: 'comment', entityId: id, companyId, meta: { event_id: body.event_id } },
          tx,
        );
        return id;
      });
      return toItem(c, await find(c, id));
    },
    async update(c: Caller, id: number, body: { text: string }) {
      const r = await find(c, id);
      assertEditable(c, r);
      const at = await eventPlace(c, r.eventId, 'events.read');
      await db.transaction(async (tx) => {
        await repo.setText(id, body.text, tx);
        await notifyMentions(c, r.eventId, at, body.text, r.text, tx);
        await audit.record(
          c.actor,
          {
            action: 'comment.update',
            entity: 'comment',
            entityId: id,
            companyId: r.companyId,
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
        await repo.remove(id, tx);
        await audit.record(
          c.actor,
          {
            action: 'comment.delete',
            entity: 'comment',
            entityId: id,
            companyId: r.companyId,
            before: { text: r.text, author_id: r.authorId },
          },
          tx,
        );
      });
    },
  };
}
export type CommentsService = ReturnType<typeof createCommentsService>;
