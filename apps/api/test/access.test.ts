import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_KEY_MSG } from '@forpost/contract/companies';
import { COMPANY_ROLES, can, type Permission, type Principal, type USER_ROLES } from '@forpost/contract/permissions';
import { USER_MSG } from '@forpost/contract/users';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, productKeys } from '../src/db/schema/index';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let A: { id: number };
let B: { id: number };
const PW = ADMIN.password;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
});

async function as(email: string) {
  const c = new Client(ctx);
  await c.login(email, PW);
  return c;
}
let seq = 0;
async function userWith(
  role: (typeof USER_ROLES)[number],
  companies: { id: number; role: (typeof COMPANY_ROLES)[number] }[] = [],
) {
  const email = `${role.toLowerCase()}-${++seq}@forpost.test`;
  const u = await createUser(ctx, { email, role, companies });
  return { u, c: await as(email) };
}

describe('authorization matrix', () => {
  it('every /api route declares a permission: snapshot for review', async () => {
    const table = [...ctx.app.routeTable]
      .map((r) => `${r.method.padEnd(6)} ${r.url}  →  ${r.permission}`)
      .sort()
      .join('\n');
    await expect(`${table}\n`).toMatchFileSnapshot('./__snapshots__/route-permissions.txt');
    expect(ctx.app.routeTable.every((r) => r.permission)).toBe(true);
  });

  it('walks every route × every role: denied → 403, allowed → never 401/403; allowed plain GET lists → 200', async () => {
    const principals: { name: string; principal: Principal; client: Client }[] = [];
    for (const role of ['SUPER_ADMIN', 'ADMIN', 'ANALYST', 'VIEWER'] as const) {
      const { c } = await userWith(role);
      principals.push({ name: role, principal: { role, memberships: [] }, client: c });
    }
    for (const cr of COMPANY_ROLES) {
      const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: cr }]);
      principals.push({
        name: cr,
        principal: { role: 'COMPANY_USER', memberships: [{ company_id: A.id, role: cr }] },
        client: c,
      });
    }
    const failures: string[] = [];
    for (const r of ctx.app.routeTable) {
      if (r.permission === 'public') continue;
      // Skip routes that end the caller's own session, so the walk keeps its sessions.
      if (/\/me\/sessions|\/auth\/logout/.test(r.url)) continue;
      const url = r.url.replace(/:(\w+)/g, (_, name: string) =>
        name === 'id' && r.url.startsWith('/api/v1/companies') ? String(A.id) : '999999',
      );
      for (const p of principals) {
        // Signed-in users pass `session` routes too (only API keys are refused there).
        const allowed =
          r.permission === 'authenticated' || r.permission === 'session' || can(p.principal, r.permission as Permission);
        const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
        const res = await p.client.req(r.method as 'GET', url, body);
        if (!allowed && res.statusCode !== 403)
          failures.push(`${p.name} ${r.method} ${url}: expected 403, got ${res.statusCode}`);
        if (allowed && (res.statusCode === 401 || res.statusCode === 403))
          failures.push(`${p.name} ${r.method} ${url}: allowed but ${res.statusCode}`);
        if (allowed && r.method === 'GET' && !url.includes('999999') && !url.includes(':') && res.statusCode >= 500)
          failures.push(`${p.name} ${r.method} ${url}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('an API key reaches only what its roles allow', async () => {
    const admin = await as(ADMIN.email);
    const key = (
      await admin.post('/apikeys', { name: 'Только чтение', company_id: A.id, roles: [{ module: '*', access: 'read' }] })
    ).json();
    const bearer = { authorization: `Bearer ${key.secret}` };
    const anon = new Client(ctx);
    expect((await anon.get(`/companies/${A.id}`, bearer)).statusCode).toBe(200);
    expect((await anon.get(`/companies/${B.id}`, bearer)).statusCode).toBe(404);
    expect((await anon.get('/users', bearer)).statusCode).toBe(403);
    expect((await anon.post('/companies', { name: 'X' }, bearer)).statusCode).toBe(403);
    const list = (await anon.get('/companies', bearer)).json();
    expect(list.items.map((c: { id: number }) => c.id)).toEqual([A.id]);
  });
});

describe('companies', () => {
  it('create, duplicate name refused, edit, members, deactivate suspends users and keys, reactivate restores', async () => {
    const admin = await as(ADMIN.email);
    const created = await admin.post('/companies', { name: 'Гамма', inn: '7707083893', modules: ['domains'] });
    expect(created.statusCode).toBe(201);
    const g = created.json();
    const dup = await admin.post('/companies', { name: 'гамма' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Компания с таким названием уже существует');
    expect((await admin.post('/companies', { name: 'Дельта', inn: '1234567890' })).json().data.fields.inn).toBeTruthy();

    const { u, c } = await userWith('COMPANY_USER', [{ id: g.id, role: 'COMPANY_ADMIN' }]);
    expect((await c.get(`/companies/${g.id}`)).statusCode).toBe(200);
    const key = (
      await c.post('/apikeys', { name: 'Ключ Гаммы', company_id: g.id, roles: [{ module: '*', access: 'read' }] })
    ).json();
    const bearer = { authorization: `Bearer ${key.secret}` };
    expect((await new Client(ctx).get(`/companies/${g.id}`, bearer)).statusCode).toBe(200);
    const members = (await admin.get(`/companies/${g.id}`)).json().members;
    expect(members.map((m: { user_id: number }) => m.user_id)).toContain(u.id);

    expect((await admin.patch(`/companies/${g.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await c.get(`/companies/${g.id}`)).statusCode).toBe(403);
    expect((await c.get('/me')).json().companies).toEqual([]);
    expect((await new Client(ctx).get(`/companies/${g.id}`, bearer)).statusCode).toBe(401);

    expect((await admin.patch(`/companies/${g.id}`, { is_active: true })).statusCode).toBe(200);
    expect((await c.get(`/companies/${g.id}`)).statusCode).toBe(200);
    expect((await new Client(ctx).get(`/companies/${g.id}`, bearer)).statusCode).toBe(200);

    expect((await admin.del(`/companies/${g.id}`)).statusCode).toBe(409);
    const audit = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(g.id)));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['company.create', 'company.deactivate', 'company.activate']),
    );
  });
});

describe('users', () => {
  it('create with a generated password shown once, or an invitation by email', async () => {
    const admin = await as(ADMIN.email);
    const r = await admin.post('/users', { email: 'new.analyst@forpost.test', name: 'Аналитик', role: 'ANALYST' });
    expect(r.statusCode).toBe(201);
    const pw = r.json().generated_password;
    expect(pw.length).toBeGreaterThanOrEqual(16);
    await new Client(ctx).login('new.analyst@forpost.test', pw);
    expect((await admin.get(`/users/${r.json().id}`)).json()).not.toHaveProperty('generated_password');

    const inv = await admin.post('/users', {
      email: 'invited@forpost.test',
      name: 'Приглашённый',
      role: 'COMPANY_USER',
      companies: [{ company_id: A.id, role: 'COMPANY_VIEWER' }],
      password_mode: 'invite',
    });
    expect(inv.statusCode).toBe(201);
    expect(inv.json().invite_sent).toBe(true);
    const mails = readdirSync(path.join(ctx.config.dataDir, 'mail'));
    const text = readFileSync(path.join(ctx.config.dataDir, 'mail', mails[mails.length - 1] as string), 'utf8');
    expect(text).toContain('invited@forpost.test');
  });

  it('refuses duplicates, unknown roles, and admin changes by non-super-admins', async () => {
    const admin = await as(ADMIN.email);
    const dup = await admin.post('/users', { email: ADMIN.email.toUpperCase(), name: 'X', role: 'VIEWER' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(USER_MSG.emailTaken);
    const badRole = await admin.post('/users', { email: 'r@forpost.test', name: 'X', role: 'GOD' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().data.fields.role).toBe('Неизвестная роль');
    const { c: adm } = await userWith('ADMIN');
    const r = await adm.post('/users', { email: 'a2@forpost.test', name: 'X', role: 'ADMIN' });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe(USER_MSG.onlySuperAdmin);
  });

  it('the last SUPER_ADMIN cannot be deleted or demoted; nobody removes their own admin role', async () => {
    const admin = await as(ADMIN.email);
    const me = (await admin.get('/me')).json();
    expect((await admin.patch(`/users/${me.id}`, { role: 'VIEWER' })).json().message).toMatch(/суперадминистратора|Нельзя снять/);
    expect((await admin.del(`/users/${me.id}`)).json().message).toBe(USER_MSG.selfDelete);
    const { u: other } = await userWith('SUPER_ADMIN');
    expect((await admin.del(`/users/${other.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/users/${me.id}`)).json().role).toBe('SUPER_ADMIN');
  });

  it('a company admin manages only users of their own companies', async () => {
    const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    const own = await c.post('/users', {
      email: 'a-member@forpost.test',
      name: 'Сотрудник А',
      role: 'COMPANY_USER',
      companies: [{ company_id: A.id, role: 'COMPANY_VIEWER' }],
    });
    expect(own.statusCode).toBe(201);
    const foreign = await c.post('/users', {
      email: 'b-member@forpost.test',
      name: 'Сотрудник Б',
      role: 'COMPANY_USER',
      companies: [{ company_id: B.id, role: 'COMPANY_VIEWER' }],
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(USER_MSG.foreignCompany);
    const staff = await c.post('/users', { email: 'x@forpost.test', name: 'X', role: 'ANALYST' });
    expect(staff.statusCode).toBe(403);
    const { u: bUser } = await userWith('COMPANY_USER', [{ id: B.id, role: 'COMPANY_VIEWER' }]);
    expect((await c.get(`/users/${bUser.id}`)).statusCode).toBe(404);
    expect((await c.patch(`/users/${bUser.id}`, { name: 'Взлом' })).statusCode).toBe(404);
    expect((await c.del(`/users/${bUser.id}`)).statusCode).toBe(404);
    const list = (await c.get(`/users?company_id=${B.id}`)).json();
    expect(list.total).toBe(0);
    const mine = (await c.get('/users')).json();
    expect(
      mine.items.every((x: { companies: { company_id: number }[] }) => x.companies.every((m) => m.company_id === A.id)),
    ).toBe(true);
  });

  it('deactivating or deleting a user ends sessions and API keys at once', async () => {
    const admin = await as(ADMIN.email);
    const { u, c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    const key = (await c.post('/apikeys', { name: 'k', company_id: A.id, roles: [{ module: '*', access: 'read' }] })).json();
    const bearer = { authorization: `Bearer ${key.secret}` };
    expect((await new Client(ctx).get(`/companies/${A.id}`, bearer)).statusCode).toBe(200);
    expect((await admin.patch(`/users/${u.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await c.get('/me')).statusCode).toBe(401);
    expect((await new Client(ctx).get(`/companies/${A.id}`, bearer)).statusCode).toBe(401);
    expect((await admin.del(`/users/${u.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/users/${u.id}`)).statusCode).toBe(404);
  });

  it('roles endpoint reads and sets role and company roles', async () => {
    const admin = await as(ADMIN.email);
    const { u } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    const set = await admin.post(`/users/${u.id}/roles`, {
      role: 'COMPANY_USER',
      companies: [{ company_id: B.id, role: 'COMPANY_ANALYST' }],
    });
    expect(set.json()).toEqual({ role: 'COMPANY_USER', companies: [{ company_id: B.id, role: 'COMPANY_ANALYST' }] });
    expect((await admin.get(`/users/${u.id}/roles`)).json().companies).toEqual([{ company_id: B.id, role: 'COMPANY_ANALYST' }]);
  });
});

describe('product keys and activation', () => {
  it('key shown once, stored hashed; a pending user activates and sees only that company', async () => {
    const admin = await as(ADMIN.email);
    const k = await admin.post(`/companies/${A.id}/keys`, {
      max_activations: 1,
      company_role: 'COMPANY_ANALYST',
      modules: ['domains'],
    });
    expect(k.statusCode).toBe(201);
    const key: string = k.json().key;
    expect(key).toMatch(/^FP-[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
    const stored = await ctx.database.db.select().from(productKeys).where(eq(productKeys.id, k.json().id));
    expect(JSON.stringify(stored)).not.toContain(key);
    expect((await admin.get(`/companies/${A.id}/keys`)).json().items[0]).not.toHaveProperty('key');

    const email = `pending-${++seq}@forpost.test`;
    const u = await createUser(ctx, { email, role: 'COMPANY_USER' });
    const { users } = await import('../src/db/schema/index');
    await ctx.database.db.update(users).set({ pendingActivation: true }).where(eq(users.id, u.id));
    const c = await as(email);
    expect((await c.get('/me')).json().pending_activation).toBe(true);
    const blocked = await c.get('/companies');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().data.pending_activation).toBe(true);
    const wrong = await c.post('/companies/activation/activate', { key: 'FP-AAAAA-BBBBB-CCCCC-DDDDD' });
    expect(wrong.json().message).toBe(PRODUCT_KEY_MSG.notFound);
    const ok = await c.post('/companies/activation/activate', { key: key.toLowerCase() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ company_id: A.id, role: 'COMPANY_ANALYST' });
    const me = (await c.get('/me')).json();
    expect(me.pending_activation).toBe(false);
    expect(me.companies.map((x: { id: number }) => x.id)).toEqual([A.id]);
    expect((await c.get('/companies')).json().items.map((x: { id: number }) => x.id)).toEqual([A.id]);
    expect((await c.get('/companies/activation/list')).json().items).toHaveLength(1);

    // The key is now exhausted for anyone else.
    const { c: other } = await userWith('COMPANY_USER', []);
    expect((await other.post('/companies/activation/activate', { key })).json().message).toBe(PRODUCT_KEY_MSG.exhausted);
  });

  it('expired and revoked keys give their own messages; attempts are rate-limited', async () => {
    const admin = await as(ADMIN.email);
    const expired = (
      await admin.post(`/companies/${B.id}/keys`, { valid_until: new Date(Date.now() - 1000).toISOString() })
    ).json();
    const revoked = (await admin.post(`/companies/${B.id}/keys`, {})).json();
    expect((await admin.del(`/companies/${B.id}/keys/${revoked.id}`)).statusCode).toBe(204);
    const { c } = await userWith('COMPANY_USER', []);
    expect((await c.post('/companies/activation/activate', { key: expired.key })).json().message).toBe(PRODUCT_KEY_MSG.expired);
    expect((await c.post('/companies/activation/activate', { key: revoked.key })).json().message).toBe(PRODUCT_KEY_MSG.revoked);
    for (let i = 0; i < 8; i++) await c.post('/companies/activation/activate', { key: `FP-WRONG-${i}` });
    const limited = await c.post('/companies/activation/activate', { key: 'FP-WRONG-X' });
    expect(limited.statusCode).toBe(429);
  });
});

describe('API keys', () => {
  it('secret shown once (fp_ prefix, ≥128 bits), used as Bearer, rotated: the old secret stops working', async () => {
    const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    const r = await c.post('/apikeys', {
      name: 'Интеграция SIEM',
      company_id: A.id,
      roles: [{ module: 'domains', access: 'read' }],
      allowed_ips: ['127.0.0.0/8'],
    });
    expect(r.statusCode).toBe(201);
    const { secret, id } = r.json();
    expect(secret).toMatch(/^fp_[A-Za-z0-9_-]{43}$/);
    expect((await c.get(`/apikeys/${id}`)).json()).not.toHaveProperty('secret');
    const anon = new Client(ctx);
    expect((await anon.get(`/companies/${A.id}`, { authorization: `Bearer ${secret}` })).statusCode).toBe(200);
    const seen = (await c.get(`/apikeys/${id}`)).json();
    expect(seen.last_used_ip).toBe('127.0.0.1');
    expect(seen.last_used_at).not.toBeNull();
    expect((await new Client(ctx, '10.0.0.1').get(`/companies/${A.id}`, { authorization: `Bearer ${secret}` })).statusCode).toBe(
      401,
    );
    const rotated = await c.post(`/apikeys/${id}/refresh`);
    expect(rotated.statusCode).toBe(200);
    expect((await anon.get(`/companies/${A.id}`, { authorization: `Bearer ${secret}` })).statusCode).toBe(401);
    expect((await anon.get(`/companies/${A.id}`, { authorization: `Bearer ${rotated.json().secret}` })).statusCode).toBe(200);
    expect((await c.get(`/apikeys/${id}/roles`)).json()).toEqual({
      roles: [{ module: 'domains', access: 'read' }],
      collector: false,
    });
    expect((await c.post(`/apikeys/${id}/roles`, { roles: [], collector: true })).statusCode).toBe(400);
  });

  it('a company admin cannot issue or see keys of another company', async () => {
    const admin = await as(ADMIN.email);
    const bKey = (await admin.post('/apikeys', { name: 'B', company_id: B.id, roles: [] })).json();
    const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    expect((await c.post('/apikeys', { name: 'x', company_id: B.id, roles: [] })).statusCode).toBe(400);
    expect((await c.get(`/apikeys/${bKey.id}`)).statusCode).toBe(404);
    expect((await c.del(`/apikeys/${bKey.id}`)).statusCode).toBe(404);
    expect((await c.post(`/apikeys/${bKey.id}/refresh`)).statusCode).toBe(404);
    const list = (await c.get('/apikeys')).json();
    expect(list.items.every((k: { company_id: number }) => k.company_id === A.id)).toBe(true);
  });
});

describe('tenant isolation', () => {
  it("company A's user gets nothing of company B", async () => {
    const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    expect((await c.get(`/companies/${B.id}`)).statusCode).toBe(404);
    expect((await c.patch(`/companies/${B.id}`, { name: 'Взлом' })).statusCode).toBe(403);
    expect((await c.get(`/companies/${B.id}/keys`)).statusCode).toBe(403);
    const list = (await c.get('/companies')).json();
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([A.id]);
    expect(list.total).toBe(1);
    const me = (await c.get('/me')).json();
    expect(me.companies.map((x: { id: number }) => x.id)).toEqual([A.id]);
  });

  it('audit log: admins browse and filter it; company users cannot', async () => {
    const admin = await as(ADMIN.email);
    const r = await admin.get('/audit?action=company.&page_size=5');
    expect(r.statusCode).toBe(200);
    expect(r.json().items.length).toBeGreaterThan(0);
    expect(r.json().items.every((a: { action: string }) => a.action.startsWith('company.'))).toBe(true);
    const { c } = await userWith('COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
    expect((await c.get('/audit')).statusCode).toBe(403);
  });
});

describe('API key roles per module', () => {
  it('a key with domains:write and brand:read can change domains events but only read brand events', async () => {
    const admin = await as(ADMIN.email);
    const key = (
      await admin.post('/apikeys', {
        name: 'Смешанные роли',
        company_id: A.id,
        roles: [
          { module: 'domains', access: 'write' },
          { module: 'brand', access: 'read' },
        ],
      })
    ).json();
    const h = { authorization: `Bearer ${key.secret}` };
    const anon = new Client(ctx);
    expect((await anon.get('/modules/brand/events', h)).statusCode).toBe(200);
    expect((await anon.get('/modules/media/events', h)).statusCode).toBe(403);
    const brandWrite = await anon.post('/modules/brand/events', { company_id: A.id }, h);
    expect(brandWrite.statusCode).toBe(403);
    const domainWrite = await anon.post('/modules/domains/events', { company_id: A.id }, h);
    expect([400, 201]).toContain(domainWrite.statusCode); // passes the gate; the body is then validated
  });
});

describe('enabled modules of a company', () => {
  it('a company with a module list gets events of those modules only', async () => {
    const admin = await as(ADMIN.email);
    const c = (await admin.post('/companies', { name: 'Только домены', modules: ['domains'] })).json();
    const media = await admin.post('/modules/media/events', {
      company_id: c.id,
      url: 'https://news.example/a',
      media_name: 'Новости',
    });
    expect(media.statusCode).toBe(403);
    expect(media.json().message).toBe('Этот модуль не подключён для компании');
  });
});
