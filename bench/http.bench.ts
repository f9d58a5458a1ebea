/*
 * The request path under 50 concurrent clients (issue #18, goals 1 and 5): the real server (`main.ts`,
 * embedded PostgreSQL in a fresh DATA_DIR, the demo set of `npm run demo`), load from a separate process
 * (bench/http-load.ts says why), closed loop: 50 kept-alive connections, each sends its next request
 * when the answer came, for DURATION_MS per case. Cases: GET /api/v1/health (the floor), the domains
 * list first page with a session cookie, an event detail, the same list with a company API key.
 * Printed: req/s, p50, p99 and the ratio to /health of the same run; once with WEB_CONCURRENCY=1 and
 * once with 2 (the same database). Nothing is asserted (figures depend on the machine).
 *
 *   node --import tsx bench/http.bench.ts   (DURATION_MS=5000, WARMUP_MS=2000, CONNECTIONS=50, PROCESSES=1,2, CPU_PROF=dir)
 * The server gets this process's environment: ACCESS_CACHE_MS=0 measures without the access cache,
 * LIST_CACHE_MS=0 without the list pages' cache (every list request reads its page).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCollector } from './collector';

const DURATION_MS = Number(process.env.DURATION_MS ?? 5000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 2000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const PROCESSES = (process.env.PROCESSES ?? '1,2').split(',').map(Number);
const PASSWORD = 'Bench-Admin-2026!Password';
const EMAIL = 'admin@forpost.local';
const CHILD = 'FORPOST_HTTP_BENCH_CHILD';
const root = path.resolve(import.meta.dirname, '..');

interface Job {
  port: number;
  path: string;
  headers: Record<string, string>;
}
interface Result {
  n: number;
  seconds: number;
  times: number[];
  errors: number;
}

// ---- the load process: CONNECTIONS closed loops over kept-alive connections ----
if (process.env[CHILD]) {
  process.on('message', async (job: Job) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const one = () =>
      new Promise<number>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: job.port, path: job.path, headers: job.headers, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', () => resolve(0));
        req.end();
      });
    // Warm-up: every connection opened, then WARMUP_MS of the same load — V8 optimises the path and
    // the pool's connections prepare their statements (50 requests left the list's first seconds
    // measured half-compiled: 745 req/s in the first 3 s, 942 after).
    const warmEnd = performance.now() + WARMUP_MS;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        do await one();
        while (performance.now() < warmEnd);
      }),
    );
    const times: number[] = [];
    let errors = 0;
    const start = performance.now();
    const end = start + DURATION_MS;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < end) {
          const a = performance.now();
          const status = await one();
          if (status === 200) times.push(performance.now() - a);
          else errors++;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    agent.destroy();
    process.send?.({ n: times.length, seconds, times, errors } satisfies Result);
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;

/** `npm start`'s server on DATA_DIR with WEB_CONCURRENCY=n; resolves once all n listen. */
async function startServer(env: Record<string, string>, n: number): Promise<ChildProcess> {
  // CPU_PROF=<dir>: each server process (cluster workers inherit the flags) writes a .cpuprofile there
  // when it stops, for a flame graph.
  const prof = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      WEB_CONCURRENCY: String(n),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const check = (d: Buffer) => {
      out += String(d);
      // LOG_LEVEL=warn hides Fastify's «listening»: ask the port until n processes could answer.
      if (out.length > 1e6) out = out.slice(-1e5);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', () => reject(new Error(`server exited:\n${out.slice(-3000)}`)));
    void (async () => {
      for (;;) {
        const ok = await request(Number(env.PORT), 'GET', '/api/v1/health').then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      // The other processes come up one after another under the schema lock: give them a moment.
      if (n > 1) await new Promise((r) => setTimeout(r, 15_000));
      resolve();
    })();
  });
  return child;
}

function request(port: number, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: p,
        agent: false,
        headers: {
          ...(data ? { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` } : {}),
          ...headers,
        },
      },
      (res) => {
        let b = '';
        res.on('data', (d) => {
          b += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: b, cookies: ([] as string[]).concat(res.headers['set-cookie'] ?? []) }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function stop(child: ChildProcess) {
  const exit = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exit;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-http-bench-'));
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(await freePort()),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    CONSOLE_DIST: path.join(dataDir, 'no-console'),
    // The capacity of the path is measured, not the guards: load shedding (load.bench.ts measures it)
    // and the API key's per-minute limit would answer 503/429 instead.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    DB_POOL_MAX_WAITING: '0',
    API_KEY_RATE_LIMIT: '0',
  };
  const load = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, [CHILD]: '1' } });
  const run = (job: Job) =>
    new Promise<Result>((resolve) => {
      load.once('message', (m: Result) => resolve(m));
      load.send(job);
    });
  let server: ChildProcess | undefined;
  let pool: pg.Pool | undefined;
  try {
    server = await startServer(env, 1);
    const demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const demoCode = await new Promise((r) => demo.once('exit', r));
    if (demoCode !== 0) throw new Error(`npm run demo: exit ${demoCode}`);
    const login = await request(port, 'POST', '/api/v1/auth/login', { email: EMAIL, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login ${login.status} ${login.body}`);
    const cookie = login.cookies.map((c) => c.split(';')[0]).join('; ');
    const list = '/api/v1/modules/domains/events?page=1&page_size=20';
    const page = JSON.parse((await request(port, 'GET', list, undefined, { cookie })).body);
    const first = page.items[0];
    const key = await request(
      port,
      'POST',
      '/api/v1/apikeys',
      { name: 'Нагрузка', company_id: first.company_id, roles: [{ module: '*', access: 'read' }] },
      { cookie },
    );
    if (key.status !== 201) throw new Error(`api key ${key.status} ${key.body}`);
    const bearer = `Bearer ${JSON.parse(key.body).secret}`;
    const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
    pool = new pg.Pool({
      host: '127.0.0.1',
      port: Number(env.EMBEDDED_PG_PORT),
      user: 'postgres',
      password,
      database: 'forpost',
      max: 2,
    });
    console.log(`demo set: ${page.total} domain events; ${CONNECTIONS} connections, ${DURATION_MS} ms per case`);
    const WRITING = 'list + 20 writes/s';
    const cases: [string, Job][] = [
      ['/health', { port, path: '/api/v1/health', headers: {} }],
      ['list, session', { port, path: list, headers: { cookie } }],
      [WRITING, { port, path: list, headers: { cookie } }],
      ['detail, session', { port, path: `/api/v1/modules/domains/events/${first.id}`, headers: { cookie } }],
      ['list, API key', { port, path: list, headers: { authorization: bearer } }],
    ];
    for (const n of PROCESSES) {
      if (n !== 1) {
        await stop(server);
        server = await startServer(env, n);
      }
      console.log(`\nWEB_CONCURRENCY=${n}`);
      let floor = 0;
      for (const [name, job] of cases) {
        const collector = name === WRITING ? startCollector(pool, [first.company_id]) : undefined;
        const r = await run(job);
        const wrote = await collector?.();
        const s = r.times.sort((a, b) => a - b);
        const rate = r.n / r.seconds;
        if (name === '/health') floor = rate;
        console.log(
          `  ${name.padEnd(16)} ${rate.toFixed(0).padStart(6)} req/s  p50 ${pct(s, 50).toFixed(1)} ms  p99 ${pct(s, 99).toFixed(1)} ms  ` +
            `${(rate / floor).toFixed(2)}× /health${r.errors ? `  (${r.errors} not 200)` : ''}` +
            (wrote ? `  (${wrote.perSecond.toFixed(1)} events/s written)` : ''),
        );
      }
    }
  } finally {
    // Also on an error: the server (and its embedded PostgreSQL) must not outlive the bench.
    if (server && server.exitCode === null && server.signalCode === null) await stop(server);
    load.kill();
    await pool?.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!process.env[CHILD]) await main();
