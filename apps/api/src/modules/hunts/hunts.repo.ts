/* SQL of hunts (#34): hunts, their byte ranges, results (exactly once by the unique index), identities. */

import { isLoginPattern, loginPatternRegex } from '@forpost/contract/discovery';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bigArray, intArray, textArray } from '../../db/sql';
import type { CompanyIdentities } from './matcher';

export interface HuntRow {
  id: number;
  leak_id: number;
  leak_name: string;
  leaked_at: string | null;
  doc_key: string;
  file_name: string;
  size: number;
  status: string;
  error: string | null;
}
export interface RangeRow {
  id: number;
  hunt_id: number;
  start: number;
  end: number;
  status: string;
}
export interface ResultRow {
  companyId: number;
  login: string;
  eventId: number | null;
  isNew: boolean;
  corporateUrl: boolean;
  service: string | null;
  passwordKind: string;
  masked: string | null;
  hmac: string | null;
  strength: string | null;
  hashType: string | null;
}

const rows = async <T>(db: Db, q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];

export function createHuntsRepo(db: Db) {
  return {
    /**
     * Every company's protected identities (discovery's assets model): enabled `domain` assets are its email
     * domains, `login` exact logins, `login_pattern` login patterns (compiled to their bounded regex here),
     * an enabled `login_fold` asks for provider folding. One query for all companies: one pass of the matcher.
     */
    async identities(): Promise<CompanyIdentities[]> {
      const r = await rows<{ company_id: number; domains: string[]; logins: string[]; patterns: string[]; fold: boolean }>(
        db,
        sql`SELECT a.company_id,
                   coalesce(array_agg(a.value ORDER BY a.value) FILTER (WHERE a.kind = 'domain'), '{}') AS domains,
                   coalesce(array_agg(a.value ORDER BY a.value) FILTER (WHERE a.kind = 'login'), '{}') AS logins,
                   coalesce(array_agg(a.value ORDER BY a.value) FILTER (WHERE a.kind = 'login_pattern'), '{}') AS patterns,
                   bool_or(a.kind = 'login_fold') AS fold
              FROM discovery_assets a JOIN companies c ON c.id = a.company_id
             WHERE a.enabled AND c.is_active AND a.kind IN ('domain', 'login', 'login_pattern', 'login_fold')
             GROUP BY a.company_id ORDER BY a.company_id`,
      );
      return r.map((x) => ({
        companyId: x.company_id,
        domains: x.domains,
        logins: x.logins,
        patterns: x.patterns.filter(isLoginPattern).map(loginPatternRegex),
        foldProviders: x.fold,
      }));
    },
    async leakExists(id: number): Promise<boolean> {
      return (await rows(db, sql`SELECT 1 FROM leaks WHERE id = ${id}`)).length > 0;
    },
    /** New accounts of a finished hunt per company, with each active member of the company to notify. */
    async newPerMember(tx: Db, huntId: number) {
      return rows<{ company_id: number; n: number; user_id: number }>(
        tx,
        sql`SELECT r.company_id, count(DISTINCT r.id)::int AS n, cm.user_id
              FROM hunt_results r JOIN company_members cm ON cm.company_id = r.company_id
              JOIN users u ON u.id = cm.user_id AND u.is_active
             WHERE r.hunt_id = ${huntId} AND r.is_new GROUP BY r.company_id, cm.user_id`,
      );
    },
    async insertHunt(tx: Db, h: { leakId: number; docKey: string; fileName: string; size: number; createdBy: number | null }) {
      const [r] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO hunts (leak_id, doc_key, file_name, size, created_by)
             VALUES (${h.leakId}, ${h.docKey}, ${h.fileName}, ${h.size}, ${h.createdBy}) RETURNING id`,
      );
      return r!.id;
    },
    async insertRanges(tx: Db, huntId: number, ranges: { start: number; end: number }[]): Promise<number[]> {
      const r = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO hunt_ranges (hunt_id, start, "end")
             SELECT ${huntId}, s, e FROM unnest(${bigArray(ranges.map((x) => x.start))}, ${bigArray(ranges.map((x) => x.end))}) AS t(s, e)
             RETURNING id`,
      );
      return r.map((x) => x.id);
    },
    async hunt(id: number, tx: Db = db): Promise<HuntRow | undefined> {
      const [r] = await rows<HuntRow>(
        tx,
        sql`SELECT h.id, h.leak_id, l.name AS leak_name, l.leaked_at::text AS leaked_at, h.doc_key, h.file_name,
                   h.size::float8 AS size, h.status, h.error
              FROM hunts h JOIN leaks l ON l.id = h.leak_id WHERE h.id = ${id}`,
      );
      return r;
    },
    async range(id: number, tx: Db = db): Promise<RangeRow | undefined> {
      const [r] = await rows<RangeRow>(
        tx,
        sql`SELECT id, hunt_id, start::float8 AS start, "end"::float8 AS "end", status FROM hunt_ranges WHERE id = ${id}`,
      );
      return r;
    },
    /** The range starts (again): attempt counted, counters zeroed — a re-run overwrites, never adds. */
    async beginRange(id: number) {
      await db.execute(sql`UPDATE hunt_ranges SET status = 'running', attempts = attempts + 1, bytes = 0, lines = 0,
          unrecognized = 0, parsed = 0, samples = '[]', started_at = now(), heartbeat_at = now(), updated_at = now() WHERE id = ${id}`);
      await db.execute(sql`UPDATE hunts SET status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
          WHERE id = (SELECT hunt_id FROM hunt_ranges WHERE id = ${id}) AND status = 'queued'`);
    },
    async progress(
      tx: Db,
      id: number,
      p: { bytes: number; lines: number; unrecognized: number; parsed: number; samples: string[] },
      done: boolean,
    ) {
      await tx.execute(sql`UPDATE hunt_ranges SET bytes = ${p.bytes}, lines = ${p.lines}, unrecognized = ${p.unrecognized},
          parsed = ${p.parsed},
          samples = ${JSON.stringify(p.samples)}::jsonb, heartbeat_at = now(), updated_at = now(),
          status = CASE WHEN ${done} THEN 'done' ELSE status END, finished_at = CASE WHEN ${done} THEN now() END
        WHERE id = ${id}`);
    },
    /** Results not yet written by this hunt (any range, any attempt): the keys already there are dropped. */
    async knownResults(tx: Db, huntId: number, keys: { companyId: number; login: string }[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const r = await rows<{ company_id: number; login: string }>(
        tx,
        sql`SELECT company_id, login FROM hunt_results WHERE hunt_id = ${huntId}
             AND (company_id, login) IN (SELECT * FROM unnest(${intArray(keys.map((k) => k.companyId))}, ${textArray(keys.map((k) => k.login))}))`,
      );
      return new Set(r.map((x) => `${x.company_id}:${x.login}`));
    },
    /** Accounts events of these companies with these logins (any leak), the oldest per login. */
    async accountEvents(tx: Db, keys: { companyId: number; login: string }[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (!keys.length) return out;
      const r = await rows<{ company_id: number; login: string; id: number }>(
        tx,
        sql`SELECT DISTINCT ON (e.company_id, lower(e.data->>'login')) e.company_id, lower(e.data->>'login') AS login, e.id
              FROM events e JOIN unnest(${intArray(keys.map((k) => k.companyId))}, ${textArray(keys.map((k) => k.login))}) AS k(c, l)
                ON e.company_id = k.c AND lower(e.data->>'login') = k.l
             WHERE e.module = 'accounts' ORDER BY e.company_id, lower(e.data->>'login'), e.id`,
      );
      for (const x of r) out.set(`${x.company_id}:${x.login}`, Number(x.id));
      return out;
    },
    async linkLeak(tx: Db, eventIds: number[], leakId: number, by: number | null) {
      if (!eventIds.length) return;
      await tx.execute(sql`INSERT INTO account_leaks (event_id, leak_id, created_by)
          SELECT unnest(${bigArray(eventIds)}), ${leakId}, ${by} ON CONFLICT DO NOTHING`);
    },
    async insertResults(tx: Db, huntId: number, rs: ResultRow[]) {
      if (!rs.length) return;
      await tx.execute(sql`INSERT INTO hunt_results (hunt_id, company_id, login, event_id, is_new, corporate_url, service,
            password_kind, masked, hmac, strength, hash_type)
          SELECT ${huntId}, * FROM jsonb_to_recordset(${JSON.stringify(
            rs.map((r) => ({
              c: r.companyId,
              l: r.login,
              e: r.eventId,
              n: r.isNew,
              u: r.corporateUrl,
              s: r.service,
              k: r.passwordKind,
              m: r.masked,
              h: r.hmac,
              st: r.strength,
              ht: r.hashType,
            })),
          )}::jsonb) AS x(c int, l text, e bigint, n boolean, u boolean, s text, k text, m text, h text, st text, ht text)
          ON CONFLICT (hunt_id, company_id, login) DO NOTHING`);
    },
    /**
     * Ends the hunt when every range is done (once: only from running/queued). The hunt's row is locked first:
     * two workers finishing its last two ranges at once would otherwise each miss the other's uncommitted
     * `done` and leave the hunt «running» for ever; locked, the later one checks after the earlier commits.
     * NO KEY UPDATE (what the UPDATE takes anyway), not UPDATE: each batch's results hold a KEY SHARE lock of
     * the hunt (their foreign key), and FOR UPDATE would wait for the other finisher's and deadlock.
     */
    async finishIfDone(tx: Db, huntId: number): Promise<boolean> {
      await tx.execute(sql`SELECT 1 FROM hunts WHERE id = ${huntId} FOR NO KEY UPDATE`);
      const r = await rows<{ id: number }>(
        tx,
        sql`UPDATE hunts SET status = 'done', finished_at = now(), updated_at = now()
             WHERE id = ${huntId} AND status IN ('queued', 'running')
               AND NOT EXISTS (SELECT 1 FROM hunt_ranges WHERE hunt_id = ${huntId} AND status <> 'done') RETURNING id`,
      );
      return r.length > 0;
    },
    async fail(huntId: number, message: string) {
      await db.execute(sql`UPDATE hunts SET status = 'failed', error = ${message}, finished_at = now(), updated_at = now()
          WHERE id = ${huntId} AND status IN ('queued', 'running')`);
      await db.execute(sql`UPDATE hunt_ranges SET status = 'failed', updated_at = now()
          WHERE hunt_id = ${huntId} AND status <> 'done'`);
    },
    /** Hunts with their range sums, newest first (`id` for one). */
    async items(id: number | null, limit = 50) {
      return rows<{
        id: number;
        leak_id: number;
        leak_name: string;
        file_name: string;
        size: number;
        status: 'queued' | 'running' | 'done' | 'failed';
        error: string | null;
        created_at: string;
        started_at: string | null;
        finished_at: string | null;
        bytes: number;
        lines: number;
        unrecognized: number;
        parsed: number;
        ranges: number;
        ranges_done: number;
        elapsed: number | null;
      }>(
        db,
        sql`SELECT h.id, h.leak_id, l.name AS leak_name, h.file_name, h.size::float8 AS size, h.status, h.error,
                   to_json(h.created_at) #>> '{}' AS created_at, to_json(h.started_at) #>> '{}' AS started_at,
                   to_json(h.finished_at) #>> '{}' AS finished_at,
                   coalesce(r.bytes, 0) AS bytes, coalesce(r.lines, 0) AS lines, coalesce(r.unrecognized, 0) AS unrecognized,
                   coalesce(r.parsed, 0) AS parsed, coalesce(r.ranges, 0) AS ranges, coalesce(r.done, 0) AS ranges_done,
                   extract(epoch FROM coalesce(h.finished_at, now()) - h.started_at)::float8 AS elapsed
              FROM hunts h JOIN leaks l ON l.id = h.leak_id
              LEFT JOIN LATERAL (SELECT sum(bytes)::float8 AS bytes, sum(lines)::float8 AS lines,
                   sum(unrecognized)::float8 AS unrecognized, sum(parsed)::float8 AS parsed, count(*)::int AS ranges,
                   count(*) FILTER (WHERE status = 'done')::int AS done FROM hunt_ranges WHERE hunt_id = h.id) r ON true
             WHERE ${id === null} OR h.id = ${id ?? 0}
             ORDER BY h.id DESC LIMIT ${limit}`,
      );
    },
    /** Progress summed over ranges; matches per company counted from results (exactly once). */
    async summary(huntId: number, companyIds: number[] | null) {
      const [p] = await rows<{
        bytes: number;
        lines: number;
        unrecognized: number;
        parsed: number;
        ranges: number;
        done: number;
        samples: string[];
      }>(
        db,
        sql`SELECT coalesce(sum(bytes), 0)::float8 AS bytes, coalesce(sum(lines), 0)::float8 AS lines,
                   coalesce(sum(unrecognized), 0)::float8 AS unrecognized,
                   coalesce(sum(parsed), 0)::float8 AS parsed, count(*)::int AS ranges,
                   count(*) FILTER (WHERE status = 'done')::int AS done,
                   coalesce((SELECT jsonb_agg(s) FROM (SELECT jsonb_array_elements_text(samples) s FROM hunt_ranges
                      WHERE hunt_id = ${huntId} LIMIT 20) q), '[]') AS samples
              FROM hunt_ranges WHERE hunt_id = ${huntId}`,
      );
      const per = await rows<{ company_id: number; name: string; found: number; fresh: number; corporate: number }>(
        db,
        sql`SELECT r.company_id, c.name, count(*)::int AS found, count(*) FILTER (WHERE r.is_new)::int AS fresh,
                   count(*) FILTER (WHERE r.corporate_url)::int AS corporate
              FROM hunt_results r JOIN companies c ON c.id = r.company_id
             WHERE r.hunt_id = ${huntId} AND (${companyIds === null} OR r.company_id = ANY(${intArray(companyIds ?? [])}))
             GROUP BY r.company_id, c.name ORDER BY r.company_id`,
      );
      return { progress: p!, companies: per };
    },
  };
}
export type HuntsRepo = ReturnType<typeof createHuntsRepo>;
