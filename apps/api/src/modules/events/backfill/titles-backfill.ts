/*
 * Domain events stored before titles were derived in Unicode kept an `xn--` title («xn--e1afmkfd.xn--p1ai»
 * in the heading and the exported «Заголовок» while the field showed «пример.рф»). The worker re-titles
 * them by the write path's rule (changes.ts titleOf over the stored data), in batches along the id:
 * the search vector is rebuilt from the new title as every write builds it, and each change leaves a
 * history row by «Система». Only a title that is just the punycode spelling of the rule's title is
 * changed — one typed by hand stays. Once a whole pass is done the database remembers it (`app_seeds`):
 * later starts cost one lookup. A batch holds its rows with FOR UPDATE; a row another process re-titled
 * meanwhile no longer matches when the lock is granted, so two workers never write it twice.
 */
import { punycodeToUnicode } from '@forpost/contract/helpers';
import { getModule } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import { createSeeds } from '../../../db/seeds';
import type { Logger } from '../../../lib/logger';
import { type Poller, startPoller } from '../../../lib/poller';
import { createEventsRepo } from '../events.repo';
import { titleOf } from '../write/changes';
import { searchTextOf } from '../write/event-data';
import { aceTitledForUpdate, setTitles } from './titles-backfill.repo';

/** The `app_seeds` name of a finished pass. */
export const TITLES_BACKFILL = 'domain_titles_unicode';

/**
 * One batch: the next `limit` domain events after id `after` whose title has an `xn--` label; those
 * whose title is the punycode of the rule's title get the rule's. Returns the last id read (null: none
 * left) and how many it changed.
 */
export async function retitleBatch(db: Db, after: number, limit = 500): Promise<{ last: number | null; changed: number }> {
  const m = getModule('domains');
  const history = createEventsRepo(db);
  return db.transaction(async (tx) => {
    const rows = await aceTitledForUpdate(tx, m.code, after, limit);
    if (!rows.length) return { last: null, changed: 0 };
    const changes = rows.flatMap((r) => {
      const data = r.data ?? {};
      const title = titleOf(m, data);
      const spelling = punycodeToUnicode(r.title.trim().toLowerCase());
      return title !== r.title && spelling === title.toLowerCase()
        ? [{ id: Number(r.id), before: r.title, title, search: searchTextOf(m, title, data) }]
        : [];
    });
    if (changes.length) {
      await setTitles(tx, changes);
      await history.insertHistory(
        changes.map((c) => ({
          eventId: c.id,
          actorUserId: null,
          actorKeyId: null,
          action: 'update' as const,
          field: 'title',
          before: c.before,
          after: c.title,
        })),
        tx,
      );
    }
    return { last: Number(rows[rows.length - 1]?.id), changed: changes.length };
  });
}

/**
 * A whole pass, unless one finished before: batches until none is left, then the pass is recorded.
 * Returns how many events it re-titled.
 */
export async function retitleDomains(db: Db, opts: { limit?: number; stopped?: () => boolean } = {}): Promise<number> {
  const seeds = createSeeds(db);
  if (await seeds.done(TITLES_BACKFILL)) return 0;
  let changed = 0;
  for (let after = 0; ; ) {
    if (opts.stopped?.()) return changed;
    const b = await retitleBatch(db, after, opts.limit);
    changed += b.changed;
    if (b.last === null) break;
    after = b.last;
  }
  await seeds.mark(TITLES_BACKFILL);
  return changed;
}

/** The worker's pass: at start, then hourly only to retry one that failed. */
export function startTitlesBackfill(deps: { db: Db; log: Pick<Logger, 'warn' | 'info'>; intervalMs?: number }): Poller {
  return startPoller({
    intervalMs: deps.intervalMs ?? 3_600_000,
    run: async (stopped) => {
      const n = await retitleDomains(deps.db, { stopped });
      if (n) deps.log.info({ events: n }, 'domain titles re-titled in Unicode');
    },
    log: deps.log,
    failure: 'titles backfill failed',
  });
}
