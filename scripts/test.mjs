// npm test: every test — type checks, unit + API integration (real PostgreSQL), Playwright in Chromium.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { ensureConsoleBuilt, run } from './lib.mjs';

const CHROMIUM = '/usr/bin/chromium';

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (userInfo().uid !== 0) {
    throw new Error(`Нужен Chromium (${CHROMIUM}): установите пакет chromium (sudo apt-get install -y chromium)`);
  }
  console.log('Установка Chromium из пакетов Debian…');
  if ((await run('apt-get', ['update', '-qq'])) !== 0) throw new Error('apt-get update не удался');
  if (
    (await run('apt-get', ['install', '-y', '-qq', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })) !== 0
  )
    throw new Error('Не удалось установить chromium');
}

const RSYSLOGD = '/usr/sbin/rsyslogd';

/** rsyslog for the syslog/CEF test (apps/api/test/syslog-cef.test.ts starts its own on a loopback port). */
async function ensureRsyslog() {
  if (existsSync(RSYSLOGD)) return;
  if (userInfo().uid !== 0) {
    throw new Error(`Нужен rsyslog (${RSYSLOGD}): установите пакет rsyslog (sudo apt-get install -y rsyslog)`);
  }
  console.log('Установка rsyslog из пакетов Debian…');
  if ((await run('apt-get', ['update', '-qq'])) !== 0) throw new Error('apt-get update не удался');
  if (
    (await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'rsyslog'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })) !== 0
  )
    throw new Error('Не удалось установить rsyslog');
}

const steps = [
  // The build first: it also regenerates the router's route tree that the type check reads.
  [
    'Сборка консоли',
    async () => {
      await ensureConsoleBuilt();
      return 0;
    },
  ],
  ['Проверка типов', () => run('npm', ['run', 'typecheck'])],
  // Chromium before the API tests too: the domain snapshot producer's test takes a real screenshot.
  [
    'Chromium',
    async () => {
      await ensureChromium();
      return 0;
    },
  ],
  [
    'rsyslog',
    async () => {
      await ensureRsyslog();
      return 0;
    },
  ],
  ['Модульные и API-тесты', () => run('npx', ['vitest', 'run'])],
  ['Playwright', () => run('npx', ['playwright', 'test'])],
];

let failed = 0;
for (const [name, step] of steps) {
  console.log(`\n=== ${name} ===`);
  let code;
  try {
    code = await step();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    code = 1;
  }
  if (code !== 0) {
    console.error(`✗ ${name}: код ${code}`);
    failed++;
    break;
  }
}
process.exit(failed ? 1 : 0);
