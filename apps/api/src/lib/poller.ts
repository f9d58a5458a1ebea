/*
 * A background pass every few seconds in this process (the workers of ROLE=all|worker): one pass at a
 * time (a slow pass is never overlapped), the first at once, failures logged and retried next time,
 * and `stop()` waits for the pass in flight.
 */
import type { Logger } from './logger';
import { errInfo } from './logger';

export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(p: {
  intervalMs: number;
  /** One pass; `stopped()` tells a long pass to finish early. */
  run: (stopped: () => boolean) => Promise<unknown>;
  log: Pick<Logger, 'warn'>;
  /** The log line when a pass fails. */
  failure: string;
}): Poller {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await p.run(() => stopped);
    } catch (err) {
      p.log.warn({ err: errInfo(err) }, p.failure);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), p.intervalMs);
  timer.unref();
  void tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 50));
    },
  };
}
