/*
 * Events stored before their IP address was part of the search text: the backfill rebuilds their
 * vectors as a write builds them now, in batches, writes only the rows that change, leaves the rest
 * of the row (title, updated_at, history) as it was, and a finished pass is not repeated.
 */
import { getModule, type ModuleDescriptor } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/sql';
import { reindexSearch, SEARCH_BACKFILL } from '../src/modules/events/backfill/search-backfill';
import { searchVector } from '../src/modules/events/list/events.query';
import { type Data, searchWords } from '../src/modules/events/write/event-data';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let A: { id: number };

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = await createCompany(ctx, 'Альфа');
});

/** The vector the old write path made: the search fields but the IP address. */
async function makeOld(m: ModuleDescriptor, id: number): Promise<void> {
  const db = ctx.database.db;
  const [r] = await rowsOf<{ title: string; data: Data }>(db, sql`SELECT title, data FROM events WHERE id = ${id}`);
  const parts = [r?.title ?? ''];
  for (const f of m.fields) if (f.search && f.key !== 'ip' && r?.data[f.key] != null) parts.push(String(r.data[f.key]));
  const text = searchWords(parts.join(' ')).join(' ');
  await db.execute(sql`UPDATE events SET search = ${searchVector(sql`${text}::text`)} WHERE id = ${id}`);
}

const state = async (id: number) =>
  (
    await rowsOf<{ search: string; updated_at: string; title: string }>(
      ctx.database.db,
      sql`SELECT search::text AS search, updated_at::text AS updated_at, title FROM events WHERE id = ${id}`,
    )
  )[0];
const found = async (module: string, q: string) =>
  (await admin.get(`/modules/${module}/events?company_id=${A.id}&q=${encodeURIComponent(q)}`))
    .json()
    .items.map((i: { id: number }) => i.id);

describe('search backfill', () => {
  it('old domain and endpoint events get their IP address in the vector, once', async () => {
    const domains = getModule('domains');
    const endpoints = getModule('endpoints');
    const made: { m: ModuleDescriptor; id: number; ip: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const ip = `95.88.${i}.16`;
      const r = await admin.post('/modules/domains/events', { company_id: A.id, domain: `old-${i}.ru`, ip });
      expect(r.statusCode, r.body).toBe(201);
      made.push({ m: domains, id: r.json().id, ip });
    }
    const ep = await admin.post('/modules/endpoints/events', { company_id: A.id, ...endpoints.sample(3), ip: '10.77.66.55' });
    expect(ep.statusCode, ep.body).toBe(201);
    made.push({ m: endpoints, id: ep.json().id, ip: '10.77.66.55' });
    // Without an address: its vector is already what a write makes, and it is not written.
    const plain = (await admin.post('/modules/domains/events', { company_id: A.id, domain: 'no-ip.ru' })).json();
    const written = await Promise.all(made.map((x) => state(x.id)));
    for (const x of made) await makeOld(x.m, x.id);
    await ctx.database.db.execute(sql`DELETE FROM app_seeds WHERE name = ${SEARCH_BACKFILL}`);
    for (const x of made) expect(await found(x.m.code, x.ip), x.ip).toEqual([]);
    const plainBefore = await rowsOf<{ xmin: string }>(
      ctx.database.db,
      sql`SELECT xmin::text FROM events WHERE id = ${plain.id}`,
    );

    // Batches of 2: several per module.
    expect(await reindexSearch(ctx.database.db, { limit: 2 })).toBe(made.length);
    for (const [i, x] of made.entries()) {
      expect(await found(x.m.code, x.ip), x.ip).toEqual([x.id]);
      // The same vector as the write path's, and nothing else changed.
      expect(await state(x.id)).toEqual(written[i]);
    }
    const plainAfter = await rowsOf<{ xmin: string }>(ctx.database.db, sql`SELECT xmin::text FROM events WHERE id = ${plain.id}`);
    expect(plainAfter).toEqual(plainBefore);
    // No history rows by the backfill.
    for (const x of made) {
      const h = (await admin.get(`/modules/${x.m.code}/events/${x.id}/history`)).json().items as { action: string }[];
      expect(h.map((e) => e.action)).toEqual(['create']);
    }
    // Done: recorded, a later start does nothing.
    await makeOld(domains, made[0]?.id as number);
    expect(await reindexSearch(ctx.database.db)).toBe(0);
  });
});
