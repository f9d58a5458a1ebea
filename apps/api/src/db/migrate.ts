import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { REPO_ROOT } from '../lib/repo-root';

export const MIGRATIONS_DIR = path.join(REPO_ROOT, 'apps/api/drizzle');
/** Arbitrary constant shared by every Forpost instance: only one changes the schema at a time. */
const SCHEMA_LOCK = 7_320_114_001;

/**
 * Runs `fn` while holding the installation's schema lock (a session advisory lock on a connection
 * of its own). Everything a process does to the schema at start — migrations, pg-boss's schema and
 * queues, seeds, the first administrator, the shared-secret check — runs inside it, so any number of
 * processes started at the same instant on an empty database come up one after another instead of
 * colliding (pg-boss's queue creation deadlocked when two ran it at once).
 */
export async function withSchemaLock<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'forpost-start' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

/** Applies the committed migrations on a connection that holds the schema lock. */
export async function migrateOn(client: pg.Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR, migrationsSchema: 'drizzle' });
}

/** Applies the committed migrations under the schema lock (tests, tools). */
export async function runMigrations(url: string): Promise<void> {
  await withSchemaLock(url, migrateOn);
}
