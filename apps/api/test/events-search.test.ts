/*
 * Free-text search of event lists (events.repo searchList, events.query tsQueryOf): the page is
 * always the newest matches whichever plan found it (the ordered walk, or the GIN index when the
 * walk finds too few), the total is exact up to SEARCH_COUNT_CAP and «1 000+» beyond it whichever
 * way it was counted, and a prefix (search as you type) is expanded through the word lexicon that
 * triggers keep for every write path.
 */
import { COUNT_CAP, SEARCH_COUNT_CAP } from '@forpost/contract/events';
import { MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import { type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PREFIX_WORDS_MAX, textQueryOf } from '../src/modules/events/list/events.query';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let A: { id: number };
let B: { id: number };
let C: { id: number };

const qs = (o: Record<string, string | number>) =>
  Object.entries(o)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
const ids = (r: { json(): { items: { id: number }[] } }) => r.json().items.map((i) => i.id);

/**
 * `n` consulting events of a company straight into the table (the API path is tested elsewhere);
 * event g has the title `title(g)` and was created g·7 919 mod n minutes ago, so that the order of
 * creation differs from the order of insertion (as after an import).
 */
async function bulk(companyId: number, n: number, title: SQL, tag: string, module = 'consulting') {
  await ctx.database.db.execute(sql`
    INSERT INTO events (company_id, module, title, status_id, fingerprint, data, search, created_at)
    SELECT ${companyId}, ${module}, t.title, (SELECT id FROM event_statuses WHERE module = ${module} AND code = 'new'),
           ${tag} || '-' || g, '{}'::jsonb, to_tsvector('russian', t.title) || to_tsvector('simple', t.title),
           now() - make_interval(mins => (g * 7919) % ${n}) - interval '1 day'
    FROM generate_series(1, ${n}) g CROSS JOIN LATERAL (SELECT ${title} AS title) t`);
}

/** The same list by a plain query: ids of the company's consulting events whose title matches, newest first. */
async function reference(companyId: number, like: string, limit: number, offset = 0): Promise<number[]> {
  const r = await ctx.database.db.execute(sql`
    SELECT id FROM events WHERE company_id = ${companyId} AND module = 'consulting' AND title LIKE ${like}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
  return (r.rows as { id: number }[]).map((x) => Number(x.id));
}

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  C = await createCompany(ctx, 'Гамма');
  // A: 3 000 events — «частотный» in every second, «среднечастотный» in every 50th, «редчайший» in
  // 12 events created before all the others (beyond the ordered walk of the first page).
  await bulk(
    A.id,
    3000,
    sql`CASE WHEN g % 250 = 0 THEN 'Редчайший случай ' || g
             WHEN g % 50 = 0 THEN 'Среднечастотный случай ' || g
             WHEN g % 2 = 0 THEN 'Частотный случай ' || g ELSE 'Обычный случай ' || g END`,
    'a',
  );
  await ctx.database.db.execute(
    sql`UPDATE events SET created_at = created_at - interval '10 years' WHERE company_id = ${A.id} AND title LIKE 'Редчайший%'`,
  );
  // B: 1 500 events, 60 % with «частотный» — 900 matches, fewer than the cap, in a base smaller than the walk.
  await bulk(B.id, 1500, sql`CASE WHEN g % 5 < 3 THEN 'Частотный случай ' || g ELSE 'Обычный случай ' || g END`, 'b');
  // C: 50 events, 2 with «частотный» (the whole base is shorter than the walk).
  await bulk(C.id, 50, sql`CASE WHEN g % 17 = 0 THEN 'Частотный случай ' || g ELSE 'Обычный случай ' || g END`, 'c');
  await ctx.database.db.execute(sql`ANALYZE events`);
});

const list = (o: Record<string, string | number>) => admin.get(`/modules/consulting/events?${qs(o)}`);

describe('free-text search of event lists', () => {
  it('a frequent word: the newest matches, total «1 000+»; word forms and prefixes find the same', async () => {
    const want = await reference(A.id, 'Частотный%', 20);
    for (const q of ['частотный', 'частотные', 'ЧАСТОТНОГО', 'частотн']) {
      const r = await list({ company_id: A.id, q, page_size: 20 });
      expect(r.statusCode, r.body).toBe(200);
      expect(ids(r), q).toEqual(want);
      expect(r.json(), q).toMatchObject({ total: SEARCH_COUNT_CAP, total_capped: true });
    }
    // A later page, the oldest first, and another indexed sort.
    expect(ids(await list({ company_id: A.id, q: 'частотный', page_size: 20, page: 4 }))).toEqual(
      await reference(A.id, 'Частотный%', 20, 60),
    );
    const oldest = await ctx.database.db.execute(sql`
      SELECT id FROM events WHERE company_id = ${A.id} AND module = 'consulting' AND title LIKE 'Частотный%'
      ORDER BY created_at ASC, id ASC LIMIT 10`);
    expect(ids(await list({ company_id: A.id, q: 'частотный', page_size: 10, sort: 'created_at' }))).toEqual(
      (oldest.rows as { id: number }[]).map((x) => Number(x.id)),
    );
  });

  it('a word in one event of 50: page from the walk, exact total from the index', async () => {
    const r = await list({ company_id: A.id, q: 'среднечастотный', page_size: 20 });
    expect(ids(r)).toEqual(await reference(A.id, 'Среднечастотный%', 20));
    expect(r.json()).toMatchObject({ total: 48, total_capped: false });
  });

  it('a rare word beyond the walk: page and total from the index', async () => {
    const r = await list({ company_id: A.id, q: 'редчайший', page_size: 5, page: 2 });
    expect(ids(r)).toEqual(await reference(A.id, 'Редчайший%', 5, 5));
    expect(r.json()).toMatchObject({ total: 12, total_capped: false });
    const last = await list({ company_id: A.id, q: 'редчайший', page_size: 5, page: 3 });
    expect(ids(last)).toEqual(await reference(A.id, 'Редчайший%', 5, 10));
    expect(last.json()).toMatchObject({ total: 12, total_capped: false });
    // Every word required: no event has both.
    expect((await list({ company_id: A.id, q: 'редчайший частотный' })).json()).toMatchObject({ total: 0, items: [] });
  });

  it('counts exactly below the cap when the walk covers the whole base (900 of 1 500)', async () => {
    const r = await list({ company_id: B.id, q: 'частотный', page_size: 20 });
    expect(ids(r)).toEqual(await reference(B.id, 'Частотный%', 20));
    expect(r.json()).toMatchObject({ total: 900, total_capped: false });
    const small = await list({ company_id: C.id, q: 'частотный', page_size: 20 });
    expect(ids(small)).toEqual(await reference(C.id, 'Частотный%', 20));
    expect(small.json()).toMatchObject({ total: 2, total_capped: false });
  });

  it('per-status counts of a search: exact up to the cap, not computed beyond it', async () => {
    // B: 900 matches (below the cap) — exact counts per status, as a plain GROUP BY gives them.
    const b = (await list({ company_id: B.id, q: 'частотный', status_counts: 'true' })).json();
    const real = await ctx.database.db.execute(sql`
      SELECT status_id, count(*)::int AS count FROM events
      WHERE company_id = ${B.id} AND module = 'consulting' AND title LIKE 'Частотный%'
      GROUP BY status_id ORDER BY status_id`);
    expect(real.rows.length).toBeGreaterThan(0);
    expect(b).toMatchObject({ status_counts: real.rows, status_counts_capped: false });
    // A: about 1 500 matches — more than the cap: flagged, no numbers.
    const a = (await list({ company_id: A.id, q: 'частотный', status_counts: 'true' })).json();
    expect(a).toMatchObject({ status_counts: [], status_counts_capped: true, total_capped: true });
    // A plain list (no search) counts per status exactly, whatever the size.
    const plain = (await list({ company_id: A.id, status_counts: 'true' })).json();
    expect(plain.status_counts_capped).toBe(false);
    expect(plain.status_counts.reduce((n: number, x: { count: number }) => n + x.count, 0)).toBe(3000);
  });

  it('per-status counts of a search over several statuses, with a status filter: as plain SQL, by walk and by index', async () => {
    // (leaks: the other tests count consulting events) 1 500 events over three statuses; «частотный»
    // in 870 (the count's walk covers the whole base: counted there), «среднечастотный» in 30 (too
    // sparse for that walk: counted by the GIN index).
    const E = await createCompany(ctx, 'Эпсилон');
    await bulk(
      E.id,
      1500,
      sql`CASE WHEN g % 50 = 0 THEN 'Среднечастотный случай ' || g
               WHEN g % 5 < 3 THEN 'Частотный случай ' || g ELSE 'Обычный случай ' || g END`,
      'st',
      'leaks',
    );
    await ctx.database.db.execute(sql`
      UPDATE events e SET status_id = s.id
      FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM event_statuses WHERE module = 'leaks' ORDER BY id LIMIT 3) s
      WHERE e.company_id = ${E.id} AND e.module = 'leaks' AND (e.id * 7 + e.id / 3) % 3 = s.k`);
    const plain = async (like: string, statusId?: number) =>
      (
        await ctx.database.db.execute(sql`
          SELECT status_id, count(*)::int AS count FROM events
          WHERE company_id = ${E.id} AND module = 'leaks' AND title LIKE ${like}
            ${statusId === undefined ? sql`` : sql`AND status_id = ${statusId}`}
          GROUP BY status_id ORDER BY status_id`)
      ).rows as { status_id: number; count: number }[];
    const get = async (q: string, statusId?: number) => {
      const r = await admin.get(
        `/modules/leaks/events?${qs({ company_id: E.id, q, status_counts: 'true', ...(statusId ? { status: statusId } : {}) })}`,
      );
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    for (const [q, like, matches] of [
      ['частотный', 'Частотный%', 870],
      ['среднечастотный', 'Среднечастотный%', 30],
    ] as const) {
      const all = await plain(like);
      expect(all.length, q).toBe(3);
      expect(all.reduce((n, x) => n + x.count, 0)).toBe(matches);
      expect(await get(q), q).toMatchObject({ status_counts: all, status_counts_capped: false, total: matches });
      // A status filter narrows the page and the total, not the per-status counts.
      const one = all[1] as { status_id: number; count: number };
      expect(await plain(like, one.status_id)).toEqual([one]);
      const filtered = await get(q, one.status_id);
      expect(filtered, q).toMatchObject({ status_counts: all, status_counts_capped: false, total: one.count });
      expect(filtered.items.every((i: { status_id: number }) => i.status_id === one.status_id)).toBe(true);
    }

    // More than the cap, all older than the page's walk: page, total and statuses from the index.
    const F = await createCompany(ctx, 'Фи');
    await bulk(F.id, SEARCH_COUNT_CAP + 100, sql`'Древний случай ' || g`, 'old', 'leaks');
    await ctx.database.db.execute(
      sql`UPDATE events SET created_at = created_at - interval '10 years' WHERE company_id = ${F.id} AND module = 'leaks'`,
    );
    await bulk(F.id, 2100, sql`'Обычный случай ' || g`, 'recent', 'leaks');
    const newId = (
      (await ctx.database.db.execute(sql`SELECT id FROM event_statuses WHERE module = 'leaks' AND code = 'new'`)).rows[0] as {
        id: number;
      }
    ).id;
    for (const status of [undefined, newId]) {
      const r = await admin.get(
        `/modules/leaks/events?${qs({ company_id: F.id, q: 'древний', status_counts: 'true', ...(status ? { status } : {}) })}`,
      );
      expect(r.json(), String(status)).toMatchObject({
        total: SEARCH_COUNT_CAP,
        total_capped: true,
        status_counts: [],
        status_counts_capped: true,
      });
      expect(ids(r)).toEqual(
        (
          (
            await ctx.database.db.execute(sql`
              SELECT id FROM events WHERE company_id = ${F.id} AND module = 'leaks' AND title LIKE 'Древний%'
              ORDER BY created_at DESC, id DESC LIMIT 20`)
          ).rows as { id: number }[]
        ).map((x) => Number(x.id)),
      );
    }
  });

  it('per-status counts of a list: exact up to COUNT_CAP per status, flagged beyond it', async () => {
    // (accounts: the other tests count all companies' consulting events)
    const D = await createCompany(ctx, 'Дельта');
    await bulk(D.id, COUNT_CAP + 5, sql`'Событие ' || g`, 'cap', 'accounts');
    await ctx.database.db.execute(sql`
      UPDATE events SET status_id = (SELECT id FROM event_statuses WHERE module = 'accounts' AND code = 'in_progress')
      WHERE id IN (SELECT id FROM events WHERE company_id = ${D.id} ORDER BY id LIMIT 7)`);
    const real = (
      await ctx.database.db.execute(sql`
        SELECT status_id, count(*)::int AS count FROM events WHERE company_id = ${D.id} AND module = 'accounts'
        GROUP BY status_id ORDER BY status_id`)
    ).rows as { status_id: number; count: number }[];
    expect(real.map((r) => r.count).sort((a, b) => a - b)).toEqual([7, COUNT_CAP - 2]);
    // COUNT_CAP − 2 «new» events: below the cap, exact; then three more pass it.
    let r = (await admin.get(`/modules/accounts/events?company_id=${D.id}&status_counts=true`)).json();
    expect(r.status_counts).toEqual(real);
    await bulk(D.id, 3, sql`'Ещё ' || g`, 'cap-more', 'accounts');
    r = (await admin.get(`/modules/accounts/events?company_id=${D.id}&status_counts=true`)).json();
    const newId = real.find((x) => x.count > 7)?.status_id;
    expect(r.status_counts).toEqual(
      real.map((x) => (x.status_id === newId ? { status_id: newId, count: COUNT_CAP, capped: true } : x)),
    );
    expect(r).toMatchObject({ status_counts_capped: false, total: COUNT_CAP, total_capped: true });
  });

  it('several companies and other filters: the same page as a plain query', async () => {
    const r = await list({ q: 'частотный', page_size: 30, created_to: '2000-01-01' });
    expect(r.json()).toMatchObject({ total: 0, total_capped: false });
    const all = await list({ q: 'частотный', page_size: 30 });
    const want = await ctx.database.db.execute(sql`
      SELECT id FROM events WHERE module = 'consulting' AND title LIKE 'Частотный%' ORDER BY created_at DESC, id DESC LIMIT 30`);
    expect(ids(all)).toEqual((want.rows as { id: number }[]).map((x) => Number(x.id)));
    expect(all.json()).toMatchObject({ total: SEARCH_COUNT_CAP, total_capped: true });
  });

  it('the lexicon follows inserts and edits, so a prefix finds new words', async () => {
    const m = MODULE_LIST.find((x) => x.code === 'media') as ModuleDescriptor;
    const base = '/modules/media/events';
    const ev = (
      await admin.post(base, { company_id: A.id, ...m.sample(900), headline: 'Квазипротонный ускоритель мошенников' })
    ).json();
    expect(ev.id).toBeTruthy();
    const found = async (q: string) => ids(await admin.get(`${base}?${qs({ q })}`));
    expect(await found('квазипрот')).toContain(ev.id);
    expect(await found('квазипротонный ускор')).toContain(ev.id);
    const words = await ctx.database.db.execute(sql`SELECT DISTINCT word FROM event_search_words WHERE word LIKE 'квазипрот%'`);
    expect((words.rows as { word: string }[]).map((w) => w.word)).toContain('квазипротонный');
    // An edit brings its new words (the title stays: it is not recomputed on edit).
    expect((await admin.patch(`${base}/${ev.id}`, { headline: 'Ультрамариновый сайт-двойник' })).statusCode).toBe(200);
    expect(await found('ультрамарин')).toContain(ev.id);
    const later = await ctx.database.db.execute(sql`SELECT 1 FROM event_search_words WHERE word = 'ультрамариновый'`);
    expect(later.rows.length).toBeGreaterThan(0);
  });

  it('a prefix of more words than the lexicon expands still finds by a partial match', async () => {
    // PREFIX_WORDS_MAX + 1 other words with the same prefix, then an event with one more.
    await ctx.database.db.execute(sql`
      INSERT INTO event_search_words (word)
      SELECT 'ззяпрефикс' || chr(1072 + g / 32) || chr(1072 + g % 32) FROM generate_series(0, ${PREFIX_WORDS_MAX}) g`);
    const m = MODULE_LIST.find((x) => x.code === 'media') as ModuleDescriptor;
    const ev = (
      await admin.post('/modules/media/events', { company_id: A.id, ...m.sample(901), headline: 'Ззяпрефиксный текст' })
    ).json();
    const r = await admin.get(`/modules/media/events?${qs({ q: 'ззяпрефикс' })}`);
    expect(ids(r)).toEqual([ev.id]);
  });
});

describe('the search index: one per module of the registry', () => {
  it('every module has its partial GIN index, and a search of the module reads it', async () => {
    const rows = (await ctx.database.db.execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'events'`))
      .rows as { indexname: string; indexdef: string }[];
    const defs = new Map(rows.map((r) => [r.indexname, r.indexdef]));
    // No index over every module's text is left (each module's words would inflate the others' bitmaps).
    expect(rows.filter((r) => /\(.*search.*\)/.test(r.indexdef) && !/WHERE/.test(r.indexdef))).toEqual([]);
    for (const m of MODULE_LIST) {
      const def = defs.get(`events_search_${m.code}_gin`);
      expect(def, m.code).toMatch(new RegExp(`USING gin \\(company_id, search\\) WHERE \\(module = '${m.code}'::text\\)`));
    }
    // As the list sends it (the module a parameter, the query a tsquery constant — events.repo
    // resolveQuery), the planner can prove each partial index's predicate. On this small table it
    // rightly prefers a btree, so the other indexes are dropped inside a transaction rolled back.
    await ctx.database.db
      .transaction(async (tx) => {
        for (const r of rows.filter((x) => !x.indexname.startsWith('events_search_') && x.indexname !== 'events_pkey'))
          await tx.execute(sql.raw(`DROP INDEX ${r.indexname}`));
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        for (const m of MODULE_LIST) {
          const plan = (
            (
              await tx.execute(
                sql`EXPLAIN SELECT count(*) FROM events e WHERE e.module = ${m.code} AND e.company_id = ${A.id} AND e.search @@ 'частотный'::tsquery`,
              )
            ).rows as { 'QUERY PLAN': string }[]
          )
            .map((r) => r['QUERY PLAN'])
            .join('\n');
          expect(plan, m.code).toContain(`Bitmap Index Scan on events_search_${m.code}_gin`);
        }
        tx.rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof TransactionRollbackError)) throw e;
      });
    expect(rows.length).toBe(
      (await ctx.database.db.execute(sql`SELECT 1 FROM pg_indexes WHERE tablename = 'events'`)).rows.length,
    );
  });
});

describe('lists without free text: the page and its count in one statement (events.repo list)', () => {
  /** The same page and total by plain SQL: the consulting events of `companyId` (all three when undefined), newest first. */
  async function plain(companyId: number | undefined, limit: number, offset: number) {
    const scope = companyId ? sql`AND company_id = ${companyId}` : sql``;
    const page = await ctx.database.db.execute(sql`
      SELECT id FROM events WHERE module = 'consulting' ${scope} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
    const [n] = (await ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM events WHERE module = 'consulting' ${scope}`))
      .rows as { n: number }[];
    return { ids: (page.rows as { id: number }[]).map((x) => Number(x.id)), total: n?.n ?? 0 };
  }

  it('full, last, past-the-end and first pages (prepared, asked twice) match plain SQL', async () => {
    const cases: [number | undefined, number, number][] = [
      [A.id, 20, 1], // a full first page: counted in the statement
      [A.id, 20, 1], // again: the named statement of the first page
      [B.id, 500, 3], // the last page, full: counted
      [B.id, 400, 4], // the last page, partial: its own count
      [B.id, 500, 4], // past the end: counted apart
      [C.id, 100, 1], // a first page that is not full
      [undefined, 20, 1], // every company
      [undefined, 500, 9], // every company, a full later page: counted
      [undefined, 500, 10], // every company, the last page
    ];
    for (const [company, size, page] of cases) {
      const want = await plain(company, size, (page - 1) * size);
      const r = await list({ ...(company ? { company_id: company } : {}), page_size: size, page });
      expect(r.statusCode, r.body).toBe(200);
      const what = `company ${company ?? 'all'}, page ${page} of ${size}`;
      expect(ids(r), what).toEqual(want.ids);
      expect(r.json(), what).toMatchObject({ total: want.total, total_capped: false });
    }
  });

  it('keyset paging: following next_cursor gives the plain SQL order, both ways, unmoved by new events', async () => {
    for (const [sort, dir] of [
      ['-created_at', sql`created_at DESC, id DESC`],
      ['created_at', sql`created_at ASC, id ASC`],
    ] as const) {
      const want = (
        await ctx.database.db.execute(
          sql`SELECT id FROM events WHERE module = 'consulting' AND company_id = ${B.id} ORDER BY ${dir}`,
        )
      ).rows.map((x) => Number((x as { id: number }).id));
      expect(want.length).toBeGreaterThan(1000);
      const got: number[] = [];
      let after: string | null | undefined;
      let pages = 0;
      do {
        const r = await list({ company_id: B.id, sort, page_size: 400, ...(after ? { after } : {}) });
        expect(r.statusCode, r.body).toBe(200);
        const body = r.json();
        expect(body.total).toBe(want.length + (pages > 0 ? 1 : 0));
        got.push(...ids(r));
        after = body.next_cursor;
        // A new event between two pages: at the top of -created_at, it must not shift the next page.
        if (pages++ === 0) await bulk(B.id, 1, sql`'Новое между страницами'`, `between-${sort}`);
      } while (after);
      // created_at ascending reaches the event added meanwhile at its end; newest first does not.
      const added = Number(
        (
          (await ctx.database.db.execute(sql`SELECT id FROM events WHERE fingerprint = ${`between-${sort}-1`}`)).rows[0] as {
            id: number;
          }
        ).id,
      );
      expect(got).toEqual(sort === 'created_at' ? [...want, added] : want);
      expect(new Set(got).size).toBe(got.length);
    }
    // The last page's cursor is null; a cursor with another sort, or one not made by the API, is refused in Russian.
    const first = (await list({ company_id: B.id, page_size: 5 })).json();
    expect(first.next_cursor).toEqual(expect.any(String));
    const byTitle = await list({ company_id: B.id, sort: 'title', after: first.next_cursor });
    expect(byTitle.statusCode).toBe(400);
    expect(byTitle.json().message).toMatch(/только с сортировкой по дате создания/);
    const enc = (t: string) => Buffer.from(t).toString('base64url');
    for (const bad of [
      'x',
      'Zm9v',
      enc("2026-01-01 00:00:00+00|1' OR 1=1"),
      enc('2026-02-30 00:00:00+00|5'),
      enc('2026-01-01 24:00:00+00|5'),
      '%%',
    ]) {
      const r = await list({ company_id: B.id, after: bad });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().message, bad).toMatch(/Неверный курсор страницы/);
    }
    expect((await list({ company_id: B.id, sort: 'title', page_size: 5 })).json()).not.toHaveProperty('next_cursor');
  });
});

describe('search finds what the grid shows: hosts as typed, IP addresses, event numbers, URL parts', () => {
  const base = '/modules/domains/events';
  let G: { id: number };
  const ev: Record<string, number> = {};
  /** Ids of the company's domain events found by `q` (a page big enough for all of them). */
  const found = async (q: string, module = 'domains') => {
    const r = await admin.get(`/modules/${module}/events?${qs({ company_id: G.id, q, page_size: 100 })}`);
    expect(r.statusCode, r.body).toBe(200);
    return ids(r).sort((a, b) => a - b);
  };
  const set = (...keys: string[]) => keys.map((k) => ev[k] as number).sort((a, b) => a - b);
  const create = async (key: string, body: Record<string, unknown>) => {
    const r = await admin.post(base, { company_id: G.id, ...body });
    expect(r.statusCode, r.body).toBe(201);
    ev[key] = r.json().id;
  };

  beforeAll(async () => {
    G = await createCompany(ctx, 'Дзета');
    await create('a', { domain: 'vtb-lk.ru', url: 'https://vtb-lk.ru/login.php?id=7', ip: '95.88.54.16' });
    await create('b', { domain: 'lk.vtb.ru', url: 'https://lk.vtb.ru/auth', ip: '95.88.154.3' });
    await create('c', { domain: 'vtb-bonus.online', url: 'https://vtb-bonus.online/', ip: '185.1.2.3' });
    await create('d', { domain: 'my-vtb-lombard.ru', ip: '95.89.1.1' });
    await create('e', { domain: 'v6-test.example', ip: '2001:db8:85a3::8a2e:370:7334' });
  });

  it('a host by any prefix as typed, hyphens and dots included, from any label', async () => {
    const cases: [string, string[]][] = [
      ['vtb', ['a', 'b', 'c', 'd']],
      // The vector keeps words and their order, not the separators: «vtb-» is «vtb», «vtb-lk» would find vtb.lk too.
      ['vtb-', ['a', 'b', 'c', 'd']],
      ['vtb-l', ['a', 'd']],
      ['vtb-lk', ['a']],
      ['vtb-lk.', ['a']],
      ['vtb-lk.r', ['a']],
      ['vtb-lk.ru', ['a']],
      ['VTB-LK.RU', ['a']],
      ['lk.vtb', ['b']],
      ['lk.vtb.r', ['b']],
      ['vtb-b', ['c']],
      ['vtb-bonus.on', ['c']],
      ['my-vtb-lo', ['d']],
      ['vtb-lo', ['d']],
      ['vtb-x', []],
      // Words apart (a space) are each required anywhere, as before.
      ['vtb lk', ['a', 'b']],
    ];
    for (const [q, want] of cases) expect(await found(q), q).toEqual(set(...want));
  });

  it('a short prefix the lexicon covers with too many words is checked on the rows the other words find', async () => {
    // PREFIX_WORDS_MAX + 1 words starting with «щ»: the index leaves «щ» out, the phrase check keeps it.
    await ctx.database.db.execute(sql`
      INSERT INTO event_search_words (word)
      SELECT 'щ' || chr(1072 + g / 32) || chr(1072 + g % 32) || 'слово' FROM generate_series(0, ${PREFIX_WORDS_MAX}) g`);
    await create('cyr', { domain: 'втб-щит.рф' });
    await create('cyr2', { domain: 'втб-бонус.рф' });
    for (const [q, want] of [
      ['втб-щ', ['cyr']],
      ['втб-щи', ['cyr']],
      ['втб-ш', []],
      ['втб-б', ['cyr2']],
    ] as const)
      expect(await found(q), q).toEqual(set(...want));
  });

  it('a short prefix that starts a common word (planner statistics) is checked on the rows the other words find', async () => {
    // «лк» in 600 events of C — far above 1 % of the table once ANALYZE has seen it; «ж» starts no word.
    await bulk(C.id, 600, sql`'Втб-лк случай ' || g`, 'lk');
    await ctx.database.db.execute(sql`ANALYZE events`);
    const indexQuery = async (q: string) => {
      const r = await ctx.database.db.execute(sql`SELECT (${textQueryOf(q)?.index})::text AS q`);
      return (r.rows[0] as { q: string }).q;
    };
    expect(await indexQuery('втб-л')).not.toContain(`'л':*`);
    expect(await indexQuery('втб-ж')).toContain(`'ж':*`);
    // What is found is the same either way.
    const r = await list({ company_id: C.id, q: 'втб-л', page_size: 20 });
    expect(r.statusCode).toBe(200);
    expect(r.json().total).toBe(600);
    expect((await list({ company_id: C.id, q: 'втб-ж', page_size: 20 })).json().total).toBe(0);
  });

  it('an IP address, exactly and by its prefix; IPv6 by its groups', async () => {
    const cases: [string, string[]][] = [
      ['95.88.54.16', ['a']],
      ['95.88.54', ['a']],
      ['95.88.5', ['a']],
      ['95.88.', ['a', 'b']],
      ['95.88', ['a', 'b']],
      ['95.8', ['a', 'b', 'd']],
      ['95.88.154.3', ['b']],
      ['185.1.2.3', ['c']],
      ['95.88.54.17', []],
      ['2001:db8:85a3', ['e']],
      ['2001:db8:85a3::8a2e:370:7334', ['e']],
      ['2001:db9', []],
    ];
    for (const [q, want] of cases) expect(await found(q), q).toEqual(set(...want));
  });

  it('a URL by its path, file and query parts', async () => {
    const cases: [string, string[]][] = [
      ['/login', ['a']],
      ['login.php', ['a']],
      ['login.php?id=', ['a']],
      ['?id=', ['a']],
      ['https://lk.vtb.ru/au', ['b']],
      ['vtb-bonus.online/', ['c']],
    ];
    for (const [q, want] of cases) expect(await found(q), q).toEqual(set(...want));
  });

  it('an event number: the event with that number in the module, and the events whose text has it', async () => {
    const a = ev.a as number;
    await create('mentions', { domain: `promo${a}.ru` });
    for (const q of [String(a), `№${a}`, `#${a}`, `№ ${a}`, ` ${a} `]) expect(await found(q), q).toEqual(set('a', 'mentions'));
    // Another module's event by its number is not in this list.
    const m = MODULE_LIST.find((x) => x.code === 'media') as ModuleDescriptor;
    const media = (await admin.post('/modules/media/events', { company_id: G.id, ...m.sample(902) })).json();
    expect(await found(String(media.id))).toEqual([]);
    expect(await found(String(media.id), 'media')).toContain(media.id);
    // Nor another company's (the caller's scope still applies): the number of a company A event in G's list.
    const other = (await admin.post(base, { company_id: A.id, domain: 'другая-компания.рф' })).json();
    expect(await found(`№${other.id}`)).toEqual([]);
  });

  it('property: every prefix (3+ characters) of a random host, from each label, and of its IP finds its event', async () => {
    let seed = 20_261_128;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const pick = (s: string) => s[rnd(s.length)] as string;
    const label = () => {
      let s = pick('abcdefghijklmnopqrstuvwxyz');
      const len = 2 + rnd(9);
      while (s.length < len) s += pick('abcdefghijklmnopqrstuvwxyz0123456789--');
      return s.replace(/-+$/, '') + pick('abcdefghijklmnopqrstuvwxyz0123456789');
    };
    const H = await createCompany(ctx, 'Эта');
    const made: { id: number; host: string; ip: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const host = `${Array.from({ length: 1 + rnd(3) }, label).join('.')}.${['ru', 'com', 'online'][rnd(3)]}`;
      const ip = `${1 + rnd(223)}.${rnd(256)}.${rnd(256)}.${1 + rnd(254)}`;
      const r = await admin.post(base, { company_id: H.id, domain: host, ip });
      expect(r.statusCode, `${host} ${r.body}`).toBe(201);
      made.push({ id: r.json().id, host, ip });
    }
    let asked = 0;
    for (const e of made) {
      const starts = [0, ...[...e.host].flatMap((ch, i) => (ch === '.' || ch === '-' ? [i + 1] : []))];
      const prefixes = new Set<string>();
      // (A number typed alone is a whole number — an event number, a number in the text — not a prefix.)
      const loneNumberCut = (s: number, n: number) => /^\d+$/.test(e.host.slice(s, n)) && /\d/.test(e.host[n] ?? '');
      for (const s of starts)
        for (let n = s + 3; n <= e.host.length; n++) if (!loneNumberCut(s, n)) prefixes.add(e.host.slice(s, n));
      for (let n = 3; n <= e.ip.length; n++) prefixes.add(e.ip.slice(0, n));
      for (const q of prefixes) {
        const r = await admin.get(`${base}?${qs({ company_id: H.id, q, page_size: 100 })}`);
        expect(ids(r), `«${q}» of ${e.host} / ${e.ip}`).toContain(e.id);
        asked++;
      }
    }
    expect(asked).toBeLessThan(2000);
  });
});
