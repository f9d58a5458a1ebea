import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import { type AppDeps, type BuiltApp, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { createDatabase, type Database } from '../src/db/client';
import { companies, companyMembers, users } from '../src/db/schema/index';
import { hashPassword } from '../src/lib/passwords';

export const ADMIN = { email: 'admin@forpost.test', password: 'Forpost-Admin-2026!Pass' };
export const ORIGIN = 'http://localhost:8080';

/** A fresh database cloned from the migrated template, for one test file. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDb')}`);
  await admin.end();
  const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestContext {
  app: BuiltApp;
  database: Database;
  config: Config;
  url: string;
}

/**
 * Builds the app exactly as main.ts does, on its own database; torn down after the file. `logger`:
 * the app's logger options (default: none).
 */
export async function setupApp(
  env: Record<string, string> = {},
  logger: FastifyServerOptions['logger'] = false,
  deps: Pick<AppDeps, 'mtproto'> = {},
): Promise<TestContext> {
  const { url, drop } = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: ORIGIN,
    CONSOLE_DIST: path.join(dataDir, 'no-console'),
    // Load shedding is measured by pressure.test.ts and bench/load.bench.ts; elsewhere a busy CI
    // machine must not turn a request into 503 (a test turns it on by passing these).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    DB_POOL_MAX_WAITING: '0',
    // Every response written by the compiled writer is checked against zod's (plugins/serializer.ts).
    RESPONSE_CHECK: '1',
    // Tests change access with SQL of their own and expect the very next request to see it; another
    // instance would see it only once the NOTIFY arrives (ms later). The cache is on, and raced
    // against such changes, in request-path.test.ts, and in the e2e server (npm start's defaults).
    ACCESS_CACHE_MS: '0',
    LIST_CACHE_MS: '0',
    ...env,
  });
  const database = createDatabase(url, { warn() {} });
  const app = await buildApp({ config, database, logger, ...deps });
  afterAll(async () => {
    await app.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, database, config, url };
}

export async function createUser(
  ctx: TestContext,
  v: {
    email: string;
    password?: string;
    role?: (typeof users.$inferInsert)['role'];
    name?: string;
    companies?: { id: number; role: 'COMPANY_ADMIN' | 'COMPANY_ANALYST' | 'COMPANY_VIEWER' }[];
  },
) {
  const [u] = await ctx.database.db
    .insert(users)
    .values({
      email: v.email,
      name: v.name ?? v.email.split('@')[0] ?? 'user',
      role: v.role ?? 'SUPER_ADMIN',
      passwordHash: await hashPassword(v.password ?? ADMIN.password),
    })
    .returning();
  if (!u) throw new Error('no user');
  for (const c of v.companies ?? []) {
    await ctx.database.db.insert(companyMembers).values({ userId: u.id, companyId: c.id, role: c.role });
  }
  return u;
}

export async function createCompany(ctx: TestContext, name: string) {
  const [c] = await ctx.database.db.insert(companies).values({ name }).returning();
  if (!c) throw new Error('no company');
  return c;
}

/** Cookie jar over app.inject: keeps Set-Cookie between calls like a browser (path-aware enough for /api). */
export class Client {
  cookies = new Map<string, string>();
  constructor(
    private ctx: TestContext,
    private ip = '127.0.0.1',
  ) {}
  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  private take(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  async req(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await this.ctx.app.inject({
      method,
      url: url.startsWith('/api/') || url.startsWith('/version') ? url : `/api/v1${url}`,
      remoteAddress: this.ip,
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(method !== 'GET' ? { origin: ORIGIN } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    this.take(res);
    return res;
  }
  get = (url: string, h?: Record<string, string>) => this.req('GET', url, undefined, h);
  post = (url: string, body?: unknown, h?: Record<string, string>) => this.req('POST', url, body, h);
  patch = (url: string, body?: unknown, h?: Record<string, string>) => this.req('PATCH', url, body, h);
  del = (url: string, h?: Record<string, string>) => this.req('DELETE', url, undefined, h);

  async login(email: string, password: string) {
    const r = await this.post('/auth/login', { email, password });
    if (r.statusCode !== 200) throw new Error(`login failed ${r.statusCode} ${r.body}`);
    return r;
  }
}

/** The rows of a CSV export file (its UTF-8 BOM checked and dropped; `;`-separated). */
export function csvRows(body: Buffer): string[][] {
  const text = body.toString('utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return parse(text.slice(1), { delimiter: ';', relax_column_count: true }) as string[][];
}

/** A second server instance on the same database as `ctx` (as in a scaled-out deployment); closed after the file. */
export async function setupSecondApp(ctx: TestContext): Promise<TestContext> {
  const database = createDatabase(ctx.url, { warn() {} });
  const app = await buildApp({ config: ctx.config, database, logger: false });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, config: ctx.config, url: ctx.url };
}

/** Signs in a new user of the given role (and company memberships) and returns their client. */
export async function signedIn(
  ctx: TestContext,
  email: string,
  role: (typeof users.$inferInsert)['role'],
  memberships: { id: number; role: 'COMPANY_ADMIN' | 'COMPANY_ANALYST' | 'COMPANY_VIEWER' }[] = [],
): Promise<Client> {
  await createUser(ctx, { email, role, companies: memberships });
  const c = new Client(ctx);
  await c.login(email, ADMIN.password);
  return c;
}

/** `fn()` again every 25 ms until `ok` says yes or `ms` pass (for what another connection delivers in its own time). */
export async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    v = await fn();
  }
  return v;
}
