import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A user's own settings of the console (theme, columns and default view per module), one row per key. */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Saved views of a module's list: personal (owner only) or shared with one company. */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    module: text('module').notNull(),
    name: text('name').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    shared: boolean('shared').notNull().default(false),
    /** {filters, sort?, columns?}: the list's URL state, checked against the module's descriptor. */
    state: jsonb('state').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('saved_views_owner_idx').on(t.ownerId, t.module),
    index('saved_views_shared_idx').on(t.companyId, t.module).where(sql`${t.shared}`),
    check('saved_views_shared_company', sql`NOT ${t.shared} OR ${t.companyId} IS NOT NULL`),
  ],
);
