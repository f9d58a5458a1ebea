/*
 * Log follower: reads a CT log from a saved index up to its current tree size in batches, handing each
 * batch and the index to resume from to onBatch (the caller persists it there, so a restart resumes
 * exactly: no entry twice, none skipped). When caught up it reads the STH once more and goes on only if
 * the log grew meanwhile. A failing log throws CtFollowError after the last batch onBatch accepted.
 */
import type { CtClient, CtEntries, CtEntry } from './client';

export interface FollowResult {
  /** Log entries consumed (parsed or not): nextIndex − from. */
  processed: number;
  nextIndex: number;
  perSecond: number;
  /** Entries skipped because they did not parse (counted in processed). */
  parseErrors: number;
}

/** The log failed mid-way; nextIndex is where the last accepted batch left off (already persisted by onBatch). */
export class CtFollowError extends Error {
  constructor(
    message: string,
    readonly result: FollowResult,
  ) {
    super(message);
  }
}

export interface FollowOptions {
  client: CtClient;
  from: number;
  batchSize: number;
  signal?: AbortSignal;
  /** Called in log order; the third argument tells how many entries of this batch were skipped. */
  onBatch: (entries: CtEntry[], nextIndex: number, info: { parseErrors: number }) => Promise<void>;
}

const STOPPED: unique symbol = Symbol('stopped');

export async function followLog(opts: FollowOptions): Promise<FollowResult> {
  const { client, signal, onBatch } = opts;
  const batchSize = Math.max(1, Math.floor(opts.batchSize));
  const started = performance.now();
  let next = opts.from;
  let parseErrors = 0;
  const result = (): FollowResult => {
    const processed = next - opts.from;
    const seconds = (performance.now() - started) / 1000;
    return { processed, nextIndex: next, perSecond: seconds > 0 ? Math.round(processed / seconds) : 0, parseErrors };
  };
  const fail = (e: unknown): never => {
    throw new CtFollowError(e instanceof Error ? e.message : String(e), result());
  };
  /** A request cut short by the signal ends the follow normally: nothing after the last batch was handed over. */
  const ask = <T>(p: Promise<T>): Promise<T | typeof STOPPED> => p.catch((e: unknown) => (signal?.aborted ? STOPPED : fail(e)));

  const sth = await ask(client.getSth(signal));
  if (sth === STOPPED) return result();
  let size = sth.treeSize;
  while (!signal?.aborted) {
    while (next < size && !signal?.aborted) {
      const end = Math.min(next + batchSize, size) - 1;
      const batch: (CtEntry[] & Partial<CtEntries>) | typeof STOPPED = await ask(client.getEntries(next, end, signal));
      if (batch === STOPPED) break;
      const fetched = Math.min(batch.fetched ?? batch.length, end - next + 1);
      if (fetched <= 0) fail(new Error(`Журнал CT не вернул записей начиная с ${next}`));
      await onBatch(batch, next + fetched, { parseErrors: batch.parseErrors ?? 0 });
      next += fetched;
      parseErrors += batch.parseErrors ?? 0;
    }
    if (signal?.aborted) break;
    const grown = await ask(client.getSth(signal));
    if (grown === STOPPED || grown.treeSize <= size) break;
    size = grown.treeSize;
  }
  return result();
}
