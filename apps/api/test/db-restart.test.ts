import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/client';
import { startEmbedded } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';
import { startJobs } from '../src/jobs';
import { createTestDatabase } from './helpers';

const quiet = { info() {}, warn() {}, error() {} };

describe('database restarts under a running server', () => {
  it('health says 503 while the database is down and 200 after it is back, without a crash', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forpost-restart-'));
    const embedded = await startEmbedded({ dataDir: dir, port: 59000 + Math.floor(Math.random() * 900), log: quiet });
    // Cleanup is registered with onTestFinished: afterAll called inside a running test never ran, and
    // every run left this PostgreSQL behind.
    onTestFinished(() => embedded.stop());
    await runMigrations(embedded.url);
    const database = createDatabase(embedded.url, quiet);
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: embedded.url, LOG_LEVEL: 'silent', CONSOLE_DIST: dir });
    const app = await buildApp({ config, database, logger: false });
    const boss = await startJobs(embedded.url, quiet, true);
    onTestFinished(async () => {
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
      await app.close();
      await database.close();
    });

    const health = () => app.inject('/api/v1/health');
    expect((await health()).statusCode).toBe(200);

    await embedded.pg.stop();
    const down = await health();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable' });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@b.ru', password: 'x' } });
    expect(login.statusCode).toBe(503);
    expect(login.json().message).toBe('Сервис временно недоступен, попробуйте позже');

    await embedded.pg.start();
    let code = 0;
    for (let i = 0; i < 50 && code !== 200; i++) {
      code = (await health()).statusCode;
      if (code !== 200) await sleep(200);
    }
    expect(code).toBe(200);
  });
});

describe('migrations', () => {
  it('two servers migrating the same database at once do not collide', async () => {
    const admin = await createTestDatabase();
    // The template is already migrated; make an empty database instead.
    const c = new pg.Client({ connectionString: admin.url });
    await c.connect();
    await c.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE;');
    await c.end();
    await Promise.all([runMigrations(admin.url), runMigrations(admin.url), runMigrations(admin.url)]);
    const c2 = new pg.Client({ connectionString: admin.url });
    await c2.connect();
    const r = await c2.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    await c2.end();
    await admin.drop();
    expect(r.rows[0].n).toBeGreaterThan(0);
  });
});
