/*
 * The search vector of events stored before a change of what is indexed. The IP address of «Домены»
 * and «Эндпоинты» was not part of the search text (only `search: true` fields are), so `95.88.54.16`
 * found nothing while the grid showed it. The worker rebuilds the vectors of the events that have
 * such a field by the write path's rule (event-data searchTextOf, events.query searchVector), in
 * batches along the id of one module at a time: each batch is one short transaction over at most
 * `limit` rows (FOR UPDATE, so an edit in between waits for it rather than being overwritten), and a
 * row whose vector comes out the same is not written. Nothing the user sees changes but the search:
 * no history, `updated_at` stays. The statement triggers see the updates as any write (the lexicon
 * gets no word from an address — numbers are not in it; the list caches are told to drop their pages).
 * Once a whole pass is done the database remembers it (`app_seeds`): later starts cost one lookup.
 * At 10M events a pass reads the rows of the two modules once (bench/README, «Перестройка вектора»).
 */
import { getModule, type ModuleCode } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import { createSeeds } from '../../../db/seeds';
import type { Logger } from '../../../lib/logger';
import { type Poller, startPoller } from '../../../lib/poller';
import { searchTextOf } from '../write/event-data';
import { setSearchVectors, withFieldsForUpdate } from './search-backfill.repo';

/** The `app_seeds` name of a finished pass (a later change of the indexed text names its own). */
export const SEARCH_BACKFILL = 'search_text_ip_fields';
/** The modules whose search text the change widened, and the fields it added. */
export const SEARCH_REINDEXED: { modules: readonly ModuleCode[]; fields: readonly string[] } = {
  modules: ['domains', 'endpoints'],
  fields: ['ip'],
};

/**
 * One batch: the next `limit` events of `module` after id `after` that have one of the added fields;
 * those whose vector differs from the write path's get it. Returns the last id read (null: none
 * left) and how many it rewrote.
 */
export async function reindexBatch(
  db: Db,
  module: ModuleCode,
  after: number,
  limit = 1000,
): Promise<{ last: number | null; changed: number }> {
  const m = getModule(module);
  return db.transaction(async (tx) => {
    const rows = await withFieldsForUpdate(tx, m.code, SEARCH_REINDEXED.fields, after, limit);
    if (!rows.length) return { last: null, changed: 0 };
    const changed = await setSearchVectors(
      tx,
      rows.map((x) => Number(x.id)),
      rows.map((x) => searchTextOf(m, x.title, x.data ?? {})),
    );
    return { last: Number(rows[rows.length - 1]?.id), changed };
  });
}

/** A whole pass, unless one finished before; returns how many events it rewrote. */
export async function reindexSearch(db: Db, opts: { limit?: number; stopped?: () => boolean } = {}): Promise<number> {
  const seeds = createSeeds(db);
  if (await seeds.done(SEARCH_BACKFILL)) return 0;
  let changed = 0;
  for (const module of SEARCH_REINDEXED.modules) {
    for (let after = 0; ; ) {
      if (opts.stopped?.()) return changed;
      const b = await reindexBatch(db, module, after, opts.limit);
      changed += b.changed;
      if (b.last === null) break;
      after = b.last;
    }
  }
  await seeds.mark(SEARCH_BACKFILL);
  return changed;
}

/** The worker's pass: at start, then hourly only to retry one that failed or was stopped. */
export function startSearchBackfill(deps: { db: Db; log: Pick<Logger, 'warn' | 'info'>; intervalMs?: number }): Poller {
  return startPoller({
    intervalMs: deps.intervalMs ?? 3_600_000,
    run: async (stopped) => {
      const n = await reindexSearch(deps.db, { stopped });
      if (n) deps.log.info({ events: n }, 'search vectors rebuilt');
    },
    log: deps.log,
    failure: 'search backfill failed',
  });
}
