/*
 * SQL of the watch: the company settings, the targets (enrol, claim under a lease with FOR UPDATE SKIP
 * LOCKED so that several workers never observe one domain at once), the states and transitions, and
 * the event changes a transition makes (priority, reopening).
 */
import type { TransitionKind, WatchRules, WatchState } from '@forpost/contract/watch';
import { DEFAULT_WATCH_INTERVAL_MINUTES, DEFAULT_WATCH_RULES } from '@forpost/contract/watch';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bigArray, jsonParam, rowsOf } from '../../db/sql';

const MODULE = 'domains';
/** The «Наблюдать» decision of the domains module watches an event whose own flag is not set. */
const MONITOR = sql`(SELECT id FROM event_decisions WHERE module = ${MODULE} AND code = 'monitor')`;
/** The event's domain as the watch and the CT monitor know it (punycode). */
const DOMAIN = sql`coalesce(e.data->>'domain_punycode', e.data->>'domain')`;
/** Is the event watched now: its flag, else the decision. */
const WATCHED = sql`coalesce(t.watched, e.decision_id = ${MONITOR})`;

export interface SettingsRow {
  company_id: number;
  enabled: boolean;
  interval_minutes: number;
  rules: WatchRules;
  updated_at: string | null;
}

export interface ClaimedTarget {
  event_id: number;
  company_id: number;
  domain: string;
  state_id: number | null;
  state: WatchState | null;
  state_hash: string | null;
  down: boolean;
  web_misses: number;
  /** The last certificate fingerprint the domain showed (any earlier state). */
  last_fingerprint: string | null;
  /** Every certificate the domain's states showed: `fp:<fingerprint>` and `sn:<serial>` (transitions.ts certKeys). */
  seen_certs?: string[];
  /** The newest certificate the CT monitor saw for the domain (watch_ct_certs), if any. */
  ct_cert?: CtCert | null;
  /** The event's module data (the card the observation updates; card.ts); absent = not followed. */
  card?: Record<string, unknown> | null;
  rules: WatchRules;
  status_id: number;
  status_final: boolean;
  priority_id: number | null;
  assignee_id: number | null;
  priority_level: number | null;
  allowlisted: boolean;
  observed_at: string | null;
}

export interface CtCert {
  issuer: string;
  serial: string;
  fingerprint: string;
  sans: string[];
}

/** A certificate of a CT log entry, as the CT monitor hands it over (discovery ct/parse CtEntry). */
export interface CtCertEntry {
  names: string[];
  issuer: string;
  serial: string;
  fingerprint: string;
  notBefore: string;
  notAfter: string;
}

/** The issuer as the TLS peer certificate gives it (observer): O, else CN, of an RFC 4514 DN. */
export function issuerName(dn: string): string {
  const attr = (k: string) => dn.match(new RegExp(`(?:^|[^\\\\],\\s*)${k}=((?:\\\\.|[^,])+)`))?.[1]?.replace(/\\(.)/g, '$1');
  return attr('O') ?? attr('CN') ?? dn;
}

export interface TargetRow {
  event_id: number;
  company_id: number;
  watched: boolean | null;
  interval_minutes: number | null;
  observed_at: string | null;
  decision_monitor: boolean;
}

export function createWatchRepo(db: Db) {
  return {
    async settings(companyId: number, tx: Db = db): Promise<SettingsRow> {
      const [r] = await rowsOf<SettingsRow>(
        tx,
        sql`SELECT company_id, enabled, interval_minutes, rules, updated_at FROM watch_settings WHERE company_id = ${companyId}`,
      );
      return (
        r ?? {
          company_id: companyId,
          enabled: true,
          interval_minutes: DEFAULT_WATCH_INTERVAL_MINUTES,
          rules: DEFAULT_WATCH_RULES,
          updated_at: null,
        }
      );
    },

    async putSettings(companyId: number, s: { enabled: boolean; interval_minutes: number; rules: WatchRules }, tx: Db) {
      await tx.execute(
        sql`INSERT INTO watch_settings (company_id, enabled, interval_minutes, rules, updated_at)
            VALUES (${companyId}, ${s.enabled}, ${s.interval_minutes}, ${jsonParam(s.rules)}::jsonb, now())
            ON CONFLICT (company_id) DO UPDATE SET enabled = excluded.enabled, interval_minutes = excluded.interval_minutes,
              rules = excluded.rules, updated_at = now()`,
      );
    },

    async companyExists(companyId: number): Promise<boolean> {
      const r = await rowsOf<{ n: number }>(db, sql`SELECT 1 AS n FROM companies WHERE id = ${companyId}`);
      return r.length > 0;
    },

    /** Domain events of the company watched now. */
    async watchedCount(companyId: number): Promise<number> {
      const [r] = await rowsOf<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM events e LEFT JOIN watch_targets t ON t.event_id = e.id
             WHERE e.company_id = ${companyId} AND e.module = ${MODULE} AND ${WATCHED}`,
      );
      return r?.n ?? 0;
    },

    /** The event (a domains one) with its watch row, if any. */
    async target(eventId: number): Promise<(TargetRow & { module: string }) | undefined> {
      const [r] = await rowsOf<TargetRow & { module: string }>(
        db,
        sql`SELECT e.id AS event_id, e.company_id, e.module, t.watched, t.interval_minutes, t.observed_at,
                   coalesce(e.decision_id = ${MONITOR}, false) AS decision_monitor
              FROM events e LEFT JOIN watch_targets t ON t.event_id = e.id WHERE e.id = ${eventId}`,
      );
      return r;
    },

    async setFlag(
      eventId: number,
      companyId: number,
      watched: boolean | null,
      intervalMinutes: number | null | undefined,
      tx: Db,
    ) {
      await tx.execute(
        sql`INSERT INTO watch_targets (event_id, company_id, watched, interval_minutes, domain)
            SELECT ${eventId}, ${companyId}, ${watched}, ${intervalMinutes ?? null}::int, ${DOMAIN} FROM events e WHERE e.id = ${eventId}
            ON CONFLICT (event_id) DO UPDATE SET watched = excluded.watched, domain = excluded.domain,
              interval_minutes = ${intervalMinutes === undefined ? sql`watch_targets.interval_minutes` : sql`excluded.interval_minutes`}`,
      );
    },

    /** Domain events with the «Наблюдать» decision get a target row (their flag stays null: by decision). */
    async enrol(): Promise<number> {
      const r = await db.execute(
        sql`INSERT INTO watch_targets (event_id, company_id, domain)
            SELECT e.id, e.company_id, ${DOMAIN} FROM events e
             WHERE e.module = ${MODULE} AND e.decision_id = ${MONITOR}
               AND NOT EXISTS (SELECT 1 FROM watch_targets t WHERE t.event_id = e.id)
            ON CONFLICT (event_id) DO NOTHING`,
      );
      return r.rowCount ?? 0;
    },

    /**
     * Up to `limit` due targets (watched, company watch on, last observation older than the interval,
     * no live lease), leased for `leaseSeconds`; rows another worker holds are skipped.
     */
    async claim(limit: number, leaseSeconds: number): Promise<ClaimedTarget[]> {
      return rowsOf<ClaimedTarget>(
        db,
        sql`WITH due AS (
              SELECT t.event_id FROM watch_targets t
                JOIN events e ON e.id = t.event_id
                LEFT JOIN watch_settings s ON s.company_id = t.company_id
               WHERE ${WATCHED} AND coalesce(s.enabled, true)
                 AND (t.lease_until IS NULL OR t.lease_until < now())
                 AND (t.observed_at IS NULL OR t.observed_at <= now() - make_interval(mins =>
                        coalesce(t.interval_minutes, s.interval_minutes, ${DEFAULT_WATCH_INTERVAL_MINUTES})))
               ORDER BY t.observed_at ASC NULLS FIRST, t.event_id
               LIMIT ${limit}
               FOR UPDATE OF t SKIP LOCKED
            ), leased AS (
              UPDATE watch_targets t SET lease_until = now() + make_interval(secs => ${leaseSeconds})
                FROM due WHERE t.event_id = due.event_id
              RETURNING t.*
            )
            SELECT l.event_id::int AS event_id, l.company_id, l.state_id::int AS state_id, l.down_since IS NOT NULL AS down,
                   l.web_misses,
                   l.observed_at,
                   ${DOMAIN} AS domain, e.data AS card,
                   st.state, st.state_hash,
                   (SELECT s2.state->>'tls_fingerprint' FROM watch_states s2
                     WHERE s2.event_id = l.event_id AND s2.state->>'tls_fingerprint' IS NOT NULL
                     ORDER BY s2.id DESC LIMIT 1) AS last_fingerprint,
                   ARRAY(SELECT DISTINCT k FROM watch_states s3,
                           LATERAL (VALUES ('fp:' || (s3.state->>'tls_fingerprint')), ('sn:' || (s3.state->>'tls_serial'))) v(k)
                          WHERE s3.event_id = l.event_id AND k IS NOT NULL) AS seen_certs,
                   (SELECT jsonb_build_object('issuer', c.issuer, 'serial', c.serial, 'fingerprint', c.fingerprint, 'sans', c.sans)
                      FROM watch_ct_certs c WHERE c.event_id = l.event_id ORDER BY c.id DESC LIMIT 1) AS ct_cert,
                   coalesce(s.rules, ${jsonParam(DEFAULT_WATCH_RULES)}::jsonb) AS rules,
                   e.status_id, coalesce(es.is_final, false) AS status_final, e.priority_id, e.assignee_id, ep.level AS priority_level,
                   (coalesce(e.whitelist_kind, 'undefined') <> 'undefined' OR EXISTS (
                      SELECT 1 FROM domain_allowlist al WHERE al.company_id = e.company_id
                         AND (al.domain_punycode = e.data->>'domain_punycode'
                              OR (e.data->>'domain_punycode') LIKE '%.' || al.domain_punycode))) AS allowlisted
              FROM leased l
              JOIN events e ON e.id = l.event_id
              LEFT JOIN watch_settings s ON s.company_id = l.company_id
              LEFT JOIN watch_states st ON st.id = l.state_id
              LEFT JOIN event_statuses es ON es.id = e.status_id
              LEFT JOIN event_priorities ep ON ep.id = e.priority_id
             ORDER BY l.event_id`,
      );
    },

    /** Gives back leases not used (a stopped round). */
    async release(eventIds: number[]): Promise<void> {
      if (eventIds.length)
        await db.execute(sql`UPDATE watch_targets SET lease_until = NULL WHERE event_id = ANY(${bigArray(eventIds)})`);
    },

    /**
     * Records an observation: the same state as the current one extends its range, another one is a
     * new row; the target gets its observation time, loses its lease and keeps whether it is down.
     */
    async record(
      tx: Db,
      t: {
        eventId: number;
        stateId: number | null;
        sameState: boolean;
        state: WatchState;
        hash: string;
        down: boolean;
        webMisses: number;
        at: Date;
        domain?: string;
      },
    ): Promise<number> {
      let stateId = t.stateId;
      if (t.sameState && stateId !== null) {
        await tx.execute(sql`UPDATE watch_states SET last_seen = ${t.at}, observations = observations + 1 WHERE id = ${stateId}`);
      } else {
        const [r] = await rowsOf<{ id: number }>(
          tx,
          sql`INSERT INTO watch_states (event_id, state, state_hash, first_seen, last_seen)
              VALUES (${t.eventId}, ${jsonParam(t.state)}::jsonb, ${t.hash}, ${t.at}, ${t.at}) RETURNING id::int AS id`,
        );
        stateId = r?.id ?? null;
      }
      await tx.execute(
        sql`UPDATE watch_targets SET observed_at = ${t.at}, lease_until = NULL, domain = coalesce(${t.domain ?? null}, domain), state_id = ${stateId}, web_misses = ${t.webMisses},
              down_since = CASE WHEN ${t.down} THEN coalesce(down_since, ${t.at}) ELSE NULL END
            WHERE event_id = ${t.eventId}`,
      );
      return stateId as number;
    },

    /** Is any domain event watched (the CT monitor follows its logs for the watch then, assets or not)? */
    async anyTarget(): Promise<boolean> {
      const [r] = await rowsOf<{ n: number }>(db, sql`SELECT 1 AS n FROM watch_targets WHERE domain IS NOT NULL LIMIT 1`);
      return r !== undefined;
    },

    /**
     * Keeps the certificates of CT entries that name a watched domain (exactly, or by a wildcard: the
     * parser gives '*.x' as 'x'), in the CT batch's transaction; returns the rows added.
     */
    async recordCtCerts(tx: Db, entries: readonly CtCertEntry[]): Promise<number> {
      const rows = entries.flatMap((e) =>
        e.names.map((name) => ({
          name,
          issuer: issuerName(e.issuer).slice(0, 1000),
          serial: e.serial,
          fingerprint: e.fingerprint,
          sans: e.names,
          not_before: e.notBefore,
          not_after: e.notAfter,
        })),
      );
      if (!rows.length) return 0;
      const r = await tx.execute(
        sql`INSERT INTO watch_ct_certs (event_id, issuer, serial, fingerprint, sans, not_before, not_after)
            SELECT t.event_id, c.issuer, c.serial, c.fingerprint, c.sans, c.not_before, c.not_after
              FROM jsonb_to_recordset(${jsonParam(rows)}::jsonb)
                   AS c(name text, issuer text, serial text, fingerprint text, sans jsonb, not_before timestamptz, not_after timestamptz)
              JOIN watch_targets t ON t.domain = c.name
            ON CONFLICT (event_id, issuer, serial) DO NOTHING`,
      );
      return r.rowCount ?? 0;
    },

    async insertTransitions(
      tx: Db,
      rows: { eventId: number; companyId: number; kind: TransitionKind; at: Date; before: unknown; after: unknown }[],
    ): Promise<void> {
      for (const r of rows)
        await tx.execute(
          sql`INSERT INTO watch_transitions (event_id, company_id, kind, at, before, after)
              VALUES (${r.eventId}, ${r.companyId}, ${r.kind}, ${r.at}, ${jsonParam(r.before)}::jsonb, ${jsonParam(r.after)}::jsonb)`,
        );
    },

    /** The priority of the domains module with this code: id and level. */
    async priority(code: string): Promise<{ id: number; level: number } | undefined> {
      const [r] = await rowsOf<{ id: number; level: number }>(
        db,
        sql`SELECT id, level FROM event_priorities WHERE module = ${MODULE} AND code = ${code}`,
      );
      return r;
    },
    async initialStatus(): Promise<number | undefined> {
      const [r] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM event_statuses WHERE module = ${MODULE} AND code = 'new'`);
      return r?.id;
    },

    async setPriority(tx: Db, eventId: number, priorityId: number): Promise<void> {
      await tx.execute(sql`UPDATE events SET priority_id = ${priorityId}, updated_at = now() WHERE id = ${eventId}`);
    },
    async setStatus(tx: Db, eventId: number, statusId: number): Promise<void> {
      await tx.execute(sql`UPDATE events SET status_id = ${statusId}, updated_at = now() WHERE id = ${eventId}`);
    },

    async states(eventId: number, limit: number) {
      return rowsOf<{ id: number; first_seen: string; last_seen: string; observations: number; state: WatchState }>(
        db,
        sql`SELECT id::int AS id, first_seen, last_seen, observations, state FROM watch_states
             WHERE event_id = ${eventId} ORDER BY id DESC LIMIT ${limit}`,
      );
    },
    async transitions(eventId: number, limit: number) {
      return rowsOf<{
        id: number;
        kind: TransitionKind;
        at: string;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
      }>(
        db,
        sql`SELECT id::int AS id, kind, at, before, after FROM watch_transitions
             WHERE event_id = ${eventId} ORDER BY id DESC LIMIT ${limit}`,
      );
    },

    /** Test/bench helper: every target due now. */
    async makeDue(eventIds?: number[]): Promise<void> {
      await db.execute(
        sql`UPDATE watch_targets SET observed_at = observed_at - interval '100 days', lease_until = NULL
             ${eventIds ? sql`WHERE event_id = ANY(${bigArray(eventIds)})` : sql``}`,
      );
    },
  };
}
export type WatchRepo = ReturnType<typeof createWatchRepo>;
