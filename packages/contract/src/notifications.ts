/*
 * In-app notifications (the bell): an assignment, an @mention in a comment, an SLA breach. Personal:
 * only their user reads them (signed-in sessions; API keys have no bell).
 */
import { z } from 'zod';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind } from './enums';
import { boolParam, queryInt } from './events';
import { EVENT_MSG } from './modules/index';

export { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind };
export const NOTIFICATION_MSG = { emptyRead: 'Укажите уведомления или all: true' } as const;

/**
 * A mention in a comment's text: `@[Имя](user:42)` — what the comment editor's «@» autocomplete
 * inserts; the name is shown, the id is who gets notified.
 */
export const MENTION_RE = /@\[([^\]\n]{1,200})\]\(user:(\d{1,10})\)/g;
export const mentionToken = (name: string, id: number) => `@[${name.replace(/[[\]\n]/g, ' ')}](user:${id})`;
/** The user ids a comment mentions (each once, in order). */
export function mentionedUserIds(text: string): number[] {
  const ids = new Set<number>();
  for (const m of text.matchAll(MENTION_RE)) ids.add(Number(m[2]));
  return [...ids];
}

export const notificationItem = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The event it is about (null: a summary of many, e.g. a bulk assignment). */
  event_id: z.number().int().nullable(),
  company_id: z.number().int().nullable(),
  module: z.string().nullable(),
  text: z.string(),
  actor_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationsQuery = z
  .object({
    unread: boolParam.optional(),
    page: queryInt.min(1, { error: EVENT_MSG.tooSmall(1) }).default(1),
    page_size: queryInt
      .min(1, { error: EVENT_MSG.tooSmall(1) })
      .max(100, { error: EVENT_MSG.tooBig(100) })
      .default(20),
  })
  .strict();
export const notificationsResponse = z.object({
  items: z.array(notificationItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  unread: z.number().int(),
});
export const unreadCountResponse = z.object({ count: z.number().int() });
export const notificationsReadRequest = z.union(
  [z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) }).strict(), z.object({ all: z.literal(true) }).strict()],
  { error: NOTIFICATION_MSG.emptyRead },
);
export const notificationsReadResponse = z.object({ updated: z.number().int() });
