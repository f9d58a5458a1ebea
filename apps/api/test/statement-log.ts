/*
 * The database round trips of a request, counted: every statement a request sends (through any pool
 * client, inside or outside a transaction) is recorded while that request runs, by the async context
 * of the request (AsyncLocalStorage), so background work of the same app (rollup folding, jobs,
 * LISTEN connections) is not counted. Importing this file patches pg's client for the test file.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { afterAll, expect } from 'vitest';

const store = new AsyncLocalStorage<string[]>();
const origQuery = pg.Client.prototype.query;
// biome-ignore lint/suspicious/noExplicitAny: the pg query signature is overloaded
(pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
  const log = store.getStore();
  if (log) {
    const q = args[0] as string | { text?: string; name?: string };
    log.push(typeof q === 'string' ? q : (q.name ?? q.text ?? '?'));
  }
  // biome-ignore lint/suspicious/noExplicitAny: forwarded as is
  return (origQuery as any).apply(this, args);
};
afterAll(() => {
  pg.Client.prototype.query = origQuery;
});

/** The statements one request sent (its name if named, else its text); the request must answer 200. */
export async function statements(fn: () => Promise<{ statusCode: number; body: string }>): Promise<string[]> {
  const log: string[] = [];
  const r = await store.run(log, fn);
  expect(r.statusCode, r.body).toBe(200);
  return log;
}
