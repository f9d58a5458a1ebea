/*
 * A detail of the import's write path that small test files never reach: the statistics refresh a
 * big load runs (ANALYZE of the dedup key only).
 */
import { getModule } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventTarget, leaksCatalogueTarget } from '../src/modules/imports/targets';
import { setupApp, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await setupApp();
});

describe('import write path', () => {
  it('the statistics refresh of each target runs and covers the dedup key', async () => {
    const events = eventTarget(getModule('domains'), {} as Parameters<typeof eventTarget>[1]);
    expect(events.analyze).toMatch(/company_id.*module.*fingerprint/);
    for (const t of [events, leaksCatalogueTarget()]) await ctx.database.pool.query(t.analyze);
    const stats = await ctx.database.pool.query(
      "SELECT attname FROM pg_stats WHERE tablename = 'events' AND attname IN ('company_id', 'module', 'fingerprint', 'search')",
    );
    // An empty table has no rows to sample; what matters is that the statement is valid and analyses only these columns.
    expect(stats.rows.every((r: { attname: string }) => r.attname !== 'search')).toBe(true);
  });
});
