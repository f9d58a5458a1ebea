/* The classification worker: drains the queue every few seconds (only where ROLE is all or worker). */
import type { Logger } from '../../lib/logger';
import { startPoller } from '../../lib/poller';
import type { ClassifierService } from './classifier.service';

export function startClassifierWorker(deps: { classifier: ClassifierService; log: Pick<Logger, 'warn'>; intervalMs?: number }) {
  return startPoller({
    intervalMs: deps.intervalMs ?? 2000,
    run: async () => {
      // A running import has the database to itself: classifying its rows as they commit rewrites
      // each one twice more (SentToML, Done — ml_state is in a partial index's predicate, so no HOT
      // update), which cost the import ~10 % (300 000 rows: 62.8 → 56.5 s). The queue is drained
      // right after the import ends (docs/decisions.md).
      if (await deps.classifier.importRunning()) return;
      await deps.classifier.drain(20_000);
    },
    log: deps.log,
    failure: 'classification worker failed',
  });
}
