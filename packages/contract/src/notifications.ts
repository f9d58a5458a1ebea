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
/** A comment's text with its mention tokens shown as «@Имя» (for notifications and previews). */
export const mentionsAsText = (text: string) => text.replace(MENTION_RE, (_m, name: string) => `@${name}`);

/**
 * Search text for the «@» and assignee pickers: lower case, «ё» as «е» (the API folds names and
 * e-mails the same way, so «Семен» finds «Семён»).
 */
export const foldSearch = (s: string) => s.toLowerCase().replace(/ё/g, 'е');

/**
 * Kinds whose unread notifications the bell folds into one item per company and module
 * («Нарушение SLA: 23 события»); a mention is always shown on its own (each says something else).
 */
export const GROUPED_KINDS = ['sla_breach', 'assigned'] as const satisfies readonly NotificationKind[];

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
  /**
   * How many alike unread notifications this item stands for (`grouped=true`; 1 otherwise). A group
   * (count > 1) shows its newest one's id, text and time, and `event_id` null.
   */
  count: z.number().int(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationsQuery = z
  .object({
    unread: boolParam.optional(),
    /** Fold alike unread ones (GROUPED_KINDS, same company and module) into one item with `count`. */
    grouped: boolParam.optional(),
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
/** A group of alike notifications, as a grouped list item names it (kind, company, module). */
export const notificationGroup = z
  .object({
    kind: z.enum(NOTIFICATION_KINDS),
    company_id: z.number().int().positive().nullable(),
    module: z.string().max(100).nullable(),
  })
  .strict();
export type NotificationGroup = z.infer<typeof notificationGroup>;
export const notificationsReadRequest = z.union(
  [
    z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) }).strict(),
    z.object({ all: z.literal(true) }).strict(),
    z.object({ group: notificationGroup }).strict(),
  ],
  { error: NOTIFICATION_MSG.emptyRead },
);
export const notificationsReadResponse = z.object({ updated: z.number().int() });
