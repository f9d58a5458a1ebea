/* The classification worker: drains the queue every few seconds (only where ROLE is all or worker). */
import type { ClassifierService } from './classifier.service';

export function startClassifierWorker(deps: {
  classifier: ClassifierService;
  log: { warn(o: unknown, m?: string): void };
  intervalMs?: number;
}) {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // A running import has the database to itself: classifying its rows as they commit rewrites
      // each one twice more (SentToML, Done — ml_state is in a partial index's predicate, so no HOT
      // update), which cost the import ~10 % (300 000 rows: 62.8 → 56.5 s). The queue is drained
      // right after the import ends (docs/decisions.md).
      if (await deps.classifier.importRunning()) return;
      await deps.classifier.drain(20_000);
    } catch (err) {
      deps.log.warn({ err: { message: (err as Error).message } }, 'classification worker failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.intervalMs ?? 2000);
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
