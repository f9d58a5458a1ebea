import type { Audit } from '../../lib/audit';
import { tooManyRequests } from '../../lib/errors';
import { type FailureLimiter, LOCKOUT_MSG, type Subject, secondsUntil } from './limiter';

/**
 * Sign-in limits that stop guessing but cannot be turned against the owner (docs/decisions.md,
 * «Блокировка входа: пара „учётная запись + адрес“»). The same rule guards both steps: the password
 * (account = the normalised email, known or not) and the second factor (account = the user id).
 *
 * An address A is refused for account U when
 *  1. brute force: U had ≥ `lockout_max_failures` (10) failures from A within `lockout_window_minutes`
 *     (15): A is locked for U for `lockout_minutes` after the last of them; or
 *  2. U is under attack: U had ≥ LOCKOUT_ACCOUNT_MAX_FAILURES (50) failures from all addresses within
 *     LOCKOUT_ACCOUNT_WINDOW_MINUTES (60), and A itself had ≥ HOT_PAIR_ALLOWANCE (3) of them; or
 *  3. A is spraying: ≥ LOCKOUT_ADDRESS_MAX_ACCOUNTS (20) different accounts started failing from A
 *     within that window, and A had ≥ HOT_PAIR_ALLOWANCE failures for U.
 * Every rule needs failures of U from A itself, so the owner at an address with no (or one or two)
 * recent failures for their account is never refused, however many addresses guess at it; and one
 * account's failures never refuse another account behind the same address (NAT). Rules 2 and 3 only
 * shrink a failing address's allowance for that account from 10 failures per 15 min to 3 per hour.
 * Refused attempts are not checked and not counted. A correct password (or second factor) clears
 * the failures of its own pair only: the owner signing in does not reopen the account to the
 * addresses that were guessing.
 */
const HOT_PAIR_ALLOWANCE = 3;

export interface SlowLimits {
  accountMaxFailures: number;
  addressMaxAccounts: number;
  windowMinutes: number;
}

export type SignInStep = 'password' | '2fa';
export type LockRule = 'pair' | 'account' | 'address';

const SCOPES: Record<SignInStep, { pair: string; account: string; address: string }> = {
  password: { pair: 'login_pair', account: 'login_account', address: 'login_address' },
  '2fa': { pair: '2fa_pair', account: '2fa_account', address: '2fa_address' },
};

export interface GuardCtx {
  ip: string;
  userAgent?: string;
}

export function createSignInGuard(deps: { limiter: FailureLimiter; audit: Audit; slow: () => SlowLimits }) {
  const { limiter, audit } = deps;
  // The address is last and holds no '|': the pair is unambiguous whatever the email holds.
  const subjectsOf = (step: SignInStep, account: string, ip: string) => {
    const s = SCOPES[step];
    return {
      pair: [s.pair, `${account}|${ip}`] as Subject,
      account: [s.account, account] as Subject,
      address: [s.address, ip] as Subject,
    };
  };

  /** Why and for how many seconds the address is refused for the account; null when it is not. */
  async function verdict(step: SignInStep, account: string, ip: string): Promise<{ wait: number; rule: LockRule } | null> {
    const sub = subjectsOf(step, account, ip);
    const pairLock = await limiter.lockedFor(sub.pair);
    if (pairLock > 0) return { wait: pairLock, rule: 'pair' };
    const slow = deps.slow();
    const windowMs = slow.windowMinutes * 60_000;
    const pairRecent = await limiter.recent(sub.pair, slow.windowMinutes, HOT_PAIR_ALLOWANCE);
    const pairOldest = pairRecent[HOT_PAIR_ALLOWANCE - 1];
    if (!pairOldest) return null; // a clean (or nearly clean) address: never refused by the slow rules
    // Refused until either the pair falls below its allowance or the account/address cools down.
    const pairCools = pairOldest.getTime() + windowMs;
    const hot = async (subject: Subject, max: number, rule: LockRule) => {
      const rows = await limiter.recent(subject, slow.windowMinutes, max);
      const oldest = rows[max - 1];
      if (!oldest) return null;
      const wait = secondsUntil(Math.min(pairCools, oldest.getTime() + windowMs));
      return wait > 0 ? { wait, rule } : null;
    };
    return (
      (await hot(sub.account, slow.accountMaxFailures, 'account')) ?? (await hot(sub.address, slow.addressMaxAccounts, 'address'))
    );
  }

  return {
    /**
     * Throws the Russian 429 (with Retry-After) when the address is refused for the account, after
     * writing `auth.lockout` to the audit log.
     */
    async check(
      step: SignInStep,
      account: string,
      ctx: GuardCtx,
      who: { userId?: number | null; meta?: Record<string, unknown> } = {},
    ): Promise<void> {
      const v = await verdict(step, account, ctx.ip);
      if (!v) return;
      await audit.record(
        { userId: who.userId ?? null, ip: ctx.ip, userAgent: ctx.userAgent },
        {
          action: 'auth.lockout',
          ...(who.userId ? { entity: 'user', entityId: who.userId } : {}),
          meta: { ...who.meta, step, rule: v.rule },
        },
      );
      throw tooManyRequests(LOCKOUT_MSG(Math.ceil(v.wait / 60)), v.wait);
    },
    /** Counts a failure of the account from the address. */
    async fail(step: SignInStep, account: string, ip: string): Promise<void> {
      const sub = subjectsOf(step, account, ip);
      // The address counts accounts, not attempts: only a pair's first failure in the window adds to it.
      const first = (await limiter.recent(sub.pair, deps.slow().windowMinutes, 1)).length === 0;
      await limiter.fail(first ? [sub.pair, sub.account, sub.address] : [sub.pair, sub.account]);
    },
    /** The right password / second factor: forget this pair's failures (only this pair's). */
    async succeed(step: SignInStep, account: string, ip: string): Promise<void> {
      await limiter.reset([subjectsOf(step, account, ip).pair]);
    },
  };
}
export type SignInGuard = ReturnType<typeof createSignInGuard>;

/** The slow limits from the environment (config.ts). */
export const slowLimitsOf = (c: {
  lockoutAccountMaxFailures: number;
  lockoutAddressMaxAccounts: number;
  lockoutAccountWindowMinutes: number;
}): SlowLimits => ({
  accountMaxFailures: c.lockoutAccountMaxFailures,
  addressMaxAccounts: c.lockoutAddressMaxAccounts,
  windowMinutes: c.lockoutAccountWindowMinutes,
});
