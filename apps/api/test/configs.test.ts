import { CONFIG_KEYS, CONFIG_MSG } from '@forpost/contract/configs';
import { MSG } from '@forpost/contract/messages';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, systemConfigs } from '../src/db/schema/index';
import { ADMIN, Client, createUser, eventually, setupApp, setupSecondApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let second: TestContext;
let sa: Client;

beforeAll(async () => {
  ctx = await setupApp();
  second = await setupSecondApp(ctx);
  await createUser(ctx, { email: ADMIN.email, password: ADMIN.password, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
});

describe('configs: access', () => {
  it('only SUPER_ADMIN may read or change settings', async () => {
    expect((await new Client(ctx).get('/configs')).statusCode).toBe(401);
    for (const role of ['ADMIN', 'ANALYST', 'VIEWER'] as const) {
      const c = await signedIn(ctx, `${role.toLowerCase()}-cfg@forpost.test`, role);
      expect((await c.get('/configs')).statusCode).toBe(403);
      expect((await c.get('/configs/product_name')).statusCode).toBe(403);
      expect((await c.patch('/configs/product_name', { value: 'X' })).statusCode).toBe(403);
      expect((await c.post('/configs', { key: 'product_name', value: 'X' })).statusCode).toBe(403);
      expect((await c.del('/configs/product_name')).statusCode).toBe(403);
    }
    const cu = await signedIn(ctx, 'cu-cfg@forpost.test', 'COMPANY_USER');
    expect((await cu.get('/configs')).statusCode).toBe(403);
  });
});

describe('configs: registry and values', () => {
  it('lists every registry key with Russian titles, defaults and no secret values', async () => {
    const r = await sa.get('/configs');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.items.map((i: { key: string }) => i.key)).toEqual(CONFIG_KEYS);
    expect(body.total).toBe(CONFIG_KEYS.length);
    const byKey = Object.fromEntries(body.items.map((i: { key: string }) => [i.key, i]));
    expect(byKey.export_retention_days).toMatchObject({
      type: 'integer',
      value: 30,
      default: 30,
      has_value: false,
      min: 1,
      unit: 'дн.',
    });
    expect(byKey.product_name).toMatchObject({ type: 'string', value: 'Форпост', is_secret: false });
    expect(byKey.smtp_url).toMatchObject({ is_secret: true, value: null, default: null, has_value: false });
    // Environment-provided defaults (SESSION_IDLE_SECONDS default 12 h).
    expect(byKey.session_idle_minutes.value).toBe(720);
    expect(byKey.lockout_max_failures).toMatchObject({
      value: ctx.config.lockoutMaxFailures,
      default: ctx.config.lockoutMaxFailures,
    });
    for (const i of body.items) expect(i.title).toMatch(/[а-яё]/i);
  });

  it('filters by group', async () => {
    const r = await sa.get('/configs?group=security');
    expect(r.json().items.map((i: { key: string }) => i.key)).toEqual([
      'lockout_max_failures',
      'lockout_window_minutes',
      'lockout_minutes',
    ]);
    expect((await sa.get('/configs?group=nope')).statusCode).toBe(400);
  });

  it('PATCH changes a value, records who and audits it; DELETE resets to the default', async () => {
    const r = await sa.patch('/configs/export_retention_days', { value: 45 });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      key: 'export_retention_days',
      value: 45,
      default: 30,
      has_value: true,
      updated_by: { name: expect.any(String) },
    });
    expect(r.json().updated_at).toMatch(/^\d{4}-/);
    expect(await ctx.app.services.configs.get('export_retention_days')).toBe(45);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'config.update'));
    expect(audits.at(-1)).toMatchObject({ entity: 'config', entityId: 'export_retention_days', after: { value: 45 } });

    expect((await sa.del('/configs/export_retention_days')).statusCode).toBe(204);
    expect((await sa.get('/configs/export_retention_days')).json()).toMatchObject({
      value: 30,
      has_value: false,
      updated_by: null,
    });
    expect(await ctx.app.services.configs.get('export_retention_days')).toBe(30);
    const again = await sa.del('/configs/export_retention_days');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(CONFIG_MSG.notSet);
  });

  it('POST sets a value once; a second POST is a Russian 409', async () => {
    const r = await sa.post('/configs', { key: 'product_name', value: '  Форпост Про  ' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ key: 'product_name', value: 'Форпост Про', has_value: true });
    const dup = await sa.post('/configs', { key: 'product_name', value: 'Другое' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(CONFIG_MSG.alreadySet);
    expect((await sa.get('/configs/product_name')).json().value).toBe('Форпост Про');
    await sa.del('/configs/product_name');
  });

  it('unknown keys: 404 by path, Russian 400 in a body', async () => {
    const g = await sa.get('/configs/no_such_setting');
    expect(g.statusCode).toBe(404);
    expect(g.json().message).toBe('Настройка не найдена');
    expect((await sa.patch('/configs/no_such_setting', { value: 1 })).statusCode).toBe(404);
    expect((await sa.del('/configs/__proto__')).statusCode).toBe(404);
    const p = await sa.post('/configs', { key: 'no_such_setting', value: 1 });
    expect(p.statusCode).toBe(400);
    expect(p.json().data.fields.key).toBe(CONFIG_MSG.unknownKey);
  });

  it.each([
    ['session_idle_minutes', '30', CONFIG_MSG.integer],
    ['session_idle_minutes', 1.5, CONFIG_MSG.integer],
    ['session_idle_minutes', 1, CONFIG_MSG.min(5)],
    ['lockout_max_failures', 100_000, CONFIG_MSG.max(1000)],
    ['export_retention_days', true, CONFIG_MSG.integer],
    ['export_retention_days', null, MSG.required],
    ['product_name', 5, CONFIG_MSG.text],
    ['product_name', '   ', MSG.required],
    ['smtp_url', 'http://mail.example.com', CONFIG_MSG.smtpUrl],
    ['mail_from', 'not an address', CONFIG_MSG.mailFrom],
    ['classifier_url', 'ftp://ml.local', MSG.url],
  ])('refuses %s = %j with a Russian message', async (key, value, message) => {
    const r = await sa.patch(`/configs/${key}`, { value });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(message);
    expect(r.json().data.fields.value).toBe(message);
    const row = await ctx.database.db.select().from(systemConfigs).where(eq(systemConfigs.key, key));
    expect(row).toEqual([]);
  });

  it('accepts well-formed values of each type', async () => {
    for (const [key, value] of [
      ['mail_from', 'Форпост <noreply@forpost.ru>'],
      ['mail_from', 'noreply@forpost.ru'],
      ['classifier_url', 'https://ml.forpost.local/api'],
      ['classifier_url', ''],
      ['lockout_minutes', 30],
    ] as const) {
      const r = await sa.patch(`/configs/${key}`, { value });
      expect(r.statusCode, `${key}=${value}`).toBe(200);
      expect(r.json().value).toBe(value);
    }
    expect(await ctx.app.services.configs.get('lockout_minutes')).toBe(30);
  });
});

describe('configs: secrets are write-only', () => {
  const smtp = 'smtp://mailer:S3cr3t-Pa55@mail.example.com:587';

  it('stores the SMTP URL encrypted and never returns it', async () => {
    const r = await sa.patch('/configs/smtp_url', { value: smtp });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ key: 'smtp_url', is_secret: true, value: null, default: null, has_value: true });
    const list = await sa.get('/configs');
    const one = await sa.get('/configs/smtp_url');
    for (const body of [r.body, list.body, one.body]) expect(body).not.toContain('S3cr3t');
    const [row] = await ctx.database.db.select().from(systemConfigs).where(eq(systemConfigs.key, 'smtp_url'));
    expect(JSON.stringify(row?.value)).not.toContain('S3cr3t');
    expect(JSON.stringify(row?.value)).toMatch(/^"v1\./);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, 'smtp_url'));
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain('S3cr3t');
    // The server itself reads the plain value.
    expect(await ctx.app.services.configs.get('smtp_url')).toBe(smtp);
  });
});

describe('configs: a change reaches every instance without a restart', () => {
  it('PATCH on one instance is seen by the other through LISTEN/NOTIFY', async () => {
    const other = second.app.services.configs;
    expect(await other.get('product_name')).toBe('Форпост');
    // The second instance caches: a write that bypasses the service (no NOTIFY) is not seen…
    await ctx.database.db.insert(systemConfigs).values({ key: 'product_name', value: 'Тайком' });
    expect(await other.get('product_name')).toBe('Форпост');
    await ctx.database.db.delete(systemConfigs).where(eq(systemConfigs.key, 'product_name'));
    // …but a change made through the API on the first instance is.
    const r = await sa.patch('/configs/product_name', { value: 'Форпост-2' });
    expect(r.statusCode).toBe(200);
    expect(
      await eventually(
        () => other.get('product_name'),
        (v) => v === 'Форпост-2',
      ),
    ).toBe('Форпост-2');
    // And back through the second instance's own API, seen by the first.
    const sa2 = new Client(second);
    await sa2.login(ADMIN.email, ADMIN.password);
    expect((await sa2.patch('/configs/product_name', { value: 'Форпост-3' })).statusCode).toBe(200);
    expect(
      await eventually(
        () => ctx.app.services.configs.get('product_name'),
        (v) => v === 'Форпост-3',
      ),
    ).toBe('Форпост-3');
    expect((await sa2.del('/configs/product_name')).statusCode).toBe(204);
    expect(
      await eventually(
        () => ctx.app.services.configs.get('product_name'),
        (v) => v === 'Форпост',
      ),
    ).toBe('Форпост');
  });

  it('after losing its LISTEN connection an instance stops trusting its cache and reconnects', async () => {
    const other = second.app.services.configs;
    expect(await other.get('lockout_window_minutes')).toBe(15);
    await ctx.database.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forpost-listen-forpost_configs'`,
    );
    // A silent write while the listener is down must still be seen (no cache without LISTEN).
    await ctx.database.db.insert(systemConfigs).values({ key: 'lockout_window_minutes', value: 20 });
    expect(
      await eventually(
        () => other.get('lockout_window_minutes'),
        (v) => v === 20,
      ),
    ).toBe(20);
    // Reconnected: changes through the API propagate again.
    const listening = async () => {
      const r = await ctx.database.pool.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forpost-listen-forpost_configs'",
      );
      return r.rows[0].n as number;
    };
    expect(await eventually(listening, (n) => n >= 2, 10_000)).toBeGreaterThanOrEqual(2);
    expect((await sa.patch('/configs/lockout_window_minutes', { value: 25 })).statusCode).toBe(200);
    expect(
      await eventually(
        () => other.get('lockout_window_minutes'),
        (v) => v === 25,
      ),
    ).toBe(25);
  });

  it('getAll returns every key typed', async () => {
    const all = await ctx.app.services.configs.getAll();
    expect(Object.keys(all).sort()).toEqual([...CONFIG_KEYS].sort());
    expect(typeof all.import_file_max_mb).toBe('number');
  });
});
