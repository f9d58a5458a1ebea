import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Redirects from paths that are no console route (issue #16); `path` is normalised (contract `normalizeRulePath`). */
export const routeRules = pgTable(
  'route_rules',
  {
    id: serial('id').primaryKey(),
    path: text('path').notNull().unique('route_rules_path_uq'),
    /** A console path ('/…') or an absolute http(s) URL. */
    target: text('target').notNull(),
    /** 301 instead of 302 from the server. */
    permanent: boolean('permanent').notNull().default(false),
    comment: text('comment'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('route_rules_created_by_idx').on(t.createdBy)],
);
