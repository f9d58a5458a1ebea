/*
 * A PNG of the checked page through a local Chromium (playwright-core; no browser is ever
 * downloaded). The browser resolves only the checked host, to the address the guarded fetch
 * connected to (`--host-resolver-rules`); every other host name fails to resolve, and requests to
 * forbidden IP literals or other schemes are aborted — the browser cannot reach what the guard refuses.
 */
import { access, constants } from 'node:fs/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress } from '../../lib/outbound';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The browser to use: the setting, else CHROMIUM_PATH, else /usr/bin/chromium — if it is executable. */
export async function findChromium(setting: string, env: string | undefined): Promise<string | null> {
  const file = setting || env || DEFAULT_CHROMIUM;
  try {
    await access(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

export interface ScreenshotInput {
  chromium: string;
  url: string;
  /** The address the guarded fetch connected to for the URL's host. */
  ip: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

/**
 * How long the browser may take to start. Not the site's timeout (`timeoutMs`, which bounds the page):
 * starting Chromium costs the server, not the site, and on a busy machine it takes seconds — with the
 * site's few seconds it failed snapshots of sites that answered in time.
 */
const LAUNCH_TIMEOUT_MS = 30_000;

export async function takeScreenshot(s: ScreenshotInput): Promise<Buffer> {
  const { chromium } = await import('playwright-core');
  const target = new URL(s.url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const rules = isIP(host) ? 'MAP * ~NOTFOUND' : `MAP ${host} ${isIP(s.ip) === 6 ? `[${s.ip}]` : s.ip}, MAP * ~NOTFOUND`;
  const browser = await chromium.launch({
    executablePath: s.chromium,
    headless: true,
    timeout: Math.max(s.timeoutMs, LAUNCH_TIMEOUT_MS),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      `--host-resolver-rules=${rules}`,
    ],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      ignoreHTTPSErrors: true,
      serviceWorkers: 'block',
      acceptDownloads: false,
      locale: 'ru-RU',
      javaScriptEnabled: true,
    });
    await context.route('**/*', (route) => {
      let u: URL;
      try {
        u = new URL(route.request().url());
      } catch {
        return route.abort();
      }
      if (u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return route.abort();
      const h = u.hostname.replace(/^\[|\]$/g, '');
      if (isIP(h) && !s.allowPrivate && isForbiddenAddress(h)) return route.abort();
      return route.continue();
    });
    const page = await context.newPage();
    await page.goto(s.url, { waitUntil: 'load', timeout: s.timeoutMs }).catch(async (e: Error) => {
      // A page whose subresources never finish still has something to show.
      if (!/Timeout/i.test(e.message)) throw e;
    });
    return await page.screenshot({ type: 'png', timeout: s.timeoutMs });
  } finally {
    await browser.close().catch(() => undefined);
  }
}
