/*
 * The SSRF guard of integrations (lib/outbound.ts, issue #28 item 5): which hosts are refused in any
 * spelling, the settings' PATCH refusing them (without OUTBOUND_ALLOW_PRIVATE), and every client —
 * classifier, RDAP, CT, SMTP, DNS — refusing at connect time a name that resolves to a private address,
 * before a byte reaches the peer.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONFIG_MSG } from '@forpost/contract/configs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createMailer } from '../src/lib/mailer';
import {
  canonicalHost,
  createOutboundFetch,
  GUARDED,
  isForbiddenAddress,
  isForbiddenHost,
  OUTBOUND_MSG,
  OutboundRefusedError,
  settingReachesForbidden,
} from '../src/lib/outbound';
import { createClassifierService } from '../src/modules/classifier/index';
import { createCtClient } from '../src/modules/discovery/ct/client';
import { createRdapClient, type RdapFailure } from '../src/modules/discovery/rdap';
import { createResolver } from '../src/modules/discovery/resolver';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { startSmtp } from './smtp';

const OPEN = { allowPrivate: true };

describe('the address rule', () => {
  it.each([
    '169.254.169.254',
    '0.0.0.0',
    '0',
    '127.0.0.1',
    '127.1',
    '2130706433',
    '0x7f.1',
    '0x7f000001',
    '017700000001',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '[::1]',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    'localhost',
    'LocalHost.',
    'api.localhost',
  ])('refuses %s', (host) => {
    expect(isForbiddenHost(host)).toBe(true);
  });

  it.each(['8.8.8.8', '77.88.8.8', '2a00:1450:4010::1', 'rdap.example.ru', 'ml.forpost.local', 'localhost.example.com'])(
    'lets %s through (names are checked again when connecting)',
    (host) => {
      expect(isForbiddenHost(host)).toBe(false);
    },
  );

  it('reads numeric hosts the way the URL parser does, for smtp:// too', () => {
    expect(new URL('http://0:8080/').hostname).toBe('0.0.0.0');
    expect(new URL('smtp://0:25').hostname).toBe('0'); // not normalised for a non-special scheme…
    expect(canonicalHost('0')).toBe('0.0.0.0'); // …so the guard normalises it itself
    expect(canonicalHost('2130706433')).toBe('127.0.0.1');
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('[::ffff:127.0.0.1]')).toBe('::ffff:7f00:1');
  });

  it('finds the hosts of every integration setting', () => {
    expect(settingReachesForbidden('classifier_url', 'http://169.254.169.254/latest/meta-data/')).toBe(true);
    expect(settingReachesForbidden('classifier_url', 'https://ml.example.ru/classify')).toBe(false);
    expect(settingReachesForbidden('smtp_url', 'smtp://u:p@0:25')).toBe(true);
    expect(settingReachesForbidden('smtp_url', 'smtps://u:p@[::ffff:127.0.0.1]:465')).toBe(true);
    expect(settingReachesForbidden('smtp_url', 'smtp://u:p@smtp.yandex.ru:587')).toBe(false);
    expect(settingReachesForbidden('discovery_rdap_servers', 'ru=https://rdap.tcinet.ru/, *=http://2130706433/')).toBe(true);
    expect(settingReachesForbidden('discovery_rdap_servers', 'ru=https://rdap.tcinet.ru/')).toBe(false);
    expect(settingReachesForbidden('discovery_rdap_bootstrap', 'http://[::1]:8080/dns.json')).toBe(true);
    expect(settingReachesForbidden('discovery_ct_logs', 'https://ct.googleapis.com/logs/x/, http://0x7f.1:9/')).toBe(true);
    expect(settingReachesForbidden('discovery_dns_servers', '77.88.8.8, 127.0.0.53')).toBe(true);
    expect(settingReachesForbidden('discovery_dns_servers', '8.8.8.8, [::ffff:10.0.0.1]:53')).toBe(true);
    expect(settingReachesForbidden('discovery_dns_servers', '77.88.8.8, [2a02:6b8::feed:0ff]:53')).toBe(false);
    expect(settingReachesForbidden('product_name', '127.0.0.1')).toBe(false);
  });

  it('OUTBOUND_ALLOW_PRIVATE turns it off; SNAPSHOT_ALLOW_PRIVATE is its former name', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forpost-outbound-'));
    try {
      const env = { DATA_DIR: dir, SECRET: 'x'.repeat(32) };
      expect(loadConfig(env).outboundAllowPrivate).toBe(false);
      expect(loadConfig({ ...env, OUTBOUND_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
      expect(loadConfig({ ...env, SNAPSHOT_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
      expect(loadConfig({ ...env, SNAPSHOT_ALLOW_PRIVATE: '1', OUTBOUND_ALLOW_PRIVATE: '0' }).outboundAllowPrivate).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('connect time: a name resolving to a private address is refused before anything is sent', () => {
  let web: http.Server;
  let webUrl: string;
  let hits = 0;
  let tcp: Server;
  let tcpPort: number;
  let dials = 0;

  beforeAll(async () => {
    web = http.createServer((req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ tree_size: 1, timestamp: 1, path: req.url }));
    });
    web.on('connection', () => dials++);
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://localhost:${(web.address() as AddressInfo).port}`;
    tcp = createServer((s) => {
      dials++;
      s.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    tcpPort = (tcp.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => web.close(r));
    await new Promise((r) => tcp.close(r));
  });

  it('fetch: `localhost`, a rebinding name and a literal are refused; allowed with the switch', async () => {
    const before = dials;
    await expect(createOutboundFetch(GUARDED)(`${webUrl}/x`)).rejects.toBeInstanceOf(OutboundRefusedError);
    const rebinding = createOutboundFetch({ allowPrivate: false, resolve: async () => ['127.0.0.1'] });
    await expect(rebinding(`http://rdap.example.ru:${new URL(webUrl).port}/`)).rejects.toThrow(OUTBOUND_MSG.refused('127.0.0.1'));
    await expect(createOutboundFetch(GUARDED)(`http://0x7f.1:${new URL(webUrl).port}/`)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    expect(dials).toBe(before);
    const ok = await createOutboundFetch(OPEN)(`${webUrl}/y`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ path: '/y' });
  });

  it('a redirect to a private address is refused too', async () => {
    const hop = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    await new Promise<void>((r) => hop.listen(0, '127.0.0.1', r));
    try {
      // The rule narrowed to let this test reach its loopback peer: the metadata address it points to stays refused.
      const f = createOutboundFetch({ allowPrivate: false, forbidden: (ip) => ip !== '127.0.0.1' && isForbiddenAddress(ip) });
      const url = `http://localhost:${(hop.address() as AddressInfo).port}/`;
      expect((await f(url, { redirect: 'manual' })).status).toBe(302);
      await expect(f(url)).rejects.toThrow(OUTBOUND_MSG.refused('169.254.169.254'));
    } finally {
      await new Promise((r) => hop.close(r));
    }
  });

  it('CT log client', async () => {
    const before = hits;
    await expect(createCtClient({ url: webUrl, timeoutMs: 2000 }).getSth()).rejects.toThrow(/внутренней сети/);
    expect(hits).toBe(before);
    expect(await createCtClient({ url: webUrl, timeoutMs: 2000, outbound: OPEN }).getSth()).toEqual({
      treeSize: 1,
      timestamp: 1,
    });
  });

  it('RDAP client (servers and the bootstrap file)', async () => {
    const before = hits;
    const reasons: RdapFailure[] = [];
    const c = createRdapClient({ servers: { '*': webUrl }, timeoutMs: 2000, onFailure: (f) => reasons.push(f.reason) });
    expect(await c.lookup('sberbamk.com')).toBeNull();
    const b = createRdapClient({
      servers: {},
      bootstrapUrl: `${webUrl}/dns.json`,
      timeoutMs: 2000,
      onFailure: (f) => reasons.push(f.reason),
    });
    expect(await b.lookup('sberbamk.com')).toBeNull();
    expect(reasons).toEqual(['forbidden', 'bootstrap']);
    expect(hits).toBe(before);
  });

  it('DNS resolvers (address literals, refused before a query)', () => {
    const opts = { concurrency: 1, timeoutMs: 100, retries: 0, ratePerSecond: 10 };
    for (const server of ['127.0.0.1:5300', '[::ffff:127.0.0.1]:53', '169.254.169.254', '10.0.0.2'])
      expect(() => createResolver({ ...opts, servers: [server] })).toThrow(OutboundRefusedError);
    createResolver({ ...opts, servers: ['127.0.0.1:5300'], outbound: OPEN }).close();
  });

  it('SMTP of the settings: refused with the guard, delivered through the guarded socket with the switch', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'forpost-outbound-mail-'));
    const smtp = await startSmtp();
    try {
      const before = dials;
      const guarded = createMailer({ smtpUrl: `smtp://localhost:${tcpPort}`, from: 'a@forpost.ru', dataDir, outbound: GUARDED });
      await expect(guarded.send({ to: 'b@forpost.ru', subject: 'x', text: 'x' })).rejects.toThrow(/внутренней сети/);
      const numeric = createMailer({ smtpUrl: `smtp://0:${tcpPort}`, from: 'a@forpost.ru', dataDir, outbound: GUARDED });
      await expect(numeric.send({ to: 'b@forpost.ru', subject: 'x', text: 'x' })).rejects.toThrow(/0\.0\.0\.0/);
      expect(dials).toBe(before);
      const open = createMailer({
        smtpUrl: smtp.url.replace('127.0.0.1', 'localhost'),
        from: 'a@forpost.ru',
        dataDir,
        outbound: OPEN,
      });
      await open.send({ to: 'b@forpost.ru', subject: 'через защиту', text: 'x' });
      expect((await smtp.waitFor(1))[0]?.to).toEqual(['b@forpost.ru']);
    } finally {
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the settings (super admin, OUTBOUND_ALLOW_PRIVATE off)', () => {
  let ctx: TestContext;
  let sa: Client;

  beforeAll(async () => {
    ctx = await setupApp();
    sa = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  });

  const cases: [string, string][] = [];
  for (const url of [
    'http://169.254.169.254/',
    'http://0.0.0.0:80',
    'http://[::ffff:127.0.0.1]:1',
    'http://[::ffff:7f00:1]/',
    'http://0:8080',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://localhost:9000/',
  ]) {
    cases.push(['classifier_url', url]);
    cases.push(['discovery_rdap_bootstrap', url]);
    cases.push(['discovery_rdap_servers', `ru=https://rdap.example.ru/, *=${url}`]);
    cases.push(['discovery_ct_logs', `https://ct.example.com/log/, ${url}`]);
    cases.push(['smtp_url', url.replace(/^http:/, 'smtp:')]);
  }
  for (const dns of ['169.254.169.254', '0.0.0.0', '127.0.0.1:5300', '[::ffff:127.0.0.1]:53', '::1', '10.0.0.2'])
    cases.push(['discovery_dns_servers', `77.88.8.8, ${dns}`]);

  it.each(cases)('PATCH %s = %s → 400 in Russian, nothing stored', async (key, value) => {
    const r = await sa.patch(`/configs/${key}`, { value });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      message: CONFIG_MSG.privateAddress,
      data: { fields: { value: CONFIG_MSG.privateAddress } },
    });
    expect((await sa.get(`/configs/${key}`)).json().has_value).toBe(false);
  });

  it('POST refuses the same way; public addresses are accepted', async () => {
    const r = await sa.post('/configs', { key: 'classifier_url', value: 'http://169.254.169.254/' });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(CONFIG_MSG.privateAddress);
    for (const [key, value] of [
      ['classifier_url', 'https://ml.example.ru/classify'],
      ['discovery_dns_servers', '77.88.8.8, 8.8.8.8:53'],
      ['discovery_ct_logs', 'https://ct.googleapis.com/logs/us1/argon2026h1/'],
    ] as const)
      expect((await sa.patch(`/configs/${key}`, { value })).statusCode, key).toBe(200);
  });

  it('the classifier refuses, at connect time, a name that resolves to a private address', async () => {
    const hits: string[] = [];
    const stub = http.createServer((req, res) => {
      hits.push(String(req.url));
      res.end('{}');
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    try {
      const company = await createCompany(ctx, 'Outbound');
      const id = await insertEvent(ctx, {
        companyId: company.id,
        module: 'media',
        mlState: 'InQueueToML',
        data: { headline: 'Новость' },
      });
      const url = `http://localhost:${(stub.address() as AddressInfo).port}/classify`;
      const svc = createClassifierService({
        db: ctx.database.db,
        configs: { get: (async (k: string) => (k === 'classifier_url' ? url : '')) as never },
        log: { warn() {} },
      });
      await svc.runOnce();
      const ml = (await sa.get(`/modules/media/events/${id}/ml`)).json();
      expect(ml).toMatchObject({ ml_state: 'Failed', last_error: OUTBOUND_MSG.refused('127.0.0.1') });
      expect(hits).toEqual([]);
    } finally {
      await new Promise((r) => stub.close(r));
    }
  });
});
