/*
 * Hunts (#34) on real PostgreSQL: a mixed dump in the document store matched against every company's domain
 * assets, range jobs run by pg-boss, results as «Аккаунты» events; a second dump links its leak to the
 * existing event; a range whose worker died mid-way is run again with exactly-once results; bad input fails the
 * hunt with a Russian error; the known passwords are nowhere in the database, the job table or the logs.
 */
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { HuntItem } from '@forpost/contract/hunts';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { createDocStore } from '../src/lib/docstore';
import { HUNT_INPUT_MSG } from '../src/modules/hunts/index';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { upload } from './imports-kit';

let ctx: TestContext;
let boss: PgBoss;
const logs: string[] = [];
let alpha: number;
let beta: number;
let gamma: number;
let leak1: number;
let leak2: number;
let leak3: number;

/** Passwords the dumps hold: none may be stored anywhere. */
const SECRETS = ['Secr3tPassw0rd!', 'VpnPa55word#x', 'Anna-P4ss-XY', 'Bl0ck-Secret-77', 'Gamma#Pass-2026', 'zz-Second-Dump-9'];

const sql = async <T>(text: string, values: unknown[] = []) => (await ctx.database.pool.query(text, values)).rows as T[];

/** Filler lines nobody protects: the dump spans several 1 MB ranges. */
const filler = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `user${tag}${i}@mail.example.org:pw${i}xyz`).join('\n');

function dump1(): string {
  const parts = [
    '\ufeffivan@alpha.ru:Secr3tPassw0rd!',
    filler(20_000, 'a'),
    'https://vpn.beta.com:443/login:someone@gmail.com:VpnPa55word#x',
    'petr@mail.alpha.ru;5f4dcc3b5aa765d61d8327deb882cf99',
    filler(20_000, 'b'),
    'anna@beta.com|Anna-P4ss-XY\r',
    'URL: https://sso.alpha.ru/auth',
    'Username: k.ivanova',
    'Password: Bl0ck-Secret-77',
    '',
    '@@@ ### not a credential line',
    filler(20_000, 'c'),
    'IVAN@ALPHA.RU:Secr3tPassw0rd!',
    'boss@gamma.org:Gamma#Pass-2026',
  ];
  return `${parts.join('\n')}\n`;
}

async function put(content: Buffer | string): Promise<string> {
  const store = createDocStore(ctx.config);
  return (await store.put(Readable.from([Buffer.from(content)]))).key;
}

const hunts = () => ctx.app.services.hunts.service;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timeout: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finished = (id: number) =>
  until(`hunt ${id} finished`, async () => {
    const h = await hunts().hunt(id);
    return h && (h.status === 'done' || h.status === 'failed') ? h : undefined;
  });

beforeAll(async () => {
  ctx = await setupApp({ LOG_LEVEL: 'debug' }, { level: 'debug', stream: { write: (l: string) => void logs.push(l) } });
  await createUser(ctx, { email: ADMIN.email });
  alpha = (await createCompany(ctx, 'Альфа')).id;
  beta = (await createCompany(ctx, 'Бета')).id;
  gamma = (await createCompany(ctx, 'Гамма')).id;
  await createUser(ctx, { email: 'member@alpha.test', role: 'COMPANY_USER', companies: [{ id: alpha, role: 'COMPANY_VIEWER' }] });
  await sql(
    `INSERT INTO discovery_assets (company_id, kind, value, unicode) VALUES ($1, 'domain', 'alpha.ru', 'alpha.ru'),
       ($2, 'domain', 'beta.com', 'beta.com'), ($3, 'domain', 'gamma.org', 'gamma.org')`,
    [alpha, beta, gamma],
  );
  [leak1, leak2, leak3] = (
    await sql<{ id: number }>(
      `INSERT INTO leaks (name, leaked_at) VALUES ('Комбо-лист 1', '2026-01-01'), ('Комбо-лист 2', NULL), ('Стилер 3', NULL) RETURNING id`,
    )
  ).map((r) => r.id) as [number, number, number];
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.hunts.attach(boss, { work: true });
}, 60_000);
afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
});

const accounts = (companyId: number) =>
  sql<{ id: string; login: string; leak_name: string }>(
    `SELECT id, data->>'login' AS login, data->>'leak_name' AS leak_name FROM events
      WHERE module = 'accounts' AND company_id = $1 ORDER BY lower(data->>'login')`,
    [companyId],
  );

describe('a hunt over a mixed dump', () => {
  let huntId: number;
  it('finds each company its accounts, through range jobs, once each', async () => {
    const key = await put(dump1());
    const { id, rangeIds } = await hunts().create({
      leakId: leak1,
      docKey: key,
      fileName: 'dump1.txt',
      createdBy: null,
      rangeBytes: 1 << 20,
    });
    huntId = id;
    expect(rangeIds.length).toBeGreaterThan(1);
    const h = await finished(id);
    expect(h.status, h.error ?? '').toBe('done');
    expect((await accounts(alpha)).map((a) => a.login.toLowerCase())).toEqual([
      'ivan@alpha.ru',
      'k.ivanova',
      'petr@mail.alpha.ru',
    ]);
    expect((await accounts(beta)).map((a) => a.login)).toEqual(['anna@beta.com', 'someone@gmail.com']);
    expect((await accounts(gamma)).map((a) => a.login)).toEqual(['boss@gamma.org']);
    const s = await hunts().summary(id, null);
    expect(s.progress.lines).toBe(60_000 + 11); // every line read, the blank one too
    expect(s.progress.parsed).toBe(s.progress.lines); // a small dump is parsed line by line
    expect(s.progress.bytes).toBe(Buffer.byteLength(dump1()));
    expect(s.progress.unrecognized).toBeGreaterThanOrEqual(1);
    expect(s.companies.map((c) => [c.company_id, c.found, c.fresh, c.corporate])).toEqual([
      [alpha, 3, 3, 1],
      [beta, 2, 2, 1],
      [gamma, 1, 1, 0],
    ]);
    // tenant scope of the summary: a company sees its own row only
    expect((await hunts().summary(id, [beta])).companies.map((c) => c.company_id)).toEqual([beta]);
    const [v] = await sql<{ masked: string; hmac: string; strength: string }>(
      `SELECT masked, hmac, strength FROM hunt_results WHERE hunt_id = $1 AND login = 'ivan@alpha.ru'`,
      [id],
    );
    expect(v).toMatchObject({ masked: 'S*************!', strength: 'strong' });
    // the bell of the company's member
    const bell = await sql<{ text: string }>(`SELECT text FROM notifications WHERE kind = 'hunt' AND company_id = $1`, [alpha]);
    expect(bell.map((b) => b.text)).toEqual(['Поиск утечек: новые скомпрометированные учётные записи — 3']);
  }, 40_000);

  it('a later dump with the same login links its leak to the existing event (no new event)', async () => {
    const before = await accounts(alpha);
    const key = await put('ivan@alpha.ru:zz-Second-Dump-9\nnew.one@alpha.ru:zz-Second-Dump-9\n');
    const { id } = await hunts().create({ leakId: leak2, docKey: key, fileName: 'dump2.txt', createdBy: null });
    expect((await finished(id)).status).toBe('done');
    const after = await accounts(alpha);
    expect(after.map((a) => a.login.toLowerCase())).toEqual([
      'ivan@alpha.ru',
      'k.ivanova',
      'new.one@alpha.ru',
      'petr@mail.alpha.ru',
    ]);
    const ivan = before.find((a) => a.login.toLowerCase() === 'ivan@alpha.ru')!;
    const linked = await sql<{ leak_id: number }>(`SELECT leak_id FROM account_leaks WHERE event_id = $1 ORDER BY leak_id`, [
      ivan.id,
    ]);
    expect(linked.map((l) => l.leak_id)).toEqual([leak1, leak2]);
    const s = await hunts().summary(id, null);
    expect(s.companies.map((c) => [c.company_id, c.found, c.fresh])).toEqual([[alpha, 2, 1]]);
    // the same password seen in both: equal HMACs
    const h = await sql<{ hmac: string }>(`SELECT DISTINCT hmac FROM hunt_results WHERE hunt_id = $1`, [id]);
    expect(h).toHaveLength(1);
    void huntId;
  }, 30_000);

  it('through the grep prefilter the same dump gives the same accounts and counts', async () => {
    const first = await hunts().summary(huntId, null);
    const key = await put(dump1());
    process.env.HUNT_PREFILTER = 'always';
    try {
      // one range read by grep from the disk (the local store's default), and ranges streamed through Node
      for (const rangeBytes of [undefined, 1 << 20]) {
        const { id, rangeIds } = await hunts().create({
          leakId: leak1,
          docKey: key,
          fileName: 'dump1-grep.txt',
          createdBy: null,
          rangeBytes,
        });
        expect(rangeIds.length > 1).toBe(rangeBytes !== undefined);
        expect((await finished(id)).status).toBe('done');
        const s = await hunts().summary(id, null);
        expect(s.progress.lines).toBe(first.progress.lines);
        expect(s.progress.bytes).toBe(first.progress.bytes);
        // ranges are at least 1 MB (splitRanges): a 512 KB sample window in each, so unrecognised is an estimate
        expect(s.progress.parsed).toBeGreaterThan(0);
        expect(s.progress.parsed).toBeLessThan(s.progress.lines);
        expect(s.companies.map((c) => [c.company_id, c.found, c.corporate])).toEqual(
          first.companies.map((c) => [c.company_id, c.found, c.corporate]),
        );
      }
    } finally {
      delete process.env.HUNT_PREFILTER;
    }
  }, 30_000);
});

describe('a worker dies mid-range', () => {
  it('the range run again gives every result exactly once', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `emp${i}@gamma.org:Gamma#Pass-2026`);
    const key = await put(`${lines.join('\n')}\n`);
    // queued without a job (no boss send): run by hand like the takeover job would
    const svc = hunts();
    const { id, rangeIds } = await svc.create({ leakId: leak3, docKey: key, fileName: 'kill.txt', createdBy: null });
    await sql(`DELETE FROM pgboss.job WHERE name = 'hunt-range' AND data->>'id' = ANY($1::text[])`, [rangeIds.map(String)]);
    const [rangeId] = rangeIds as [number];
    await expect(
      svc.runRange(rangeId, {
        batch: 7,
        afterBatch: () => {
          throw new Error('worker killed');
        },
      }),
    ).rejects.toThrow('worker killed');
    const mid = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM hunt_results WHERE hunt_id = $1`, [id]);
    expect(mid[0]!.n).toBeGreaterThan(0);
    expect(mid[0]!.n).toBeLessThan(40);
    const [r] = await sql<{ status: string }>(`SELECT status FROM hunt_ranges WHERE id = $1`, [rangeId]);
    expect(r!.status).toBe('running');
    // the takeover sweep sends the stalled range (heartbeat past the takeover time, no lock) to the queue
    await sql(
      `UPDATE hunt_ranges SET heartbeat_at = now() - interval '1 minute', updated_at = now() - interval '1 minute' WHERE id = $1`,
      [rangeId],
    );
    expect(await ctx.app.services.hunts.sweep(boss)).toBe(1);
    const h = await finished(id);
    expect(h.status).toBe('done');
    const n = await sql<{ n: number; d: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT login)::int AS d FROM hunt_results WHERE hunt_id = $1`,
      [id],
    );
    expect(n[0]).toEqual({ n: 40, d: 40 });
    const s = await svc.summary(id, null);
    expect(s.progress.lines).toBe(40);
    expect(s.companies).toEqual([expect.objectContaining({ company_id: gamma, found: 40, fresh: 40 })]);
    const [att] = await sql<{ attempts: number }>(`SELECT attempts FROM hunt_ranges WHERE id = $1`, [rangeId]);
    expect(att!.attempts).toBe(2);
    expect((await accounts(gamma)).length).toBe(41);
  }, 40_000);
});

describe('bad input', () => {
  const cases: [string, () => Buffer, string][] = [
    ['UTF-16', () => Buffer.from(`\ufeffivan@alpha.ru:Secr3tPassw0rd!\n`.repeat(50), 'utf16le'), HUNT_INPUT_MSG.utf16],
    ['a truncated gzip', () => gzipSync(Buffer.from(filler(5000, 'g'))).subarray(0, 2000), HUNT_INPUT_MSG.truncated],
    ['a binary file', () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)), HUNT_INPUT_MSG.binary],
  ];
  for (const [what, bytes, message] of cases)
    it(`${what}: the hunt fails with «${message.slice(0, 30)}…», nothing written`, async () => {
      const { id } = await hunts().create({ leakId: leak3, docKey: await put(bytes()), fileName: 'bad', createdBy: null });
      const h = await finished(id);
      expect(h).toMatchObject({ status: 'failed', error: message });
      expect(await sql(`SELECT 1 FROM hunt_results WHERE hunt_id = $1`, [id])).toEqual([]);
      expect(
        (await sql<{ status: string }>(`SELECT DISTINCT status FROM hunt_ranges WHERE hunt_id = $1`, [id])).map((r) => r.status),
      ).toEqual(['failed']);
    });
});

describe('the API: staff admins only', () => {
  it('an admin uploads a dump and follows the hunt to its summary; others are refused or see 404', async () => {
    const admin = new Client(ctx);
    await admin.login(ADMIN.email, ADMIN.password);
    const up = await upload(ctx, admin, `/hunts/upload?leak_id=${leak3}`, {
      name: 'api.txt',
      content: 'api.user@beta.com:zz-Second-Dump-9\nnobody@example.org:x\n',
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = (up.json() as HuntItem).id;
    await finished(id);
    const item = (await admin.get(`/hunts/${id}`)).json() as HuntItem;
    expect(item).toMatchObject({ status: 'done', leak_name: 'Стилер 3', file_name: 'api.txt' });
    expect(item.progress).toMatchObject({ lines: 2, ranges: 1, ranges_done: 1, eta_seconds: null });
    expect(item.companies).toEqual([{ company_id: beta, company_name: 'Бета', found: 1, new: 1, corporate_urls: 0 }]);
    expect((await admin.get('/hunts/999999')).statusCode).toBe(404);
    const bad = await admin.post('/hunts', { leak_id: leak3, object_key: 'no/such/object' });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ message: 'Файл дампа не найден в хранилище' });
    for (const [email, role] of [
      ['analyst@hunts.test', 'ANALYST'],
      ['cu@hunts.test', 'COMPANY_USER'],
    ] as const) {
      await createUser(ctx, {
        email,
        role,
        companies: role === 'COMPANY_USER' ? [{ id: beta, role: 'COMPANY_ADMIN' }] : undefined,
      });
      const c = new Client(ctx);
      await c.login(email, ADMIN.password);
      expect((await c.get(`/hunts/${id}`)).statusCode, role).toBe(403);
      expect((await c.get('/hunts')).statusCode, role).toBe(403);
    }
  });
});

describe('no plaintext password anywhere', () => {
  it('not in any column of any table (public and pg-boss), nor in the logs', async () => {
    const tables = await sql<{ s: string; t: string }>(
      `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
        WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
    );
    expect(tables.some((t) => t.s === 'pgboss' && t.t === 'job')).toBe(true);
    const found: string[] = [];
    for (const { s, t } of tables) {
      const rows = await sql<{ x: string }>(
        `SELECT x::text AS x FROM "${s}"."${t}" x WHERE ${SECRETS.map((_, i) => `strpos(x::text, $${i + 1}) > 0`).join(' OR ')}`,
        SECRETS,
      );
      for (const r of rows) found.push(`${s}.${t}: ${r.x.slice(0, 200)}`);
    }
    expect(found).toEqual([]);
    // the job table did carry this file's jobs (so the check is not vacuous)
    expect((await sql(`SELECT 1 FROM pgboss.job WHERE name = 'hunt-range'`)).length).toBeGreaterThan(0);
    const text = logs.join('\n');
    expect(logs.filter((l) => l.includes('hunt range done')).length).toBeGreaterThan(3);
    expect(logs.some((l) => l.includes('hunt refused its input'))).toBe(true);
    for (const p of SECRETS) expect(text.includes(p), p).toBe(false);
  });
});
