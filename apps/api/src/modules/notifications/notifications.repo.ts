/* SQL of the in-app notifications (the bell). Every read and write is for one user (the service passes it). */
import { GROUPED_KINDS, type NotificationGroup, type NotificationKind } from '@forpost/contract/notifications';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bigArray, rowsOf, textArray } from '../../db/sql';

/** What a notification says, as its producer gives it. */
export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  eventId: number | null;
  companyId: number | null;
  module: string | null;
  text: string;
  actorId: number | null;
}

export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  event_id: number | null;
  company_id: number | null;
  module: string | null;
  text: string;
  actor_id: number | null;
  actor_name: string | null;
  created_at: Date | string;
  read_at: Date | string | null;
  /** How many alike unread ones the row stands for (grouped lists; 1 otherwise). */
  count: number;
}

/**
 * The user's notifications, each with its group key: alike unread ones (GROUPED_KINDS, same company
 * and module) share one; any other stands alone.
 */
const keyed = (userId: number, unread: boolean) => sql`
  SELECT n.*, CASE WHEN n.read_at IS NULL AND n.kind = ANY(${textArray([...GROUPED_KINDS])})
                   THEN concat_ws(':', 'g', n.kind, coalesce(n.company_id::text, '-'), coalesce(n.module, '-'))
                   ELSE 'n:' || n.id END AS gkey
  FROM notifications n WHERE n.user_id = ${userId}${unread ? sql` AND n.read_at IS NULL` : sql``}`;

/** Inserts a batch in one statement (arrays through unnest). */
export async function insertNotifications(items: readonly NewNotification[], tx: Db): Promise<void> {
  if (!items.length) return;
  const col = <T>(f: (n: NewNotification) => T) => sql.param(items.map(f));
  await tx.execute(sql`
    INSERT INTO notifications (user_id, kind, event_id, company_id, module, text, actor_id)
    SELECT * FROM unnest(${col((n) => n.userId)}::int[], ${col((n) => n.kind)}::text[], ${col((n) => n.eventId)}::bigint[],
                         ${col((n) => n.companyId)}::int[], ${col((n) => n.module)}::text[], ${col((n) => n.text)}::text[],
                         ${col((n) => n.actorId)}::int[])`);
}

export function createNotificationsRepo(db: Db) {
  return {
    /** A page, newest first (by the index on user_id, read_at, created_at). */
    async list(userId: number, p: { unread: boolean; limit: number; offset: number }): Promise<NotificationRow[]> {
      const unread = p.unread ? sql` AND n.read_at IS NULL` : sql``;
      return rowsOf<NotificationRow>(
        db,
        sql`SELECT n.id, n.kind, n.event_id, n.company_id, n.module, n.text, n.actor_id, u.name AS actor_name, n.created_at, n.read_at,
                   1 AS count
            FROM notifications n LEFT JOIN users u ON u.id = n.actor_id
            WHERE n.user_id = ${userId}${unread}
            ORDER BY n.created_at DESC, n.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`,
      );
    },

    /**
     * A page of the grouped list, newest first: a group is its newest member (with event_id null
     * when it stands for more than one) and their count.
     */
    async listGrouped(userId: number, p: { unread: boolean; limit: number; offset: number }): Promise<NotificationRow[]> {
      return rowsOf<NotificationRow>(
        db,
        sql`WITH k AS (${keyed(userId, p.unread)}),
                 g AS (SELECT DISTINCT ON (gkey) k.*, count(*) OVER (PARTITION BY gkey)::int AS count
                       FROM k ORDER BY gkey, created_at DESC, id DESC)
            SELECT g.id, g.kind, CASE WHEN g.count > 1 THEN NULL ELSE g.event_id END AS event_id, g.company_id, g.module,
                   g.text, g.actor_id, u.name AS actor_name, g.created_at, g.read_at, g.count
            FROM g LEFT JOIN users u ON u.id = g.actor_id
            ORDER BY g.created_at DESC, g.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`,
      );
    },

    /** How many items the grouped list has. */
    async countGrouped(userId: number, unread: boolean): Promise<number> {
      const [r] = await rowsOf<{ n: number }>(db, sql`SELECT count(DISTINCT gkey)::int AS n FROM (${keyed(userId, unread)}) k`);
      return r?.n ?? 0;
    },

    /** Marks the user's unread ones of a group read; how many changed. */
    async markGroupRead(userId: number, g: NotificationGroup): Promise<number> {
      const r = await rowsOf<{ id: number }>(
        db,
        sql`UPDATE notifications SET read_at = now()
            WHERE user_id = ${userId} AND read_at IS NULL AND kind = ${g.kind}
              AND company_id IS NOT DISTINCT FROM ${g.company_id}::int AND module IS NOT DISTINCT FROM ${g.module}::text
            RETURNING id`,
      );
      return r.length;
    },

    async count(userId: number, unread: boolean): Promise<number> {
      const cond = unread ? sql` AND read_at IS NULL` : sql``;
      const [r] = await rowsOf<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId}${cond}`,
      );
      return r?.n ?? 0;
    },

    /** Marks the user's own unread ones read (ids: these; null: all); how many changed. */
    async markRead(userId: number, ids: number[] | null): Promise<number> {
      const only = ids ? sql` AND id = ANY(${bigArray(ids)})` : sql``;
      const r = await rowsOf<{ id: number }>(
        db,
        sql`UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND read_at IS NULL${only} RETURNING id`,
      );
      return r.length;
    },
  };
}
