/* SQL of failed attempts (auth_failures), which the failure limiter counts. */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authFailures } from '../../db/schema/index';

export function createAuthFailuresRepo(db: Db) {
  return {
    /** Times of a subject's failures within the last `windowMinutes`, newest first, at most `limit`. */
    async recent(scope: string, subject: string, windowMinutes: number, limit: number): Promise<Date[]> {
      const since = sql`now() - make_interval(mins => ${windowMinutes})`;
      const rows = await db
        .select({ at: authFailures.at })
        .from(authFailures)
        .where(and(eq(authFailures.scope, scope), eq(authFailures.subject, subject), gt(authFailures.at, since)))
        .orderBy(desc(authFailures.at))
        .limit(limit);
      return rows.map((r) => r.at);
    },
    async insert(rows: { scope: string; subject: string }[]): Promise<void> {
      await db.insert(authFailures).values(rows);
    },
    async forget(scope: string, subject: string): Promise<void> {
      await db.delete(authFailures).where(and(eq(authFailures.scope, scope), eq(authFailures.subject, subject)));
    },
    async forgetOlderThanDay(): Promise<void> {
      await db.delete(authFailures).where(sql`${authFailures.at} < now() - interval '1 day'`);
    },
  };
}
