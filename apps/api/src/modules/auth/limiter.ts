import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authFailures } from '../../db/schema/index';
import { tooManyRequests } from '../../lib/errors';

export interface LimiterSettings {
  maxFailures: number;
  windowMinutes: number;
  /** How long a subject stays locked after its last failure once the threshold is reached. */
  lockoutMinutes: number;
}
export type Subject = [scope: string, subject: string];

export const LOCKOUT_MSG = (minutes: number) => `Слишком много неудачных попыток. Повторите через ${minutes} мин.`;

/**
 * Brute-force limits kept in PostgreSQL, so every server instance shares them: `maxFailures`
 * failures of one subject (an account, an IP) within the window lock it for `lockoutMinutes`
 * after the last failure. Thresholds are read at run time (configs), so a change applies at once.
 */
export function createFailureLimiter(db: Db, settings: () => LimiterSettings | Promise<LimiterSettings>) {
  async function retryAfter([scope, subject]: Subject, s: LimiterSettings): Promise<number> {
    const since = sql`now() - make_interval(mins => ${s.windowMinutes})`;
    const rows = await db
      .select({ at: authFailures.at })
      .from(authFailures)
      .where(and(eq(authFailures.scope, scope), eq(authFailures.subject, subject), gt(authFailures.at, since)))
      .orderBy(sql`${authFailures.at} desc`)
      .limit(s.maxFailures);
    if (rows.length < s.maxFailures) return 0;
    const newest = rows[0]?.at ?? new Date();
    return Math.max(0, Math.ceil((newest.getTime() + s.lockoutMinutes * 60_000 - Date.now()) / 1000));
  }

  return {
    /** Throws 429 when any subject is locked. */
    async check(subjects: Subject[]): Promise<void> {
      const s = await settings();
      for (const sub of subjects) {
        const wait = await retryAfter(sub, s);
        if (wait > 0) throw tooManyRequests(LOCKOUT_MSG(Math.ceil(wait / 60)), wait);
      }
    },
    async isLocked(subjects: Subject[]): Promise<boolean> {
      const s = await settings();
      for (const sub of subjects) if ((await retryAfter(sub, s)) > 0) return true;
      return false;
    },
    async fail(subjects: Subject[]): Promise<void> {
      await db.insert(authFailures).values(subjects.map(([scope, subject]) => ({ scope, subject })));
      // Keep the table small: forget failures older than a day.
      if (Math.random() < 0.02) await db.delete(authFailures).where(sql`${authFailures.at} < now() - interval '1 day'`);
    },
    async reset(subjects: Subject[]): Promise<void> {
      for (const [scope, subject] of subjects) {
        await db.delete(authFailures).where(and(eq(authFailures.scope, scope), eq(authFailures.subject, subject)));
      }
    },
  };
}
export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
