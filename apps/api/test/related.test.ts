/*
 * Related events: other events sharing an indicator (IP, domain, registrar, INN/OGRN, BIN, e-mail,
 * phone, account) across modules and companies — never beyond the caller's companies or a key's
 * modules — the list's `indicator` filter, and the backfill of events older than the column.
 */
import { indicatorsOf, MODULE_LIST, MODULES } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillIndicators } from '../src/modules/events/backfill/indicators-backfill';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let aUser: Client;
let A: { id: number };
let B: { id: number };

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  aUser = await signedIn(ctx, 'a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
});

const create = async (code: keyof typeof MODULES, company: number, body: Record<string, unknown>) => {
  const r = await admin.post(`/modules/${code}/events`, { company_id: company, ...body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number };
};

type Related = {
  items: {
    indicator: string;
    kind: string;
    label: string;
    total: number;
    total_capped: boolean;
    modules: { module: string; count: number }[];
    items: { id: number; module: string; company_id: number }[];
  }[];
};

describe('indicators of an event (contract rule)', () => {
  it('come from the fields by type and by the descriptor, in normal form', () => {
    expect(
      indicatorsOf(MODULES.domains, {
        domain: 'Пример.РФ',
        ip: '185.1.2.3',
        registrar: 'REG.RU  LLC',
        url: 'https://www.пример.рф/login',
      }),
    ).toEqual(['domain:xn--e1afmkfd.xn--p1ai', 'ip:185.1.2.3', 'registrar:reg.ru llc']);
    expect(indicatorsOf(MODULES.accounts, { login: '@Ivan', email: 'Ivan@Mail.RU', phone: '8 (999) 123-45-67' })).toEqual([
      'account:ivan',
      'email:ivan@mail.ru',
      'phone:79991234567',
    ]);
    // Platform URLs name the platform, not an actor: no indicator.
    expect(indicatorsOf(MODULES.brand, { url: 'https://t.me/fake_bank' })).toEqual([]);
    // A host field holds a domain or an IP.
    expect(indicatorsOf(MODULES.services, { host: '10.0.0.5' })).toContain('ip:10.0.0.5');
    // Every module's sample gives its indicators without throwing; most modules have some.
    const withSome = MODULE_LIST.filter((m) => indicatorsOf(m, m.sample(1)).length > 0);
    expect(withSome.length).toBeGreaterThan(MODULE_LIST.length / 2);
  });
});

describe('GET …/events/{id}/related', () => {
  let dom: { id: number };
  let svc: { id: number };
  let atk: { id: number };
  let domB: { id: number };
  let firm: { id: number };
  let merchant: { id: number };

  beforeAll(async () => {
    dom = await create('domains', A.id, { domain: 'sber-bonus-rel.ru', ip: '185.77.1.1', registrar: 'REG.RU' });
    // The same IP in two other modules of A (a host field and an attack source), and in company B.
    svc = await create('services', A.id, { ...MODULES.services.sample(1), host: '185.77.1.1' });
    atk = await create('networkattacks', A.id, { ...MODULES.networkattacks.sample(1), source_ip: '185.77.1.1' });
    domB = await create('domains', B.id, { domain: 'sber-bonus-rel-b.ru', ip: '185.77.1.1' });
    // The same INN in firms and merchant.
    firm = await create('firms', A.id, { ...MODULES.firms.sample(3), inn: '7707083893' });
    merchant = await create('merchant', A.id, { ...MODULES.merchant.sample(3), inn: '7707083893' });
  });

  it('lists other events sharing each indicator across modules and companies, counted by module', async () => {
    const r = await admin.get(`/modules/domains/events/${dom.id}/related`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as Related;
    const ip = body.items.find((i) => i.indicator === 'ip:185.77.1.1');
    expect(ip?.label).toBe('IP-адрес');
    expect(ip?.total).toBe(3);
    expect(ip?.items.map((i) => i.id).sort()).toEqual([svc.id, atk.id, domB.id].sort());
    expect(Object.fromEntries(ip?.modules.map((m) => [m.module, m.count]) ?? [])).toEqual({
      services: 1,
      networkattacks: 1,
      domains: 1,
    });
    // The event itself is never its own relative.
    expect(body.items.flatMap((i) => i.items.map((x) => x.id))).not.toContain(dom.id);
    const f = (await admin.get(`/modules/firms/events/${firm.id}/related`)).json() as Related;
    expect(f.items.find((i) => i.kind === 'inn')?.items.map((i) => i.id)).toEqual([merchant.id]);
  });

  it('never reaches a company the user cannot see', async () => {
    const r = await aUser.get(`/modules/domains/events/${dom.id}/related`);
    expect(r.statusCode).toBe(200);
    const ip = (r.json() as Related).items.find((i) => i.indicator === 'ip:185.77.1.1');
    expect(ip?.total).toBe(2);
    expect(ip?.items.every((i) => i.company_id === A.id)).toBe(true);
    // B's event itself: not found for A's user.
    expect((await aUser.get(`/modules/domains/events/${domB.id}/related`)).statusCode).toBe(404);
  });

  it('a company key sees its company and only its modules', async () => {
    const k = await admin.post('/apikeys', {
      name: 'Домены А',
      company_id: A.id,
      roles: [{ module: 'domains', access: 'read' }],
    });
    expect(k.statusCode, k.body).toBe(201);
    const h = { authorization: `Bearer ${k.json().secret}` };
    const r = await new Client(ctx).get(`/modules/domains/events/${dom.id}/related`, h);
    expect(r.statusCode, r.body).toBe(200);
    // services/networkattacks are outside the key's modules, B is outside its company.
    expect((r.json() as Related).items.find((i) => i.indicator === 'ip:185.77.1.1')).toBeUndefined();
    expect((await new Client(ctx).get(`/modules/services/events/${svc.id}/related`, h)).statusCode).toBe(403);
  });

  it('the list filters by an indicator (normalised), within its scope', async () => {
    const r = await admin.get('/modules/domains/events?indicator=ip:185.77.1.1');
    expect(r.statusCode, r.body).toBe(200);
    expect(
      r
        .json()
        .items.map((i: { id: number }) => i.id)
        .sort(),
    ).toEqual([dom.id, domB.id].sort());
    const mine = await aUser.get('/modules/domains/events?indicator=ip:185.77.1.1');
    expect(mine.json().items.map((i: { id: number }) => i.id)).toEqual([dom.id]);
    const bad = await admin.get('/modules/domains/events?indicator=colour:red');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
  });

  it('a change of the module data recomputes the indicators', async () => {
    const p = await admin.patch(`/modules/services/events/${svc.id}`, { host: '185.77.2.2' });
    expect(p.statusCode, p.body).toBe(200);
    const ip = ((await admin.get(`/modules/domains/events/${dom.id}/related`)).json() as Related).items.find(
      (i) => i.indicator === 'ip:185.77.1.1',
    );
    expect(ip?.items.map((i) => i.id)).not.toContain(svc.id);
    expect((await admin.get('/modules/services/events?indicator=ip:185.77.2.2')).json().total).toBe(1);
  });

  it('an event without indicators has no related events', async () => {
    const media = await create('media', A.id, { ...MODULES.media.sample(9), url: 'https://t.me/news/9' });
    const r = await admin.get(`/modules/media/events/${media.id}/related`);
    expect(r.statusCode).toBe(200);
    expect(r.json().items.every((i: { kind: string }) => i.kind !== 'domain')).toBe(true);
  });
});

describe('backfill of events older than the indicators column', () => {
  it('fills NULL indicators by the same rule and leaves none behind', async () => {
    const e = await create('domains', A.id, { domain: 'old-event.ru', ip: '203.0.113.9' });
    await ctx.database.db.execute(sql`UPDATE events SET indicators = NULL WHERE id = ${e.id}`);
    expect((await admin.get('/modules/domains/events?indicator=ip:203.0.113.9')).json().total).toBe(0);
    let filled = 0;
    for (let n = await fillIndicators(ctx.database.db, 2); n > 0; n = await fillIndicators(ctx.database.db, 2)) filled += n;
    expect(filled).toBe(1);
    expect((await admin.get('/modules/domains/events?indicator=ip:203.0.113.9')).json().total).toBe(1);
  });
});
