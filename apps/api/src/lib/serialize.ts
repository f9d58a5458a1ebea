/**
 * Timestamps travel as ISO 8601 strings (UTC). A `Date` (Drizzle, node-postgres) or a string
 * PostgreSQL wrote (`to_json`, text casts) both come out as `toISOString()`; null stays null.
 */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null | undefined): string | null;
export function iso(d: Date | string | null | undefined): string | null {
  return d == null ? null : (d instanceof Date ? d : new Date(d)).toISOString();
}

/** Postgres unique violation (23505) on a given constraint/index name. */
export function isUniqueViolation(err: unknown, name?: string): boolean {
  const e = (err as { code?: string; constraint?: string; cause?: unknown }) ?? {};
  if (e.code === '23505') return !name || e.constraint === name;
  return e.cause ? isUniqueViolation(e.cause, name) : false;
}
