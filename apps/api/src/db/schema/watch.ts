/*
 * The watch (#31): per company the schedule and the priority rules, per domain event its watch flag,
 * interval override and lease, the distinct states it was seen in (one row per state with the time
 * range it held) and the transitions between them.
 */
import type { TransitionKind, WatchRules, WatchState } from '@forpost/contract/watch';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { events } from './events';
import { companies } from './identity';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A company's watch: on/off, the interval, the priority rules per transition kind. No row = the defaults. */
export const watchSettings = pgTable('watch_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  intervalMinutes: integer('interval_minutes').notNull().default(360),
  rules: jsonb('rules').$type<WatchRules>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * One row per domain event the watch knows: its flag (null = follow the «Наблюдать» decision), its
 * interval override, when it was last observed, the lease of the worker observing it now, and the
 * state it is in (the last watch_states row).
 */
export const watchTargets = pgTable(
  'watch_targets',
  {
    eventId: bigint('event_id', { mode: 'number' })
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    watched: boolean('watched'),
    intervalMinutes: integer('interval_minutes'),
    observedAt: ts('observed_at'),
    leaseUntil: ts('lease_until'),
    stateId: bigint('state_id', { mode: 'number' }),
    /** Since when the domain is down (an `offline` transition); cleared by `came_back`. */
    downSince: ts('down_since'),
    /** Observations in a row whose page did not answer in time (the first keeps the last known page). */
    webMisses: integer('web_misses').notNull().default(0),
    /** The event's domain (punycode), kept for the CT monitor to find the targets a certificate names. */
    domain: text('domain'),
  },
  (t) => [
    index('watch_targets_due_idx').on(t.observedAt.asc().nullsFirst()),
    index('watch_targets_company_idx').on(t.companyId),
    index('watch_targets_domain_idx').on(t.domain),
  ],
);

/**
 * Certificates the CT monitor saw for a watched domain (one per issuer and serial: a precertificate and
 * its certificate are one). The next observation of a site that serves no TLS reports the newest one.
 */
export const watchCtCerts = pgTable(
  'watch_ct_certs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    serial: text('serial').notNull(),
    fingerprint: text('fingerprint').notNull(),
    sans: jsonb('sans').$type<string[]>().notNull(),
    notBefore: ts('not_before'),
    notAfter: ts('not_after'),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('watch_ct_certs_uq').on(t.eventId, t.issuer, t.serial),
    index('watch_ct_certs_event_idx').on(t.eventId, t.id.desc()),
  ],
);

/** A distinct state of a watched domain and the time range it held (first and last observation). */
export const watchStates = pgTable(
  'watch_states',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    state: jsonb('state').$type<WatchState>().notNull(),
    /** sha256 of the state's identity (observer `stateKey`): equal states are one row. */
    stateHash: text('state_hash').notNull(),
    firstSeen: ts('first_seen').notNull(),
    lastSeen: ts('last_seen').notNull(),
    observations: integer('observations').notNull().default(1),
  },
  (t) => [index('watch_states_event_idx').on(t.eventId, t.id.desc())],
);

/** A change between two observations, classified (contract TRANSITIONS). */
export const watchTransitions = pgTable(
  'watch_transitions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    kind: text('kind').$type<TransitionKind>().notNull(),
    at: ts('at').notNull().default(sql`now()`),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('watch_transitions_event_idx').on(t.eventId, t.id.desc()),
    index('watch_transitions_company_idx').on(t.companyId, t.at.desc()),
    // The mailings' transition feed over all companies (mailings.repo collectTransitions: at >= from).
    index('watch_transitions_at_idx').on(t.at),
  ],
);
