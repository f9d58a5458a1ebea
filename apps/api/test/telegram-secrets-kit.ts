/*
 * The Telegram secrets rule (#35): sessions, api_hash, login codes and passwords are never in the
 * database as text (sealed columns hold ciphertext only), in job payloads, audit before/after/meta,
 * or the logs. Used after a run by telegram-login.test.ts (sign-in) and
 * telegram-accounts-collector.test.ts (collection, edits and deletions).
 */
import { sql } from 'drizzle-orm';
import type { TestContext } from './helpers';

/** Every text/json column of every table (public and pg-boss) that holds one of `secrets`. */
export async function columnsHolding(ctx: TestContext, secrets: readonly string[]): Promise<string[]> {
  const cols = await ctx.database.db.execute<{ table_name: string; column_name: string }>(
    sql`SELECT table_schema || '.' || table_name AS table_name, column_name FROM information_schema.columns
        WHERE table_schema IN ('public', 'pgboss') AND data_type IN ('text', 'jsonb', 'json', 'character varying')`,
  );
  const found: string[] = [];
  for (const c of cols.rows) {
    for (const s of secrets) {
      const r = await ctx.database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ${sql.raw(
          c.table_name
            .split('.')
            .map((x) => `"${x}"`)
            .join('.'),
        )} WHERE ${sql.raw(`"${c.column_name}"`)}::text LIKE ${`%${s}%`}`,
      );
      if ((r.rows[0]?.n ?? 0) > 0) found.push(`${c.table_name}.${c.column_name}`);
    }
  }
  return found;
}
