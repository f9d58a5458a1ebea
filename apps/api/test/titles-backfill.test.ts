/*
 * Domain events stored before titles were derived in Unicode keep an `xn--` title: the backfill gives
 * them the write path's title (changes.ts titleOf), rebuilds the search vector as a write would and
 * records the change in history; a title typed by hand stays; a second pass changes nothing.
 */
import { unicodeToPunycode } from '@forpost/contract/helpers';
import { getModule } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/sql';
import { retitleBatch, retitleDomains } from '../src/modules/events/backfill/titles-backfill';
import { searchVector } from '../src/modules/events/list/events.query';
import { type Data, searchTextOf } from '../src/modules/events/write/event-data';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let A: { id: number };
let B: { id: number };
const m = getModule('domains');

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
});

const create = async (company: number, domain: string) => {
  const r = await admin.post('/modules/domains/events', { company_id: company, domain });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; title: string };
};

/** The row as the old write path left it: the title in punycode and the search built from it. */
async function makeOld(id: number, title: string): Promise<void> {
  const db = ctx.database.db;
  const [r] = await rowsOf<{ data: Data }>(db, sql`SELECT data FROM events WHERE id = ${id}`);
  const text = searchTextOf(m, title, r?.data ?? {});
  await db.execute(sql`UPDATE events SET title = ${title}, search = ${searchVector(sql`${text}::text`)} WHERE id = ${id}`);
}

const row = async (id: number) =>
  (
    await rowsOf<{ title: string; search: string }>(
      ctx.database.db,
      sql`SELECT title, search::text AS search FROM events WHERE id = ${id}`,
    )
  )[0];
const history = async (id: number) =>
  (await admin.get(`/modules/domains/events/${id}/history`)).json().items as {
    action: string;
    field: string | null;
    before: unknown;
    after: unknown;
    actor_id: number | null;
    actor_name: string | null;
  }[];

describe('titles backfill', () => {
  it('the write path titles a punycode domain in Unicode', async () => {
    const e = await create(A.id, 'xn--e1afmkfd.xn--p1ai');
    expect(e.title).toBe('пример.рф');
  });

  it('re-titles an old punycode-titled row in Unicode, with its search vector and history as a write gives them', async () => {
    const old = await create(A.id, 'сбер-бонус.рф');
    const twin = await create(B.id, 'сбер-бонус.рф'); // written now: what the old row must match
    const hand = await create(A.id, 'почта-банк.рф');
    const ascii = await create(A.id, 'ascii-login.ru');
    const punycode = unicodeToPunycode('сбер-бонус.рф');
    await makeOld(old.id, punycode);
    await makeOld(hand.id, `Проверить ${unicodeToPunycode('почта-банк.рф')} вручную`);
    const before = await row(old.id);
    expect(before?.title).toBe(punycode);
    expect(before?.search).not.toBe((await row(twin.id))?.search);
    const historyBefore = await history(old.id);

    expect(await retitleDomains(ctx.database.db, { limit: 1 })).toBe(1);

    const after = await row(old.id);
    expect(after?.title).toBe('сбер-бонус.рф');
    expect(after?.search).toBe((await row(twin.id))?.search);
    expect((await admin.get(`/modules/domains/events/${old.id}`)).json().title).toBe('сбер-бонус.рф');
    // The list finds it by the words of its new title, as it finds the twin.
    const found = (await admin.get(`/modules/domains/events?company_id=${A.id}&q=бонус`)).json();
    expect(found.items.map((i: { id: number }) => i.id)).toContain(old.id);

    const h = await history(old.id);
    expect(h).toHaveLength(historyBefore.length + 1);
    expect(h).toContainEqual(
      expect.objectContaining({ action: 'update', field: 'title', before: punycode, after: 'сбер-бонус.рф', actor_id: null }),
    );

    // A title typed by hand and an ASCII one stay as they were.
    expect((await row(hand.id))?.title).toBe(`Проверить ${unicodeToPunycode('почта-банк.рф')} вручную`);
    expect((await row(ascii.id))?.title).toBe('ascii-login.ru');
  });

  it('is idempotent: a second batch over the same rows changes nothing, a finished pass is not run again', async () => {
    const e = await create(A.id, 'тест-повтор.рф');
    const punycode = unicodeToPunycode('тест-повтор.рф');
    await makeOld(e.id, punycode);
    // The pass above is recorded: a new start does not walk the table again…
    expect(await retitleDomains(ctx.database.db)).toBe(0);
    expect((await row(e.id))?.title).toBe(punycode);
    // …while a batch still applies the rule, once.
    const n = (await history(e.id)).length;
    expect((await retitleBatch(ctx.database.db, 0)).changed).toBe(1);
    expect((await retitleBatch(ctx.database.db, 0)).changed).toBe(0);
    expect((await row(e.id))?.title).toBe('тест-повтор.рф');
    expect(await history(e.id)).toHaveLength(n + 1);
  });
});
