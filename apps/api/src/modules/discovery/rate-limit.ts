/*
 * Token bucket and a counting semaphore for the resolver: the bucket bounds queries per second
 * (refilled continuously, `capacity` tokens of burst), the semaphore bounds queries in flight.
 */

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, Math.ceil(ms)),
      );
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface TokenBucket {
  /** Resolves when a token was taken; takers are served in call order. */
  take(signal?: AbortSignal): Promise<void>;
}

/**
 * `ratePerSecond` tokens per second, at most `capacity` saved up (a full bucket at start). Over any
 * interval of t seconds at most `capacity + t·ratePerSecond` tokens are handed out.
 */
export function createTokenBucket(ratePerSecond: number, capacity: number, clock: Clock = realClock): TokenBucket {
  if (!(ratePerSecond > 0)) throw new Error('ratePerSecond must be > 0');
  const cap = Math.max(1, Math.floor(capacity));
  let tokens = cap;
  let last = clock.now();
  let tail: Promise<void> = Promise.resolve();
  const refill = () => {
    const now = clock.now();
    tokens = Math.min(cap, tokens + ((now - last) * ratePerSecond) / 1000);
    last = now;
  };
  const takeOne = async (signal?: AbortSignal) => {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await clock.sleep(((1 - tokens) * 1000) / ratePerSecond, signal);
    }
  };
  return {
    take(signal) {
      // A chain keeps takers in order; an aborted taker does not block the ones after it.
      const mine = tail.then(() => takeOne(signal));
      tail = mine.catch(() => {});
      return mine;
    },
  };
}

export interface Semaphore {
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly inFlight: number;
}

export function createSemaphore(limit: number): Semaphore {
  const max = Math.max(1, Math.floor(limit));
  let used = 0;
  const waiters: { grant: () => void; signal?: AbortSignal }[] = [];
  const release = () => {
    used--;
    while (waiters.length) {
      const w = waiters.shift();
      if (w && !w.signal?.aborted) {
        used++;
        w.grant();
        return;
      }
    }
  };
  const once = () => {
    let done = false;
    return () => {
      if (!done) {
        done = true;
        release();
      }
    };
  };
  return {
    get inFlight() {
      return used;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (used < max) {
        used++;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const w = {
          signal,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(once());
          },
        };
        const onAbort = () => {
          const i = waiters.indexOf(w);
          if (i >= 0) waiters.splice(i, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(w);
      });
    },
  };
}
