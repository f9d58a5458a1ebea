/*
 * TAXII 2.1 server (#33), driven by a client written here from the specification («TAXII Version 2.1»
 * CS01 §3 and §5): discovery → API root → collections → objects pages by `next` until `more` is false,
 * `added_after` from the last page's X-TAXII-Date-Added-Last, the taxii+json media type, errors in the
 * error-message shape. 10 000 events inserted in one statement; every object comes exactly once; a
 * later pull gets only what changed; a change committed during a pull is not lost; B's objects never
 * reach A's key.
 */

import type { ExportItem } from '@forpost/contract/exports';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCompany, eventually, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, finished, waitFor } from './imports-kit';

const TAXII = 'application/taxii+json;version=2.1';
const N = 10_000;
/** Objects of one domains event without URL or IP: domain, indicator, 4 relationships, incident. */
const PER_EVENT = 7;
const HEAD = 3;

let ctx: TestContext;
let A: number;
let B: number;
let keyA = '';
let keyB = '';
let admin: Client;

type Obj = { id: string; type: string; modified?: string; extensions?: Record<string, { event_id?: number }> };
interface Page {
  status: number;
  body: { more?: boolean; next?: string; objects?: Obj[]; title?: string; http_status?: string };
  last?: string;
  type?: string;
}

/** A TAXII 2.1 client: GET with the TAXII Accept header and HTTP Basic (the API key as the password). */
function client(secret: string, scheme: 'basic' | 'bearer' = 'basic') {
  const authorization = scheme === 'basic' ? `Basic ${Buffer.from(`opencti:${secret}`).toString('base64')}` : `Bearer ${secret}`;
  const get = async (url: string): Promise<Page> => {
    const r = await ctx.app.inject({ method: 'GET', url, headers: { accept: TAXII, authorization } });
    return {
      status: r.statusCode,
      body: r.json(),
      last: r.headers['x-taxii-date-added-last'] as string | undefined,
      type: r.headers['content-type'] as string | undefined,
    };
  };
  return {
    get,
    /** §3.4: objects of a collection, page by page through `next`, as long as `more`. */
    async pull(
      collectionUrl: string,
      o: { addedAfter?: string; limit?: number; types?: string; between?: (page: number) => Promise<void> } = {},
    ) {
      const objects: Obj[] = [];
      let last: string | undefined;
      let next: string | undefined;
      let pages = 0;
      for (;;) {
        const q = new URLSearchParams();
        if (o.addedAfter) q.set('added_after', o.addedAfter);
        if (o.limit) q.set('limit', String(o.limit));
        if (o.types) q.set('match[type]', o.types);
        if (next) q.set('next', next);
        const p = await get(`${collectionUrl}objects/?${q}`);
        expect(p.status, JSON.stringify(p.body)).toBe(200);
        expect(p.type).toBe(TAXII);
        pages++;
        objects.push(...(p.body.objects ?? []));
        if (p.last) last = p.last;
        if (!p.body.more) break;
        next = p.body.next;
        expect(next).toBeTruthy();
        await o.between?.(pages);
      }
      return { objects, last, pages };
    },
  };
}

/** 10 000 domain events of a company in one statement (the bulk path), stamped by the trigger like any write. */
async function insertDomains(companyId: number, n: number, prefix: string) {
  await ctx.database.db.execute(sql`
    INSERT INTO events (company_id, module, title, status_id, source, ml_state, fingerprint, data, search)
    SELECT ${companyId}, 'domains', 'Домен ' || g, (SELECT id FROM event_statuses WHERE module = 'domains' AND code = 'new'),
           'Other', 'NotDetermined', md5(${prefix} || g),
           jsonb_build_object('domain', ${prefix} || g || '.example', 'domain_punycode', ${prefix} || g || '.example'),
           to_tsvector('simple', 'Домен ' || g)
      FROM generate_series(1, ${n}) g`);
}
const eventIdOfObj = (o: Obj) => Object.values(o.extensions ?? {})[0]?.event_id;
const incidents = (objs: Obj[]) => objs.filter((o) => o.type === 'incident');

let root = '';
let colA = '';
let colB = '';

beforeAll(async () => {
  ctx = await setupApp({ API_KEY_RATE_LIMIT: '0' });
  A = (await createCompany(ctx, 'Альфа')).id;
  B = (await createCompany(ctx, 'Бета')).id;
  await attachJobs(ctx, true);
  admin = await signedIn(ctx, 'taxii-admin@forpost.test', 'SUPER_ADMIN');
  const key = async (company: number) =>
    (await admin.post('/apikeys', { name: 'TAXII', company_id: company, roles: [{ module: '*', access: 'read' }] })).json()
      .secret as string;
  keyA = await key(A);
  keyB = await key(B);
  await insertDomains(A, N, 'a');
  await insertDomains(B, 50, 'b');
});

describe('TAXII 2.1 server', () => {
  it('discovery, API root and collections: A’s key sees A’s collections only, B’s is not there', async () => {
    const a = client(keyA);
    const d = await a.get('/api/v1/taxii2/');
    expect(d.status).toBe(200);
    expect(d.type).toBe(TAXII);
    const disc = d.body as unknown as { api_roots: string[]; default: string };
    root = new URL(disc.api_roots[0] as string).pathname;
    expect(root).toBe('/api/v1/taxii2/forpost/');
    const r = (await a.get(root)).body as unknown as { versions: string[] };
    expect(r.versions).toEqual([TAXII]);
    const cols = (await a.get(`${root}collections/`)).body as unknown as { collections: { id: string; title: string }[] };
    expect(cols.collections).toHaveLength(16);
    expect(cols.collections.every((c) => c.title.startsWith('Альфа'))).toBe(true);
    colA = `${root}collections/${cols.collections.find((c) => c.title === 'Альфа — Домены')?.id}/`;
    const colsB = (await client(keyB, 'bearer').get(`${root}collections/`)).body as unknown as {
      collections: { id: string; title: string }[];
    };
    colB = `${root}collections/${colsB.collections.find((c) => c.title === 'Бета — Домены')?.id}/`;
    // B's collection through A's key: TAXII's 404 error message, like a collection that does not exist.
    for (const url of [colB, `${colB}objects/`, `${colB}manifest/`]) {
      const p = await a.get(url);
      expect(p.status).toBe(404);
      expect(p.type).toBe(TAXII);
      expect(p.body).toEqual({ title: 'Коллекция не найдена', http_status: '404' });
    }
    // No key, a wrong key: 401 in the same shape, with the Basic challenge.
    const anon = await ctx.app.inject({ method: 'GET', url: `${colA}objects/`, headers: { accept: TAXII } });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toContain('Basic');
    expect(anon.json()).toMatchObject({ http_status: '401' });
    expect((await client('fp_wrong').get(`${colA}objects/`)).status).toBe(401);
    expect((await a.get(`${colA}objects/?added_after=вчера`)).body).toMatchObject({ http_status: '400' });
  });

  it('a client configured with the site root’s /taxii2/ reaches the objects there, under the same auth', async () => {
    const a = client(keyA);
    const d = await a.get('/taxii2/');
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.type).toBe(TAXII);
    const disc = d.body as unknown as { api_roots: string[]; default: string };
    const r0 = new URL(disc.api_roots[0] as string).pathname;
    expect(r0).toBe('/taxii2/forpost/');
    expect(new URL(disc.default).pathname).toBe(r0);
    expect(((await a.get(r0)).body as unknown as { versions: string[] }).versions).toEqual([TAXII]);
    const cols = (await a.get(`${r0}collections/`)).body as unknown as { collections: { id: string; title: string }[] };
    expect(cols.collections).toHaveLength(16);
    const col = `${r0}collections/${cols.collections.find((c) => c.title === 'Альфа — Домены')?.id}/`;
    const p = await a.get(`${col}objects/?limit=5&match[type]=domain-name`);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.type).toBe(TAXII);
    expect(p.body.objects).toHaveLength(5);
    const one = p.body.objects?.[0] as Obj;
    const got = await a.get(`${col}objects/${one.id}/`);
    expect(got.body.objects?.[0]?.id).toBe(one.id);
    // Same auth: no key → TAXII's 401 with the Basic challenge; B's collection through A's key → 404.
    const anon = await ctx.app.inject({ method: 'GET', url: `${col}objects/`, headers: { accept: TAXII } });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toContain('Basic');
    const colsB = (await client(keyB, 'bearer').get(`${r0}collections/`)).body as unknown as {
      collections: { id: string; title: string }[];
    };
    const bId = colsB.collections.find((c) => c.title === 'Бета — Домены')?.id;
    expect((await a.get(`${r0}collections/${bId}/objects/`)).status).toBe(404);
    // Only TAXII lives at the root: other API paths are not reachable without /api/v1.
    expect((await ctx.app.inject({ method: 'GET', url: '/taxii2x/', headers: { accept: TAXII } })).statusCode).not.toBe(200);
  });

  it('a full pull in pages returns each of 10 000 events’ objects exactly once; B’s never', async () => {
    const a = client(keyA);
    const t0 = Date.now();
    const { objects, pages } = await a.pull(colA, { limit: 5000 });
    const ms = Date.now() - t0;
    console.log(`TAXII full pull: ${N} events → ${objects.length} objects in ${pages} pages, ${ms} ms`);
    expect(objects).toHaveLength(HEAD + N * PER_EVENT);
    expect(new Set(objects.map((o) => o.id)).size).toBe(objects.length);
    const ev = incidents(objects).map(eventIdOfObj);
    expect(new Set(ev).size).toBe(N);
    expect(JSON.stringify(objects)).not.toContain('b1.example');
    // The manifest and one object by id, and match[type].
    const inc = incidents(objects)[0] as Obj;
    const one = await a.get(`${colA}objects/${inc.id}/`);
    expect(one.body.objects).toEqual([inc]);
    const versions = await a.get(`${colA}objects/${inc.id}/versions/`);
    expect(versions.body).toEqual({ more: false, versions: [inc.modified] });
    const man = await a.get(`${colA}manifest/?limit=10&match[type]=indicator`);
    const entries = (man.body as unknown as { objects: { id: string; media_type: string }[] }).objects;
    expect(entries).toHaveLength(10);
    expect(entries.every((e) => e.id.startsWith('indicator--') && e.media_type === 'application/stix+json;version=2.1')).toBe(
      true,
    );
    // B's incident asked for in A's collection: not there.
    const bInc = incidents((await client(keyB).pull(colB)).objects)[0] as Obj;
    expect((await a.get(`${colA}objects/${bInc.id}/`)).status).toBe(404);
  });

  it('a second pull with added_after gets only what changed; changes during a pull are not lost', async () => {
    const a = client(keyA);
    const ids = (
      await ctx.database.db.execute(sql`SELECT id::int AS id FROM events WHERE company_id = ${A} ORDER BY stix_added, id`)
    ).rows.map((r) => r.id as number);
    const early = ids[10] as number;
    const late = ids[N - 10] as number;
    const touch = (id: number, title: string) =>
      ctx.database.db.execute(sql`UPDATE events SET title = ${title}, updated_at = now() WHERE id = ${id}`);

    // During the pull (of the incidents only, to keep it short): one event already delivered and one
    // not yet change after the first page.
    const first = await a.pull(`${colA}`, {
      limit: 2000,
      types: 'incident',
      between: async (page) => {
        if (page === 1) {
          await touch(early, 'Изменено во время выборки 1');
          await touch(late, 'Изменено во время выборки 2');
        }
      },
    });
    const titles = (id: number) =>
      incidents(first.objects)
        .filter((o) => eventIdOfObj(o) === id)
        .map((o) => (o as unknown as { name: string }).name);
    expect(titles(early)).toEqual(['Домен 11', 'Изменено во время выборки 1']);
    expect(titles(late)).toEqual(['Изменено во время выборки 2']);

    // After the pull: two more change; the next pull from X-TAXII-Date-Added-Last has those two only.
    await touch(ids[100] as number, 'После выборки 1');
    await touch(ids[200] as number, 'После выборки 2');
    const second = await a.pull(colA, { addedAfter: first.last, limit: 5000 });
    expect(second.objects).toHaveLength(2 * PER_EVENT);
    expect(incidents(second.objects).map(eventIdOfObj)).toEqual([ids[100], ids[200]]);
    const third = await a.pull(colA, { addedAfter: second.last });
    expect(third.objects).toEqual([]);

    // A writer whose row is stamped before a later committed one, committing while a page is read:
    // the page waits for it, so the later row never overtakes it behind the client's cursor.
    const slow = new pg.Client({ connectionString: ctx.url });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(`UPDATE events SET title = 'Медленная запись' WHERE id = $1`, [ids[300]]);
      await touch(ids[400] as number, 'Быстрая запись');
      const reading = a.pull(colA, { addedAfter: third.last ?? second.last });
      // The reader is waiting for the open transaction (it polls pg_locks for its xid).
      await eventually(
        async () =>
          (
            await ctx.database.db.execute(
              sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%transactionid::text AS x FROM pg_locks%' AND pid <> pg_backend_pid()`,
            )
          ).rows[0]?.n as number,
        (n) => n > 0,
      );
      await slow.query('COMMIT');
      const got = await reading;
      expect(incidents(got.objects).map(eventIdOfObj)).toEqual([ids[300], ids[400]]);
    } finally {
      await slow.end();
    }
  });

  it('«Мои экспорты» writes a STIX 2.1 bundle of the list’s events; the card menu gives one event’s bundle', async () => {
    const r = await admin.post('/modules/exports', {
      module: 'domains',
      format: 'stix',
      fields: ['title'],
      filters: { company_id: B },
    });
    expect(r.statusCode, r.body).toBe(202);
    const e = await waitFor<ExportItem>(admin, `/modules/exports/${(r.json() as ExportItem).id}`, finished);
    expect(e.status).toBe('done');
    expect(e.file_name).toMatch(/\.stix\.json$/);
    const file = await admin.get(`/modules/exports/${e.id}/download`);
    expect(file.headers['content-type']).toContain('application/stix+json');
    const bundle = file.json() as { type: string; id: string; objects: Obj[] };
    expect(bundle.type).toBe('bundle');
    expect(bundle.id).toMatch(/^bundle--/);
    expect(incidents(bundle.objects)).toHaveLength(50);
    expect(bundle.objects).toHaveLength(HEAD + 50 * PER_EVENT);
    expect(new Set(bundle.objects.map((o) => o.id)).size).toBe(bundle.objects.length);
    // One event from its card.
    const id = eventIdOfObj(incidents(bundle.objects)[0] as Obj);
    const one = await admin.get(`/modules/domains/events/${id}/stix`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-disposition']).toContain(`domains-${id}.stix.json`);
    const single = one.json() as { objects: Obj[] };
    expect(single.objects).toHaveLength(HEAD + PER_EVENT);
    expect(incidents(single.objects)).toEqual(incidents(bundle.objects).filter((o) => eventIdOfObj(o) === id));
    // A's key asks for B's event: like a missing one.
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/modules/domains/events/${id}/stix`,
          headers: { authorization: `Bearer ${keyA}` },
        })
      ).statusCode,
    ).toBe(404);
  });
});
