// The server Playwright tests run against: production console build, a fresh embedded database.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureConsoleBuilt, startServer } from './lib.mjs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);
await ensureConsoleBuilt();
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'forpost-e2e-'));
console.log(`e2e data dir: ${dataDir}`);

// The site the domain snapshot producer checks in e2e: a page on loopback, reachable only because this
// test server maps the domain to it and allows private addresses (both unset in production).
export const SNAPSHOT_TARGET = 'snapshot-target.ru';
const site = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="ru"><head><title>Сбербанк Онлайн — бонусы (фишинг)</title></head>' +
      '<body style="font-family:sans-serif;background:#21a038;color:#fff;padding:48px"><h1>СберБонус</h1>' +
      '<p>Введите номер карты, чтобы получить 5000 ₽</p><input placeholder="Номер карты" style="font-size:20px;padding:8px"></body></html>',
  );
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = site.address().port;

// e2e/server-main.ts: the API with a stand-in "Telegram" for test phone numbers (the sign-in dialog's steps).
startServer(
  {
    OUTBOUND_ALLOW_PRIVATE: '1',
    SNAPSHOT_HOST_MAP: `${SNAPSHOT_TARGET}=127.0.0.1:${sitePort}`,
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
    // The watch's poller looks for due domains every 5 s, not every minute: watch.spec waits for two rounds.
    WATCH_TICK_SECONDS: '5',
  },
  { entry: 'e2e/server-main.ts' },
);
