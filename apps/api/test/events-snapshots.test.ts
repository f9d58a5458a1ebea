/*
 * The domain snapshot producer against a real local HTTP server: titles in UTF-8 and CP1251,
 * redirects, 404, timeout, oversized bodies, failures recorded with a Russian reason, the SSRF guard,
 * the «Перепроверить» → pg-boss job → snapshot → GET snapshots path, screenshots and tenant isolation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../src/jobs';
import { isForbiddenAddress, PROBE_MSG, type probe as probeFn } from '../src/modules/snapshots/index';
import { probe } from '../src/modules/snapshots/probe';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

const sockets = new Set<import('node:net').Socket>();
let served = 0;
/** Requests that reached this server claiming to be for the metadata address (must stay 0). */
let metaHits = 0;
const server = http.createServer((req, res) => {
  served++;
  if (String(req.headers.host).startsWith('169.254.')) metaHits++;
  const host = String(req.headers.host ?? '').split(':')[0];
  const html = (title: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
  switch (host) {
    case 'utf8-site.ru':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(html('  Сбербанк &mdash; вход\n   в личный кабинет &amp; бонусы  '));
    case 'cp1251-site.ru':
      // No charset in the header: the <meta> says windows-1251.
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        iconv.encode(
          '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><title>Акция: бонусы для клиентов</title></head></html>',
          'win1251',
        ),
      );
    case 'redirect-site.ru':
      if (req.url === '/') {
        res.writeHead(302, { location: '/landing?from=root' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(html('После перенаправления'));
    case 'loop-site.ru':
      res.writeHead(301, { location: `/next${Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0) + 1}` });
      return res.end();
    case 'meta-redirect.ru':
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    case 'name-redirect.ru':
      res.writeHead(302, { location: 'http://intranet.corp.ru/' });
      return res.end();
    case 'missing-site.ru':
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(html('Страница не найдена'));
    case 'slow-site.ru':
      return; // never answers
    case 'big-site.ru': {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<html><head><title>Очень большая страница</title></head><body>');
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end('</body></html>');
      };
      return pump();
    }
    default:
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(html(`Сайт ${host}`));
  }
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});

let port = 0;
let ctx: TestContext;
let boss: PgBoss;
let admin: Client;
let aUser: Client;
let bUser: Client;
let A: { id: number };
const HOSTS = [
  'utf8-site.ru',
  'cp1251-site.ru',
  'redirect-site.ru',
  'loop-site.ru',
  'missing-site.ru',
  'meta-redirect.ru',
  'name-redirect.ru',
  'slow-site.ru',
  'big-site.ru',
  'shot-site.ru',
  'other-company.ru',
];
const base = '/modules/domains/events';

const opts = (o: Partial<Parameters<typeof probeFn>[1]> = {}): Parameters<typeof probeFn>[1] => ({
  timeoutMs: 3000,
  maxBytes: 256 * 1024,
  maxRedirects: 3,
  allowPrivate: true,
  hostMap: new Map(HOSTS.map((h) => [h, { ip: '127.0.0.1', port }])),
  ...o,
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  ctx = await setupApp({
    SNAPSHOT_ALLOW_PRIVATE: '1',
    SNAPSHOT_HOST_MAP: HOSTS.map((h) => `${h}=127.0.0.1:${port}`).join(','),
  });
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = await createCompany(ctx, 'Альфа');
  const B = await createCompany(ctx, 'Бета');
  aUser = await signedIn(ctx, 'a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  bUser = await signedIn(ctx, 'b@forpost.test', 'COMPANY_USER', [{ id: B.id, role: 'COMPANY_ANALYST' }]);
  // Checks in this file are quick; the slow site must hit the timeout.
  expect((await admin.post('/configs', { key: 'snapshot_timeout_seconds', value: 2 })).statusCode).toBe(201);
  expect((await admin.post('/configs', { key: 'snapshot_max_body_kb', value: 64 })).statusCode).toBe(201);
  expect((await admin.post('/configs', { key: 'snapshot_chromium_path', value: '/nonexistent/chromium' })).statusCode).toBe(201);
  boss = await startJobs(ctx.url, { warn() {} }, true);
  await ctx.app.services.snapshots.attach(boss, { work: true });
});

afterAll(async () => {
  await ctx?.app.services.snapshots.stop();
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

async function domainEvent(client: Client, domain: string) {
  const r = await client.post(base, { domain });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; company_id: number };
}

describe('probe: a real local HTTP server', () => {
  it('reads the status, final URL, IP and a UTF-8 title (entities decoded, whitespace trimmed)', async () => {
    const r = await probe('utf8-site.ru', opts());
    expect(r).toEqual({
      ip: '127.0.0.1',
      http_status: 200,
      final_url: `http://utf8-site.ru:${port}/`,
      page_title: 'Сбербанк — вход в личный кабинет & бонусы',
      error: null,
    });
  });

  it('reaches an IPv6 address and records it', async () => {
    const v6 = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>Сайт по IPv6</title>');
    });
    await new Promise<void>((r) => v6.listen(0, '::1', r));
    try {
      const p6 = (v6.address() as AddressInfo).port;
      const r = await probe('v6-site.ru', opts({ hostMap: new Map([['v6-site.ru', { ip: '::1', port: p6 }]]) }));
      expect(r).toMatchObject({
        ip: '::1',
        http_status: 200,
        page_title: 'Сайт по IPv6',
        final_url: `http://v6-site.ru:${p6}/`,
        error: null,
      });
      // Resolved (not mapped) AAAA answers are used too.
      const byDns = await probe(
        'v6-site.ru',
        opts({ hostMap: new Map([['other.ru', { ip: '127.0.0.1', port }]]), resolve: async () => ['::1'] }),
      );
      expect(byDns.ip).toBe('::1');
    } finally {
      await new Promise((r) => v6.close(r));
    }
  });

  it('decodes a CP1251 title from the <meta> charset', async () => {
    expect((await probe('cp1251-site.ru', opts())).page_title).toBe('Акция: бонусы для клиентов');
  });

  it('follows redirects up to the limit', async () => {
    const r = await probe('redirect-site.ru', opts());
    expect(r).toMatchObject({
      http_status: 200,
      final_url: `http://redirect-site.ru:${port}/landing?from=root`,
      page_title: 'После перенаправления',
    });
    const loop = await probe('loop-site.ru', opts({ maxRedirects: 3 }));
    expect(loop).toMatchObject({ http_status: null, error: PROBE_MSG.tooManyRedirects(3) });
  });

  it('records a 404 with its title', async () => {
    expect(await probe('missing-site.ru', opts())).toMatchObject({
      http_status: 404,
      page_title: 'Страница не найдена',
      error: null,
    });
  });

  it('gives up after the timeout with a Russian reason', async () => {
    const r = await probe('slow-site.ru', opts({ timeoutMs: 1000 }));
    expect(r).toMatchObject({ http_status: null, page_title: null, error: PROBE_MSG.timeout(1), ip: '127.0.0.1' });
  });

  it('reads only the start of an oversized page and says so', async () => {
    const r = await probe('big-site.ru', opts({ maxBytes: 64 * 1024 }));
    expect(r).toMatchObject({ http_status: 200, page_title: 'Очень большая страница', error: PROBE_MSG.tooLarge(64) });
  });

  it('records NXDOMAIN and no-address answers', async () => {
    const nx = await probe(
      'no-such-domain.ru',
      opts({ resolve: () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })) }),
    );
    expect(nx).toEqual({ ip: null, http_status: null, final_url: null, page_title: null, error: PROBE_MSG.nxdomain });
    const empty = await probe('empty-domain.ru', opts({ resolve: async () => [] }));
    expect(empty.error).toBe(PROBE_MSG.noAddress);
  });
});

describe('SSRF guard', () => {
  it('classifies private, loopback, link-local, metadata and mapped addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:0101::1',
      '224.0.0.1',
      'not-an-ip',
    ])
      expect(isForbiddenAddress(ip), ip).toBe(true);
    for (const ip of ['185.12.13.14', '8.8.8.8', '2a00:1450:4010:c05::65', '::ffff:8.8.8.8'])
      expect(isForbiddenAddress(ip), ip).toBe(false);
  });

  it('refuses a host that resolves to a private address, by DNS and by mapping', async () => {
    const byDns = await probe('rebind.ru', opts({ allowPrivate: false, hostMap: new Map(), resolve: async () => ['10.0.0.5'] }));
    expect(byDns.error).toBe(PROBE_MSG.forbidden('10.0.0.5'));
    expect(byDns.http_status).toBeNull();
    const mixed = await probe(
      'mixed.ru',
      opts({ allowPrivate: false, hostMap: new Map(), resolve: async () => ['127.0.0.1', '::1'] }),
    );
    expect(mixed.error).toBe(PROBE_MSG.forbidden('127.0.0.1'));
    const mapped = await probe('utf8-site.ru', opts({ allowPrivate: false }));
    expect(mapped).toMatchObject({ http_status: null, error: PROBE_MSG.forbidden('127.0.0.1') });
  });

  it('checks every redirect hop again: no redirect to the metadata address or a private network', async () => {
    // Loopback stands in for "the internet" here; everything else the guard refuses stays refused.
    const onlyLoopback = (ip: string) => ip !== '127.0.0.1' && isForbiddenAddress(ip);
    const toMeta = await probe('meta-redirect.ru', opts({ allowPrivate: false, forbidden: onlyLoopback }));
    expect(toMeta).toMatchObject({ http_status: null, error: PROBE_MSG.forbidden('169.254.169.254') });
    const toPrivateName = await probe(
      'name-redirect.ru',
      opts({ allowPrivate: false, forbidden: onlyLoopback, resolve: async () => ['10.1.2.3'] }),
    );
    expect(toPrivateName).toMatchObject({ http_status: null, error: PROBE_MSG.forbidden('10.1.2.3') });
    expect(metaHits).toBe(0);
    // The same site without redirects is fetched normally under that guard.
    expect((await probe('utf8-site.ru', opts({ allowPrivate: false, forbidden: onlyLoopback }))).http_status).toBe(200);
  });

  it('checks the address the socket connected to, not only the DNS answer', async () => {
    // A guard that passes the DNS answers (the pre-check and the connection's lookup) and then
    // changes its mind, as if the name had been rebound: the connected address is refused.
    const seen: string[] = [];
    const rebinding = (ip: string) => {
      seen.push(ip);
      return seen.length > 2;
    };
    const hits = served;
    const r = await probe('utf8-site.ru', opts({ allowPrivate: false, forbidden: rebinding }));
    expect(r).toMatchObject({ http_status: null, error: PROBE_MSG.forbidden('127.0.0.1') });
    expect(seen.length).toBe(3);
    expect(served).toBe(hits);
  });

  it('refuses an IP literal of the metadata service', async () => {
    const hop = await probe('169.254.169.254', opts({ allowPrivate: false, hostMap: new Map() }));
    expect(hop).toEqual({
      ip: null,
      http_status: null,
      final_url: null,
      page_title: null,
      error: PROBE_MSG.forbidden('169.254.169.254'),
    });
  });

  it('a server without the allowance records the refusal instead of fetching', async () => {
    const prod = await setupApp({ SNAPSHOT_HOST_MAP: `utf8-site.ru=127.0.0.1:${port}` });
    const c = await signedIn(prod, ADMIN.email, 'SUPER_ADMIN');
    const co = await createCompany(prod, 'Гамма');
    const ev = (await c.post(base, { company_id: co.id, domain: 'utf8-site.ru' })).json();
    const hits = served;
    const taken = await prod.app.services.snapshots.take(ev.id);
    expect(taken).toMatchObject({ http_status: null, page_title: null, error: PROBE_MSG.forbidden('127.0.0.1') });
    expect(served).toBe(hits); // the local server was never asked
    expect((await c.get(`${base}/snapshots/${ev.id}`)).json().items[0]).toMatchObject({
      error: PROBE_MSG.forbidden('127.0.0.1'),
    });
  });
});

describe('«Перепроверить» → job → snapshot → GET snapshots', () => {
  const waitSnapshots = async (client: Client, id: number, n: number) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const r = await client.get(`${base}/snapshots/${id}`);
      expect(r.statusCode, r.body).toBe(200);
      const items = r.json().items as Record<string, unknown>[];
      if (items.length >= n) return items;
      if (Date.now() > until) throw new Error(`no snapshot for event ${id}`);
      await new Promise((res) => setTimeout(res, 200));
    }
  };

  it('queues a check and records what the site answered, without a browser', async () => {
    const ev = await domainEvent(aUser, 'utf8-site.ru');
    const r = await aUser.post(`${base}/${ev.id}/actions`, { action: 'recheck' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ action: 'recheck', label: 'Перепроверить', snapshot_queued: true });
    const [s] = await waitSnapshots(aUser, ev.id, 1);
    expect(s).toMatchObject({
      event_id: ev.id,
      ip: '127.0.0.1',
      http_status: 200,
      page_title: 'Сбербанк — вход в личный кабинет & бонусы',
      final_url: `http://utf8-site.ru:${port}/`,
      screenshot_doc_id: null,
      error: null,
    });
    expect(Number.isNaN(Date.parse(String(s?.taken_at)))).toBe(false);
    const hist = (await aUser.get(`${base}/${ev.id}/history`)).json().items as {
      action: string;
      field: string;
      after: unknown;
    }[];
    expect(hist.find((h) => h.action === 'action' && h.field === 'recheck')?.after).toMatchObject({ snapshot_queued: true });
    // A second click in the same minute queues nothing: one browser per event and minute.
    const again = await aUser.post(`${base}/${ev.id}/actions`, { action: 'recheck' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ snapshot_queued: false, snapshot_throttled: true });
  });

  it('records failures with their Russian reason instead of losing them', async () => {
    const slow = await domainEvent(aUser, 'slow-site.ru');
    await aUser.post(`${base}/${slow.id}/actions`, { action: 'recheck' });
    const [s] = await waitSnapshots(aUser, slow.id, 1);
    expect(s).toMatchObject({ http_status: null, page_title: null, error: PROBE_MSG.timeout(2) });
    const missing = await domainEvent(aUser, 'missing-site.ru');
    await aUser.post(`${base}/${missing.id}/actions`, { action: 'recheck' });
    expect((await waitSnapshots(aUser, missing.id, 1))[0]).toMatchObject({ http_status: 404, error: null });
  });

  it('takes a PNG screenshot with Chromium and stores it as a screenshot doc of the company', async () => {
    expect((await admin.patch('/configs/snapshot_chromium_path', { value: '' })).statusCode).toBe(200);
    try {
      const ev = await domainEvent(aUser, 'shot-site.ru');
      await aUser.post(`${base}/${ev.id}/actions`, { action: 'recheck' });
      const [s] = await waitSnapshots(aUser, ev.id, 1);
      expect(s).toMatchObject({ http_status: 200, page_title: 'Сайт shot-site.ru', error: null });
      const docId = s?.screenshot_doc_id as number;
      expect(docId).toBeGreaterThan(0);
      const doc = (await aUser.get(`/docs/${docId}`)).json();
      expect(doc).toMatchObject({ kind: 'screenshot', mimetype: 'image/png', company_id: A.id, event_id: ev.id });
      const content = await aUser.get(`/docs/${docId}/content`);
      expect(content.statusCode).toBe(200);
      expect(content.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      // Another company's user sees neither the snapshots nor the screenshot.
      expect((await bUser.get(`${base}/snapshots/${ev.id}`)).statusCode).toBe(404);
      expect((await bUser.get(`/docs/${docId}/content`)).statusCode).toBe(404);
    } finally {
      await admin.patch('/configs/snapshot_chromium_path', { value: '/nonexistent/chromium' });
    }
  }, 60_000);

  it('keeps tenants apart: no recheck or snapshots of another company’s event', async () => {
    const ev = await domainEvent(aUser, 'other-company.ru');
    expect((await bUser.post(`${base}/${ev.id}/actions`, { action: 'recheck' })).statusCode).toBe(404);
    expect((await bUser.get(`${base}/snapshots/${ev.id}`)).statusCode).toBe(404);
    expect((await aUser.get(`${base}/snapshots/${ev.id}`)).json().items).toEqual([]);
    const viewer = await signedIn(ctx, 'av@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
    expect((await viewer.post(`${base}/${ev.id}/actions`, { action: 'recheck' })).statusCode).toBe(403);
    expect((await viewer.get(`${base}/snapshots/${ev.id}`)).statusCode).toBe(200);
  });

  it('with snapshot_on_create = 1 a new domain event gets a snapshot by itself', async () => {
    expect((await admin.post('/configs', { key: 'snapshot_on_create', value: 1 })).statusCode).toBe(201);
    try {
      const ev = await domainEvent(aUser, 'cp1251-site.ru');
      expect(await ctx.app.services.snapshots.sweep()).toBeGreaterThanOrEqual(1);
      const [s] = await waitSnapshots(aUser, ev.id, 1);
      expect(s).toMatchObject({ http_status: 200, page_title: 'Акция: бонусы для клиентов' });
    } finally {
      await admin.patch('/configs/snapshot_on_create', { value: 0 });
    }
    expect(await ctx.app.services.snapshots.sweep()).toBe(0);
  });
});
