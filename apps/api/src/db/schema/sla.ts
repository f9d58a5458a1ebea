/*
 * SLA policies: minutes to first triage and to resolution per priority code; company_id null = the
 * installation default (seeded), a company's rows override it priority by priority. Definitions:
 * packages/contract/src/sla.ts; the due times are computed in the database (function sla_due).
 */
import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './identity';

export const slaPolicies = pgTable(
  'sla_policies',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    /** A priority code (contract SLA_PRIORITIES). */
    priority: text('priority').notNull(),
    triageMinutes: integer('triage_minutes').notNull(),
    resolveMinutes: integer('resolve_minutes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sla_policies_company_priority_uq').on(sql`coalesce(${t.companyId}, 0)`, t.priority)],
);
