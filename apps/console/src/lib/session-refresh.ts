/*
 * What a 401 does (spec §8): one POST /auth/refresh shared by every request of the burst, then the
 * request is retried. A request sent before a refresh that has already succeeded just retries. Once
 * a refresh has failed, the session is gone for this page: later 401s never start a second refresh
 * (the user is logged out once, with the current path as redirect) — until a sign-in on the same
 * page (the login form probes GET /me, whose refresh fails, before the user signs in) makes a new
 * session.
 */
export interface Refresher {
  /** Whether a request sent at `startedAt` (ms) that got a 401 may be retried. */
  after401(startedAt: number): Promise<boolean>;
  /** A sign-in step succeeded: there is a session again, a later 401 may refresh it. */
  signedIn(): void;
}

export function createRefresher(refresh: () => Promise<unknown>, now: () => number = Date.now): Refresher {
  let running: Promise<boolean> | null = null;
  let refreshedAt = 0;
  let lost = false;
  return {
    signedIn() {
      lost = false;
    },
    after401(startedAt) {
      if (lost) return Promise.resolve(false);
      if (startedAt < refreshedAt && !running) return Promise.resolve(true);
      running ??= refresh()
        .then(
          () => {
            refreshedAt = now();
            return true;
          },
          () => {
            lost = true;
            return false;
          },
        )
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}

/**
 * 413 is one of the spec's retried statuses, but ky retries it only when the answer carries a
 * Retry-After: this makes it retried like the others (same methods, limit and backoff).
 */
export const retryPayloadTooLarge = ({ error }: { error: unknown }): true | undefined =>
  (error as { response?: { status?: number } } | null)?.response?.status === 413 ? true : undefined;
