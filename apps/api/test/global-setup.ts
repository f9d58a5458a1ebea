import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type EmbeddedDb, startEmbedded } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

const quiet = { info() {}, warn() {}, error: console.error };
export const TEMPLATE_DB = 'forpost_template';

/**
 * One real PostgreSQL for the run (TEST_DATABASE_URL, or an embedded one in .tmp/test-pg),
 * a template database migrated once, cloned per test file.
 */
export default async function setup(project: TestProject) {
  let cleanup: (() => void) | undefined;
  let embedded: EmbeddedDb | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // A folder per run: parallel runs (several developers, CI) never share a cluster.
    const base = path.resolve(import.meta.dirname, '../../../.tmp');
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(path.join(base, 'test-pg-'));
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    const port = 55000 + Math.floor(Math.random() * 4000);
    embedded = await startEmbedded({ dataDir: dir, port, log: quiet });
    adminUrl = embedded.url.replace(/\/forpost$/, '/postgres');
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  await runMigrations(adminUrl.replace(/\/[^/]+$/, `/${TEMPLATE_DB}`));
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', TEMPLATE_DB);
  return async () => {
    await embedded?.stop();
    cleanup?.();
  };
}
