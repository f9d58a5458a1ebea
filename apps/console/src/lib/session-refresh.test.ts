import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_RETRY } from '@forpost/contract/http-constants';
import ky from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRefresher, retryPayloadTooLarge } from './session-refresh';

/** A refresh the test settles by hand, counting its calls. */
function manualRefresh() {
  const calls: { resolve: () => void; reject: () => void }[] = [];
  const refresh = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject: () => reject(new Error('401')) });
    });
  return { calls, refresh };
}

describe('session refresh on 401', () => {
  it('a burst of 401s shares one refresh and every request retries', async () => {
    const { calls, refresh } = manualRefresh();
    const r = createRefresher(refresh, () => 100);
    const all = Promise.all([r.after401(1), r.after401(2), r.after401(3)]);
    expect(calls).toHaveLength(1);
    calls[0]?.resolve();
    expect(await all).toEqual([true, true, true]);
    // Sent before that refresh finished: the cookie is fresh already, no new refresh.
    expect(await r.after401(50)).toBe(true);
    expect(calls).toHaveLength(1);
    // Sent after it: a new refresh.
    const later = r.after401(150);
    expect(calls).toHaveLength(2);
    calls[1]?.resolve();
    expect(await later).toBe(true);
  });

  it('after a failed refresh no second refresh follows', async () => {
    const { calls, refresh } = manualRefresh();
    const r = createRefresher(refresh, () => 100);
    const first = Promise.all([r.after401(1), r.after401(2)]);
    calls[0]?.reject();
    expect(await first).toEqual([false, false]);
    expect(await r.after401(200)).toBe(false);
    expect(await r.after401(0)).toBe(false);
    expect(calls).toHaveLength(1);
    // Signing in again on the same page (the login form's probe had failed): 401s refresh again.
    r.signedIn();
    const again = r.after401(300);
    expect(calls).toHaveLength(2);
    calls[1]?.resolve();
    expect(await again).toBe(true);
  });
});

describe('413 is retried like the other retried statuses', () => {
  it('retries 413 without Retry-After and leaves the rest to the default rules', () => {
    expect(HTTP_RETRY.statusCodes).toContain(413);
    expect(retryPayloadTooLarge({ error: { response: { status: 413 } } })).toBe(true);
    expect(retryPayloadTooLarge({ error: { response: { status: 503 } } })).toBeUndefined();
    expect(retryPayloadTooLarge({ error: new Error('timeout') })).toBeUndefined();
    expect(retryPayloadTooLarge({ error: null })).toBeUndefined();
  });
});

describe('ky with the console retry options, against a real server', () => {
  it('a GET answered 413 (no Retry-After) is retried and succeeds', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(hits === 1 ? 413 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const retry = { ...HTTP_RETRY, delay: () => 0 };
      const url = `http://127.0.0.1:${port}/x`;
      // ky alone gives up on a 413 without Retry-After…
      await expect(ky.get(url, { retry }).json()).rejects.toThrow(/413/);
      expect(hits).toBe(1);
      hits = 0;
      // …with the console's rule it retries.
      expect(await ky.get(url, { retry: { ...retry, shouldRetry: retryPayloadTooLarge } }).json()).toEqual({ ok: true });
      expect(hits).toBe(2);
    } finally {
      server.close();
    }
  });
});

describe('the console client when the refresh fails', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lands on /login with ?redirect=<current path>, after one refresh only', async () => {
    let refreshes = 0;
    // Every call is 401, the refresh too: the session is gone.
    const server = createServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') refreshes++;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Требуется вход' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // The console's relative /api/v1 paths resolve against the page, as in a browser.
      const NativeRequest = globalThis.Request;
      vi.stubGlobal(
        'Request',
        class extends NativeRequest {
          constructor(input: RequestInfo | URL, init?: RequestInit) {
            super(typeof input === 'string' ? new URL(input, origin) : input, init);
          }
        },
      );
      const assign = vi.fn();
      const location = {
        href: `${origin}/domains?status=1,2#list`,
        pathname: '/domains',
        search: '?status=1,2',
        hash: '#list',
        assign,
      };
      vi.stubGlobal('window', { location });
      const { http } = await import('./http');
      const { onSessionEnd } = await import('./session');
      // Dropping the auth state may move the router to /login before the reload: the redirect is read first.
      onSessionEnd(() => Object.assign(location, { pathname: '/login', search: '', hash: '' }));

      await expect(http.get('modules/domains/events').json()).rejects.toThrow(/401/);
      expect(refreshes).toBe(1);
      expect(assign).toHaveBeenCalledTimes(1);
      expect(assign).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/domains?status=1,2#list')}`);

      // Another 401 afterwards: no second refresh, no second reload.
      await expect(http.get('me').json()).rejects.toThrow(/401/);
      expect(refreshes).toBe(1);
      expect(assign).toHaveBeenCalledTimes(1);
    } finally {
      server.close();
    }
  });
});
