// The server Playwright tests run against: production console build, a fresh embedded database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureConsoleBuilt, startServer } from './lib.mjs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);
await ensureConsoleBuilt();
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'forpost-e2e-'));
console.log(`e2e data dir: ${dataDir}`);
startServer({
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  EMBEDDED_PG_PORT: String(56000 + Math.floor(Math.random() * 3000)),
  ADMIN_EMAIL: 'admin@forpost.local',
  ADMIN_PASSWORD: 'Forpost-Admin-2026!Pass',
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  SMTP_URL: '',
});
