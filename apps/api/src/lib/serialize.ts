/**
 * Timestamps travel as ISO 8601 strings (UTC). A `Date` (Drizzle, node-postgres) or a string
 * PostgreSQL wrote (`to_json`, text casts) both come out as `toISOString()`; null stays null.
 */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null | undefined): string | null;
export function iso(d: Date | string | null | undefined): string | null {
  if (d == null) return null;
  if (typeof d === 'string') {
    const fast = pgUtcToIso(d);
    if (fast !== null) return fast;
  }
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

/**
 * PostgreSQL's text form of a `timestamptz` in UTC (`2026-11-28 08:18:01.315+00`, the fraction of
 * 0–6 digits) as `toISOString()` writes it, by slicing: a list page has ~100 of them, and parsing
 * each into a `Date` to print it again cost 6 % of a list request's CPU (bench/README, http.bench).
 * Any other form (another time zone, a year past 9999, BC, `infinity`, JSON's `T…+00:00`) is
 * null here and goes through `Date` as before; the fraction is cut to milliseconds as `Date` cuts it.
 */
export function pgUtcToIso(s: string): string | null {
  const n = s.length;
  if (n < 22 || n > 29 || s.charCodeAt(10) !== 32 || !s.endsWith('+00')) return null;
  if (!PG_UTC.test(s)) return null;
  const ms =
    n === 22
      ? '000'
      : s
          .slice(20, n - 3)
          .padEnd(3, '0')
          .slice(0, 3);
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${ms}Z`;
}
const PG_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

/** Postgres unique violation (23505) on a given constraint/index name. */
export function isUniqueViolation(err: unknown, name?: string): boolean {
  const e = (err as { code?: string; constraint?: string; cause?: unknown }) ?? {};
  if (e.code === '23505') return !name || e.constraint === name;
  return e.cause ? isUniqueViolation(e.cause, name) : false;
}
