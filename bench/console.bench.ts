/*
 * How fast the console loads: JavaScript bytes on the wire and the home page's LCP, in Chromium
 * against the production server (scripts/e2e-server.mjs: the built console, precompressed .br files,
 * a fresh embedded database), with the demo data (scripts/demo.ts) loaded into it.
 *
 *   node --import tsx bench/console.bench.ts   (BENCH_PORT=4110, RUNS=5, NO_DEMO=1 skips the demo data)
 *
 * Budgets (issue #16): /login — initial JS ≤ 200 KB transferred (brotli); / after sign-in ≤ 450 KB;
 * the chart library only in its own chunk, loaded only by pages with charts; LCP of / ≤ 1.0 s
 * (median of RUNS loads), measured twice: a first visit (a fresh browser context, nothing cached) and a
 * returning analyst (a profile on disk that opened / before: cached assets, V8 code cache). Every context sends
 * `Accept-Encoding: br`; "initial JS" = every script response until the page has rendered and then
 * no request was in flight for 500 ms, counted as transferred: headers + the compressed body. Prints the figures and
 * the ratio to each budget; asserts nothing except that the server really sent brotli.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page, type Request } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.BENCH_PORT ?? 4110);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.RUNS ?? 5);
const ADMIN = { email: 'admin@forpost.local', password: 'Forpost-Admin-2026!Pass' };
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];
/** Loads of / before the warm LCP is measured (V8 caches a script's code from its second run on). */
const WARM_UP = 3;
const BUDGET = { login: 200 * 1024, home: 450 * 1024, lcp: 1000 };
/** The chart library's chunk (apps/console/vite.config.ts `codeSplitting.groups`). */
const CHARTS = /\/assets\/charts-[\w-]+\.js$/;

const log = (s: string) => process.stdout.write(`${s}\n`);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function waitHealthy(child: ReturnType<typeof spawn>): Promise<void> {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error('the e2e server exited before it was healthy');
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Script {
  url: string;
  /** Headers + body as transferred. */
  bytes: number;
  body: number;
  encoding: string;
}

/**
 * Resolves once `ready` is visible and then no request has been in flight for QUIET_MS. Playwright's
 * own `networkidle` is not enough on a busy machine: while the browser parses the route's chunks the
 * network is silent for seconds, before the page asks for its data and the next chunks.
 */
const QUIET_MS = 500;
async function settled(page: Page, ready: string): Promise<void> {
  let inFlight = 0;
  let last = Date.now();
  const start = () => {
    inFlight++;
    last = Date.now();
  };
  const end = () => {
    inFlight--;
    last = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  await page.locator(ready).first().waitFor({ state: 'visible', timeout: 60_000 });
  while (inFlight > 0 || Date.now() - last < QUIET_MS) await page.waitForTimeout(100);
  page.off('request', start);
  page.off('requestfinished', end);
  page.off('requestfailed', end);
}

/** What shows that a page has rendered (then the bench waits for the network to go quiet). */
const READY: Record<string, string> = {
  '/login': 'button[type=submit]',
  '/': '[data-testid=page-title]',
  '/domains': '[data-testid=page-title]',
};

/** Opens `url` in the context and returns every script it loaded until the page settled. */
async function scriptsOf(context: BrowserContext, url: string): Promise<Script[]> {
  const page = await context.newPage();
  const finished: Promise<Script | null>[] = [];
  page.on('requestfinished', (req: Request) => {
    if (req.resourceType() !== 'script') return;
    finished.push(
      (async () => {
        const [sizes, res] = await Promise.all([req.sizes(), req.response()]);
        const encoding = (await res?.headerValue('content-encoding')) ?? 'identity';
        return {
          url: req.url(),
          bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          body: sizes.responseBodySize,
          encoding,
        };
      })(),
    );
  });
  const done = settled(page, READY[url] ?? 'body');
  await page.goto(`${BASE}${url}`);
  await done;
  const scripts = (await Promise.all(finished)).filter((s): s is Script => s !== null);
  await page.close();
  return scripts;
}

async function signedInContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'Accept-Encoding': 'br' },
    viewport: { width: 1440, height: 900 },
  });
  const res = await context.request.post(`${BASE}/api/v1/auth/login`, { data: ADMIN, headers: { origin: BASE } });
  if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
  return context;
}

/** Records the page's largest contentful paint in `window.__lcp` (page-side code as text: this file is type-checked without the DOM library). */
const LCP_OBSERVER = `window.__lcp = 0; window.__lcpElement = false; new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__lcp = e.startTime; window.__lcpElement = !!e.element; } }).observe({ type: 'largest-contentful-paint', buffered: true });`;

/** Opens `url` in a new tab of `context` and returns its LCP (the last entry once the page settled). */
async function loadLcp(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  await page.addInitScript({ content: LCP_OBSERVER });
  const done = settled(page, READY[url] ?? 'body');
  await page.goto(`${BASE}${url}`);
  await done;
  // The «Загрузка…» of index.html is the first candidate (generated text: no element); the page's own
  // largest paint is reported a frame after it was drawn, which may be after the network went quiet.
  await page.waitForFunction('window.__lcpElement === true', null, { timeout: 30_000 });
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200))))');
  const lcp = Number(await page.evaluate('window.__lcp'));
  await page.close();
  return lcp;
}

/** LCP of one cold load of `url`: a fresh context, nothing cached. */
async function lcpOf(browser: Browser, url: string): Promise<number> {
  const context = await signedInContext(browser);
  const lcp = await loadLcp(context, url);
  await context.close();
  return lcp;
}

/**
 * LCP of `url` for a returning analyst: one browser profile on disk (the HTTP cache of the immutable
 * hashed assets and V8's code cache, which Chromium fills from the second load of a script on), signed
 * in, that has opened the page WARM_UP times; each measured load is a new tab of that profile.
 */
async function warmLcps(url: string, runs: number): Promise<number[]> {
  const profile = mkdtempSync(path.join(tmpdir(), 'forpost-console-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    extraHTTPHeaders: { 'Accept-Encoding': 'br' },
    viewport: { width: 1440, height: 900 },
  });
  try {
    const res = await context.request.post(`${BASE}/api/v1/auth/login`, { data: ADMIN, headers: { origin: BASE } });
    if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
    for (let i = 0; i < WARM_UP; i++) await loadLcp(context, url);
    const lcps: number[] = [];
    for (let i = 0; i < runs; i++) lcps.push(await loadLcp(context, url));
    return lcps;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function report(name: string, scripts: Script[], budget: number): number {
  const total = scripts.reduce((s, x) => s + x.bytes, 0);
  // Files under 1 KB are not precompressed (vite.config.ts `precompress`): they come as they are.
  const notBr = scripts.filter((s) => s.encoding !== 'br' && s.body >= 1024);
  log(`${name}: ${scripts.length} scripts, ${kb(total)} transferred — ${((total / budget) * 100).toFixed(0)} % of ${kb(budget)}`);
  const top = [...scripts].sort((a, b) => b.bytes - a.bytes).slice(0, 6);
  log(`  largest: ${top.map((s) => `${path.basename(s.url)} ${kb(s.bytes)}`).join(', ')}`);
  if (notBr.length) throw new Error(`not sent as brotli: ${notBr.map((s) => `${s.url} (${s.encoding})`).join(', ')}`);
  return total;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-console-bench-'));
const server = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
  cwd: root,
  env: { ...process.env, E2E_PORT: String(PORT), E2E_DATA_DIR: dataDir, E2E_LOG_LEVEL: 'error' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let browser: Browser | undefined;
try {
  await waitHealthy(server);
  if (!process.env.NO_DEMO) {
    const demo = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    log(demo.status === 0 ? 'demo data: loaded (scripts/demo.ts)' : `demo data: FAILED (${demo.stderr.slice(-300)})`);
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  log(`${new Date().toISOString()}  commit ${commit}  ${BASE}`);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

  const anon = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'br' } });
  const login = await scriptsOf(anon, '/login');
  await anon.close();
  const loginTotal = report('/login', login, BUDGET.login);

  const home = await signedInContext(browser);
  const homeScripts = await scriptsOf(home, '/');
  await home.close();
  const homeTotal = report('/ after sign-in', homeScripts, BUDGET.home);

  const list = await signedInContext(browser);
  const listScripts = await scriptsOf(list, '/domains');
  await list.close();
  report('/domains (a list, no charts)', listScripts, BUDGET.home);

  const charts = (s: Script[]) => s.filter((x) => CHARTS.test(x.url));
  log(
    `chart chunk: /login ${charts(login).length ? 'LOADED' : 'not loaded'}, /domains ${charts(listScripts).length ? 'LOADED' : 'not loaded'}, ` +
      `/ ${
        charts(homeScripts)
          .map((s) => kb(s.bytes))
          .join('') || 'NOT loaded'
      }`,
  );

  const lcps: number[] = [];
  for (let i = 0; i < RUNS; i++) lcps.push(await lcpOf(browser, '/'));
  const lcp = median(lcps);
  log(
    `LCP of /: median ${lcp.toFixed(0)} ms of ${RUNS} (${lcps.map((x) => x.toFixed(0)).join(', ')}) — ${((lcp / BUDGET.lcp) * 100).toFixed(0)} % of ${BUDGET.lcp} ms`,
  );
  const warm = await warmLcps('/', RUNS);
  const warmLcp = median(warm);
  log(
    `LCP of /, returning analyst (profile on disk, ${WARM_UP} earlier visits): median ${warmLcp.toFixed(0)} ms of ${RUNS} (${warm.map((x) => x.toFixed(0)).join(', ')}) — ${((warmLcp / BUDGET.lcp) * 100).toFixed(0)} % of ${BUDGET.lcp} ms`,
  );
  log('');
  log('| | measured | budget | ratio |');
  log('|---|---|---|---|');
  log(`| /login, initial JS (brotli) | ${kb(loginTotal)} | ${kb(BUDGET.login)} | ${(loginTotal / BUDGET.login).toFixed(2)} |`);
  log(`| / after sign-in, JS (brotli) | ${kb(homeTotal)} | ${kb(BUDGET.home)} | ${(homeTotal / BUDGET.home).toFixed(2)} |`);
  log(
    `| LCP of /, first visit, median of ${RUNS} | ${lcp.toFixed(0)} ms | ${BUDGET.lcp} ms | ${(lcp / BUDGET.lcp).toFixed(2)} |`,
  );
  log(
    `| LCP of /, returning analyst, median of ${RUNS} | ${warmLcp.toFixed(0)} ms | ${BUDGET.lcp} ms | ${(warmLcp / BUDGET.lcp).toFixed(2)} |`,
  );
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
