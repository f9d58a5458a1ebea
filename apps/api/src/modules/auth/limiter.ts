import type { Db } from '../../db/client';
import { tooManyRequests } from '../../lib/errors';
import { createAuthFailuresRepo } from './failures.repo';

export interface LimiterSettings {
  maxFailures: number;
  windowMinutes: number;
  /** How long a subject stays locked after its last failure once the threshold is reached. */
  lockoutMinutes: number;
}
export type Subject = [scope: string, subject: string];

export const LOCKOUT_MSG = (minutes: number) => `Слишком много неудачных попыток. Повторите через ${minutes} мин.`;

/** Seconds from now until `at` (0 when it has passed). */
export const secondsUntil = (at: number) => Math.max(0, Math.ceil((at - Date.now()) / 1000));

/**
 * Brute-force limits kept in PostgreSQL, so every server instance shares them: `maxFailures`
 * failures of one subject (an account + address pair, a user, a token) within the window lock it
 * for `lockoutMinutes` after the last failure. Thresholds are read at run time (configs), so a
 * change applies at once. Sign-in combines several subjects with its own rule: signin-guard.ts.
 */
export function createFailureLimiter(db: Db, settings: () => LimiterSettings | Promise<LimiterSettings>) {
  /** Times of the subject's failures within the last `windowMinutes`, newest first, at most `limit`. */
  const repo = createAuthFailuresRepo(db);
  const recent = ([scope, subject]: Subject, windowMinutes: number, limit: number): Promise<Date[]> =>
    repo.recent(scope, subject, windowMinutes, limit);

  async function retryAfter(sub: Subject, s: LimiterSettings): Promise<number> {
    const rows = await recent(sub, s.windowMinutes, s.maxFailures);
    if (rows.length < s.maxFailures) return 0;
    const newest = rows[0] ?? new Date();
    return secondsUntil(newest.getTime() + s.lockoutMinutes * 60_000);
  }

  return {
    recent,
    settings: async (): Promise<LimiterSettings> => settings(),
    /** Seconds the subject stays locked by the thresholds (0 = not locked). */
    async lockedFor(sub: Subject): Promise<number> {
      return retryAfter(sub, await settings());
    },
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
      if (subjects.length === 0) return;
      await repo.insert(subjects.map(([scope, subject]) => ({ scope, subject })));
      // Keep the table small: forget failures older than a day.
      if (Math.random() < 0.02) await repo.forgetOlderThanDay();
    },
    async reset(subjects: Subject[]): Promise<void> {
      for (const [scope, subject] of subjects) await repo.forget(scope, subject);
    },
  };
}
export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
