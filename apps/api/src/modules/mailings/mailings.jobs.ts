/* The mailing worker: a pass every few seconds (only where ROLE is all or worker). */
import type { MailingsService } from './mailings.service';

export function startMailingsWorker(deps: {
  mailings: MailingsService;
  log: { warn(o: unknown, m?: string): void };
  intervalMs?: number;
}) {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await deps.mailings.tick(new Date());
    } catch (err) {
      deps.log.warn({ err: { message: (err as Error).message } }, 'mailing worker failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.intervalMs ?? 15_000);
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
