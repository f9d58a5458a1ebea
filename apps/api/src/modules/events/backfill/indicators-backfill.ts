/*
 * Events written before the indicators column (migration 0026) have none (NULL): the worker fills
 * them in batches by the same rule as every write (contract indicatorsOf), so related events find
 * old events too. A batch locks its rows with SKIP LOCKED: several workers share the work. Once none
 * is left a pass costs one probe of an empty partial index.
 */
import { getModule, indicatorsOf, isModuleCode } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import { textArrayLiteral } from '../../../db/sql';
import type { Logger } from '../../../lib/logger';
import { startPoller } from '../../../lib/poller';
import { setIndicators, withoutIndicatorsForUpdate } from './indicators-backfill.repo';

/** Fills up to `limit` events without indicators; returns how many it filled. */
export async function fillIndicators(db: Db, limit = 2000): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await withoutIndicatorsForUpdate(tx, limit);
    if (!rows.length) return 0;
    const values = rows.map((r) =>
      textArrayLiteral(isModuleCode(r.module) ? indicatorsOf(getModule(r.module), r.data ?? {}) : []),
    );
    await setIndicators(
      tx,
      rows.map((r) => Number(r.id)),
      values,
    );
    return rows.length;
  });
}

export function startIndicatorsBackfill(deps: { db: Db; log: Pick<Logger, 'warn'>; intervalMs?: number }) {
  return startPoller({
    intervalMs: deps.intervalMs ?? 60_000,
    run: async (stopped) => {
      while (!stopped() && (await fillIndicators(deps.db)) > 0) {
        // one batch per transaction; the next right away until none is left
      }
    },
    log: deps.log,
    failure: 'indicators backfill failed',
  });
}
