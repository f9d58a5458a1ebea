/*
 * In-app notifications. `notify(tx, items)` is how every producer (assignment, @mentions in comments,
 * SLA breaches) adds them: inside the producer's transaction, so a notification exists exactly when
 * its change committed; one statement per call. Reading is personal: a user sees only their own.
 */
import type { NotificationGroup, NotificationItem } from '@forpost/contract/notifications';
import type { Db } from '../../db/client';
import type { Caller } from '../../lib/caller';
import { iso } from '../../lib/serialize';
import { createNotificationsRepo, insertNotifications, type NewNotification } from './notifications.repo';

export type { NewNotification } from './notifications.repo';

/** Adds notifications in the caller's transaction (one INSERT for the whole batch). */
export function notify(tx: Db, items: readonly NewNotification[]): Promise<void> {
  return insertNotifications(items, tx);
}

export function createNotificationsService(deps: { db: Db }) {
  const repo = createNotificationsRepo(deps.db);
  return {
    async list(c: Caller, q: { unread?: boolean; grouped?: boolean; page: number; page_size: number }) {
      const userId = c.auth.user.id;
      const unread = q.unread === true;
      const page = { unread, limit: q.page_size, offset: (q.page - 1) * q.page_size };
      const [rows, total, unreadCount] = await Promise.all([
        q.grouped ? repo.listGrouped(userId, page) : repo.list(userId, page),
        q.grouped ? repo.countGrouped(userId, unread) : repo.count(userId, unread),
        unread || q.grouped ? repo.count(userId, true) : undefined,
      ]);
      const items: NotificationItem[] = rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        event_id: r.event_id === null ? null : Number(r.event_id),
        company_id: r.company_id,
        module: r.module,
        text: r.text,
        actor_id: r.actor_id,
        actor_name: r.actor_name,
        created_at: iso(r.created_at) as string,
        read_at: iso(r.read_at),
        count: Number(r.count),
      }));
      return { items, total, page: q.page, page_size: q.page_size, unread: unreadCount ?? total };
    },
    async unreadCount(c: Caller) {
      return { count: await repo.count(c.auth.user.id, true) };
    },
    /** Marks read; ids of someone else's notifications change nothing (they are not the caller's to see). */
    async markRead(c: Caller, body: { ids: number[] } | { all: true } | { group: NotificationGroup }) {
      if ('group' in body) return { updated: await repo.markGroupRead(c.auth.user.id, body.group) };
      return { updated: await repo.markRead(c.auth.user.id, 'ids' in body ? body.ids : null) };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
