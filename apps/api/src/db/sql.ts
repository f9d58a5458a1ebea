/*
 * Helpers for hand-written SQL (the `sql` tag of drizzle-orm). Drizzle expands a JS array
 * parameter into a row, so arrays travel as one Postgres array literal. A batch of rows written in
 * one statement travels as one array per column, `sql.param(values)` (node-postgres encodes it,
 * nulls included), read back with `unnest` (events.repo insertMany/updateMany/insertHistory).
 */
import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client';

/** The text of an int[] (`{1,2}`): a parameter, or one element of a text[] batch column (unnest takes no ragged int[][]). */
export const arrayLiteral = (ids: readonly number[]) => `{${ids.map((n) => Math.trunc(n)).join(',')}}`;
/** An int[] parameter. */
export const intArray = (ids: number[]): SQL => sql`${arrayLiteral(ids)}::int[]`;
/** A bigint[] parameter (ids of events and other bigserial tables). */
export const bigArray = (ids: number[]): SQL => sql`${arrayLiteral(ids)}::bigint[]`;
/** The text of a text[] (`{"a","b"}`): quotes and backslashes escaped, so any text survives. */
export const textArrayLiteral = (values: readonly string[]) =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
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

/** What drizzle's node-postgres session reads as text (timestamps, dates, intervals, numeric[] …): rows read the same either way. */
const TEXT_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);
const textTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text'),
};

/** Most distinct statement texts one process prepares; past it a text runs unprepared (nothing is evicted). */
export const MAX_PREPARED_TEXTS = 256;
const preparedNames = new Map<string, string>();
const dialect = new PgDialect();

/**
 * The rows of a read that runs often with the same text, as a named prepared statement: parsed and
 * planned once per connection instead of on every request (planning a page of `events`, with its
 * twenty-odd indexes and three joins, costs more than running it; docs/decisions.md, «Путь запроса:
 * подготовленные операторы»). The name is a hash of the text, so one text is one statement on every
 * connection; values stay parameters. At most MAX_PREPARED_TEXTS texts a process are named — a caller
 * who invents filter shapes cannot grow the server's memory — and the rest run as `rowsOf` does.
 * Values that change the plan's shape (LIMIT, OFFSET) belong in the text (`sql.raw` of a checked
 * integer): a parameter there makes PostgreSQL's generic plan guess and fall back to planning anew.
 * Rows are typed as `rowsOf` returns them (timestamps as text).
 */
export async function preparedRowsOf<T>(db: Db, q: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(q);
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < MAX_PREPARED_TEXTS) {
    name = `forpost_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    preparedNames.set(text, name);
  }
  const client = (db as Db & { $client?: pg.Pool | pg.PoolClient }).$client;
  if (!client) return rowsOf<T>(db, q);
  const r = await client.query({ name, text, values: params as unknown[], types: textTypes });
  return r.rows as T[];
}

/** A non-negative integer written into a statement's text (LIMIT, OFFSET of a prepared read). */
export const intLiteral = (n: number): SQL => {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count: ${n}`);
  return sql.raw(String(n));
};
