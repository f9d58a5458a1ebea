/*
 * In-app notifications (the bell): an assignment, an @mention in a comment, an SLA breach. Personal:
 * each row belongs to one user and only that user reads it.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from './events';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['assigned', 'mention', 'sla_breach', 'watch', 'hunt'] }).notNull(),
    /** The event it is about; null for a summary of many («назначено 40 событий»). Deleted with it. */
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    module: text('module'),
    text: text('text').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
  },
  (t) => [
    // The bell: a user's unread first page and count, newest first.
    index('notifications_user_idx').on(t.userId, t.readAt, t.createdAt.desc(), t.id.desc()),
    index('notifications_unread_idx').on(t.userId, t.id.desc()).where(sql`${t.readAt} IS NULL`),
    index('notifications_event_idx').on(t.eventId),
  ],
);
