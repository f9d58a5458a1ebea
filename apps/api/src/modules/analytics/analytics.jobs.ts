/* The rollup worker: builds the rollup once after the upgrade, then folds count deltas every few seconds. */
import type { Logger } from '../../lib/logger';
import { startPoller } from '../../lib/poller';
import type { AnalyticsService } from './analytics.service';

export function startAnalyticsWorker(deps: {
  analytics: AnalyticsService;
  log: Pick<Logger, 'warn' | 'info'>;
  intervalMs?: number;
}) {
  let backfilled = false;
  return startPoller({
    intervalMs: deps.intervalMs ?? 5000,
    run: async (stopped) => {
      if (!backfilled) {
        const n = await deps.analytics.backfillOnce();
        if (n !== null) deps.log.info({ events: n }, 'analytics rollup built from events');
        backfilled = true;
      }
      let folded = 0;
      for (let n = await deps.analytics.fold(); n > 0 && !stopped(); n = await deps.analytics.fold()) folded += n;
      // After a bulk import the deltas table is mostly dead rows: readers should not wade through them.
      if (folded >= 10_000) await deps.analytics.vacuumDeltas();
    },
    log: deps.log,
    failure: 'analytics rollup fold failed',
  });
}
