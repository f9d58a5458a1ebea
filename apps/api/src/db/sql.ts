/*
 * Helpers for hand-written SQL (the `sql` tag of drizzle-orm). Drizzle expands a JS array
 * parameter into a row, so arrays travel as one Postgres array literal. A batch of rows written in
 * one statement travels as one array per column, `sql.param(values)` (node-postgres encodes it,
 * nulls included), read back with `unnest` (events.repo insertMany/updateMany/insertHistory).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client';

/** The text of an int[] (`{1,2}`): a parameter, or one element of a text[] batch column (unnest takes no ragged int[][]). */
export const arrayLiteral = (ids: readonly number[]) => `{${ids.map((n) => Math.trunc(n)).join(',')}}`;
/** An int[] parameter. */
export const intArray = (ids: number[]): SQL => sql`${arrayLiteral(ids)}::int[]`;
/** A bigint[] parameter (ids of events and other bigserial tables). */
export const bigArray = (ids: number[]): SQL => sql`${arrayLiteral(ids)}::bigint[]`;
/** The text of a text[] (`{"a","b"}`): quotes and backslashes escaped, so any text survives. */
export const textArrayLiteral = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
/** A text[] parameter. */
export const textArray = (values: string[]): SQL => sql`${textArrayLiteral(values)}::text[]`;

/** A LIKE pattern's text with its wildcards (`%`, `_`) and the escape character escaped. */
export const likeEscape = (s: string): string => s.replace(/[\\%_]/g, '\\$&');
/** An ILIKE pattern that finds the text anywhere in the value. */
export const containing = (s: string): string => `%${likeEscape(s)}%`;

/** Conditions joined by AND; none is TRUE. */
export const and = (parts: SQL[]): SQL => (parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`);

/** A jsonb parameter's text (undefined → SQL NULL). */
export const jsonParam = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));

/** The rows of a hand-written statement, typed by the caller (the statement names the columns). */
export async function rowsOf<T>(db: Db, q: SQL): Promise<T[]> {
  return (await db.execute(q)).rows as T[];
}
