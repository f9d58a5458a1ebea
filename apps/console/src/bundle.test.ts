/*
 * The login page's bundle (issue #16): what /login loads is the entry's static import graph plus the
 * login route's chunk, read from the production build's manifest. The chart library and the pages
 * behind sign-in must not be in it, and its brotli bytes (the .br files the server sends) stay under
 * a ceiling. Builds the console first when dist is older than its sources (scripts/lib.mjs).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const dist = path.join(root, 'apps/console/dist');

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, Chunk>;

/**
 * /login's initial JS, brotli as sent (bench/console.bench.ts measures the same in Chromium). The
 * issue's goal is 200 KB; this ceiling is where the build stood before the split (≈ 346 KB of .br
 * files, 360 KB with headers in Chromium), so the login bundle can only shrink from here:
 * docs/decisions.md «Загрузка консоли» lists what still keeps it above 200 KB.
 */
export const LOGIN_JS_CEILING = 360 * 1024;
const LOGIN_ROUTE = 'src/routes/login.tsx?tsr-split=component';

let manifest: Manifest;

function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k)) return;
    const chunk = manifest[k];
    if (!chunk) throw new Error(`not in the manifest: ${k}`);
    seen.add(k);
    for (const i of chunk.imports ?? []) walk(i);
  };
  for (const k of keys) walk(k);
  return seen;
}

const transferred = (file: string) => {
  const br = path.join(dist, `${file}.br`);
  return statSync(existsSync(br) ? br : path.join(dist, file)).size;
};

beforeAll(async () => {
  // In a child process with NODE_ENV=production: vitest's NODE_ENV=test would make Vite bundle
  // React's development build into the shared dist.
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', "await (await import('./scripts/lib.mjs')).ensureConsoleBuilt();"],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}, 300_000);

describe('the login page bundle', () => {
  it('holds the entry and the login route only: no other route, no chart library', () => {
    const login = closure(['index.html', LOGIN_ROUTE]);
    const routes = [...login].filter((k) => k.includes('?tsr-split='));
    expect(routes).toEqual([LOGIN_ROUTE]);
    const files = [...login].map((k) => manifest[k]?.file ?? '');
    expect(files.filter((f) => /\/charts-/.test(f))).toEqual([]);
    expect([...login].filter((k) => /src\/features\/(dashboard|events|discovery|imports)\//.test(k))).toEqual([]);
  });

  it('the chart library is one chunk, reached only through the home page', () => {
    const charts = Object.entries(manifest).filter(([, c]) => /^assets\/charts-/.test(c.file));
    expect(charts.map(([, c]) => c.file)).toHaveLength(1);
    const chartsKey = charts[0]?.[0] ?? '';
    const routesWithCharts = Object.keys(manifest).filter(
      (k) => k.includes('?tsr-split=component') && closure([k]).has(chartsKey),
    );
    expect(routesWithCharts).toEqual(['src/routes/_auth/_app/index.tsx?tsr-split=component']);
  });

  it(`sends at most ${LOGIN_JS_CEILING / 1024} KB of brotli JavaScript for /login`, () => {
    const bytes = [...closure(['index.html', LOGIN_ROUTE])].reduce((s, k) => s + transferred(manifest[k]?.file ?? ''), 0);
    expect(bytes).toBeGreaterThan(50 * 1024); // the sum really read the files
    expect(bytes).toBeLessThanOrEqual(LOGIN_JS_CEILING);
  });
});
