/*
 * Protected identities of leak hunting (#34): exact logins, login patterns and provider folding, kept as
 * discovery assets of a company (API, Russian refusals, audit, tenant scope), and fed by the hunts repo to the
 * matcher for every company at once — a login or a pattern of company A matches only A; folding on and off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHuntsRepo } from '../src/modules/hunts/hunts.repo';
import { type HuntMatch, HuntMatcher, huntKey } from '../src/modules/hunts/index';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let alpha: number;
let beta: number;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  alpha = (await createCompany(ctx, 'Альфа')).id;
  beta = (await createCompany(ctx, 'Бета')).id;
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
}, 60_000);

const add = (companyId: number, kind: string, value: string) => admin.post(`/companies/${companyId}/assets`, { kind, value });

/** What a hunt range does: the repo's identities of all companies into one matcher, the dump through it. */
async function hunt(dump: string): Promise<HuntMatch[]> {
  const found: HuntMatch[] = [];
  const m = new HuntMatcher(await createHuntsRepo(ctx.database.db).identities(), {
    key: huntKey('test-secret'),
    onMatch: (x) => found.push(x),
  });
  m.feed(Buffer.from(dump));
  m.end();
  return found;
}
const who = (ms: HuntMatch[]) => ms.map((m) => [m.login, m.companyId, m.via.join('+')]);

describe('identities as assets', () => {
  it('stores an exact login, an email (IDN domain as punycode), a pattern and folding; audits each', async () => {
    const login = await add(alpha, 'login', ' CEO.Alpha ');
    expect(login.statusCode, login.body).toBe(201);
    expect(login.json()).toMatchObject({ kind: 'login', value: 'ceo.alpha' });
    const mail = await add(alpha, 'login', 'Boss@Пример.рф');
    expect(mail.json()).toMatchObject({ value: 'boss@xn--e1afmkfd.xn--p1ai', unicode: 'boss@пример.рф' });
    expect((await add(beta, 'login_pattern', 'CID-######')).json()).toMatchObject({ value: 'cid-######' });
    expect((await add(alpha, 'login_fold', 'providers')).statusCode).toBe(201);
    const audit = await ctx.database.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'discovery_asset.create' AND company_id = ANY($1)`,
      [[alpha, beta]],
    );
    expect(audit.rows[0].n).toBe(4);
  });

  it('refuses unsafe or meaningless patterns and bad logins with Russian errors', async () => {
    for (const bad of ['(a+)+$', '*', 'a*b*c*d', 'ab', 'x'.repeat(65), 'a**bc', 'cid[0-9]']) {
      const r = await add(alpha, 'login_pattern', bad);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().message, bad).toMatch(/^Шаблон логина/);
    }
    for (const bad of ['a b', 'x:y', 'a@', 'a@not a domain', 'x'.repeat(129)]) {
      const r = await add(alpha, 'login', bad);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().message, bad).toMatch(/^Укажите логин/);
    }
    expect((await add(alpha, 'login_fold', 'everything')).statusCode).toBe(400);
    expect((await add(alpha, 'login', 'ceo.alpha')).statusCode).toBe(409);
  });

  it('a company user of A cannot see or change the identities of B', async () => {
    await createUser(ctx, { email: 'a-admin@ids.test', role: 'COMPANY_USER', companies: [{ id: alpha, role: 'COMPANY_ADMIN' }] });
    const c = new Client(ctx);
    await c.login('a-admin@ids.test', ADMIN.password);
    expect((await c.get(`/companies/${beta}/assets?kind=login_pattern`)).statusCode).toBe(404);
    expect((await c.post(`/companies/${beta}/assets`, { kind: 'login', value: 'x1' })).statusCode).toBe(404);
    const mine = await c.get(`/companies/${alpha}/assets?kind=login`);
    expect(mine.statusCode).toBe(200);
    expect(
      mine
        .json()
        .items.map((a: { value: string }) => a.value)
        .sort(),
    ).toEqual(['boss@xn--e1afmkfd.xn--p1ai', 'ceo.alpha']);
  });
});

describe('the hunt matches them, one matcher for all companies', () => {
  it('an exact login and a pattern of company A match only A', async () => {
    const found = await hunt(
      [
        'CEO.Alpha:pw1',
        'Boss@xn--e1afmkfd.xn--p1ai:pw2',
        'cid-123456:pw3',
        'cid-12345:pw4',
        'cid-1234567:pw5',
        'other:pw6',
        '',
      ].join('\n'),
    );
    expect(who(found)).toEqual([
      ['CEO.Alpha', alpha, 'login'],
      ['Boss@xn--e1afmkfd.xn--p1ai', alpha, 'login'],
      ['cid-123456', beta, 'pattern'],
    ]);
  });

  it('folding on: a +tag and Gmail dots of an exact email match; off (asset disabled): they do not', async () => {
    expect((await add(alpha, 'login', 'ceo.alpha@gmail.com')).statusCode).toBe(201);
    const dump = ['ceoalpha+leak@gmail.com:pw', 'c.e.o.alpha@gmail.com:pw', 'ceo.alpha+x@yandex.ru:pw', ''].join('\n');
    const on = await hunt(dump);
    expect(who(on)).toEqual([
      ['ceoalpha+leak@gmail.com', alpha, 'login'],
      ['c.e.o.alpha@gmail.com', alpha, 'login'],
    ]);
    const fold = (await admin.get(`/companies/${alpha}/assets?kind=login_fold`)).json().items[0] as { id: number };
    expect((await admin.patch(`/companies/${alpha}/assets/${fold.id}`, { enabled: false })).statusCode).toBe(200);
    expect(await hunt(dump)).toEqual([]);
    expect(who(await hunt('ceo.alpha@gmail.com:pw\n'))).toEqual([['ceo.alpha@gmail.com', alpha, 'login']]);
  });

  it('a pathological login against the pattern stays fast (the language cannot backtrack badly)', async () => {
    expect((await add(beta, 'login_pattern', '*a*aa')).statusCode).toBe(201);
    const evil = `${'a'.repeat(60_000)}b:pw\n`.repeat(20);
    const t = performance.now();
    expect(await hunt(evil)).toEqual([]);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});
