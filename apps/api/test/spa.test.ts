/**
 * The console's static files: pre-compressed variants are sent as they are to clients that accept
 * them, hashed assets are cached for good, everything else is revalidated.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, type TestContext } from './helpers';

const dist = mkdtempSync(path.join(tmpdir(), 'forpost-spa-'));
const script = `console.log(${JSON.stringify('Форпост '.repeat(400))});\n`;
/** The console's one inline script (the sign-in page's picture, issue #30) and a script file. */
const inline = "document.documentElement.classList.add('fp-login');";
const html = `<!doctype html><html lang="ru"><head><title>Форпост</title><script type="module" crossorigin src="/assets/index-AbC123.js"></script><script>${inline}</script></head><body>${'<div></div>'.repeat(200)}</body></html>`;

function writeWithVariants(rel: string, text: string) {
  const file = path.join(dist, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${file}.gz`, gzipSync(Buffer.from(text)));
}

let ctx: TestContext;
beforeAll(async () => {
  writeWithVariants('assets/index-AbC123.js', script);
  writeWithVariants('index.html', html);
  writeFileSync(path.join(dist, 'assets', 'plain-Xyz789.css'), 'body{margin:0}');
  writeFileSync(path.join(dist, 'version.json'), '{"version":"test"}');
  ctx = await setupApp({ CONSOLE_DIST: dist });
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (url: string, encoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('console static files', () => {
  it('sends the brotli variant of a hashed asset, cached as immutable', async () => {
    const r = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(script);
    expect(r.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 5);
  });

  it('sends gzip to a client without brotli and the file itself to one without either', async () => {
    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('a file without variants is sent as it is', async () => {
    const r = await get('/assets/plain-Xyz789.css', 'br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body).toBe('body{margin:0}');
  });

  it('the entry page is compressed too but always revalidated', async () => {
    const r = await get('/', 'br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(html);
  });

  it('a console route falls back to the entry page, revalidated', async () => {
    const r = await get('/domains/5', 'gzip');
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
    const body = r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.rawPayload).toString() : r.body;
    expect(body).toBe(html);
  });

  it("the CSP allows the entry page's inline script by its hash, and no other inline script", async () => {
    const csp = String((await get('/login')).headers['content-security-policy']);
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp.match(/'sha256-/g)).toHaveLength(1);
  });

  it('a missing asset is a 404 in the error shape, never the entry page', async () => {
    const r = await get('/assets/missing-000.js', 'br');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ statusCode: 404 });
  });
});
