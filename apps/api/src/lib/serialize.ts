/** Timestamps travel as ISO 8601 strings (UTC). */
export const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : (d instanceof Date ? d : new Date(d)).toISOString();
export const isoReq = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

/** Postgres unique violation (23505) on a given constraint/index name. */
export function isUniqueViolation(err: unknown, name?: string): boolean {
  const e = (err as { code?: string; constraint?: string; cause?: unknown }) ?? {};
  if (e.code === '23505') return !name || e.constraint === name;
  return e.cause ? isUniqueViolation(e.cause, name) : false;
}
