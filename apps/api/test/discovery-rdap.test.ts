/*
 * RDAP lookups (apps/api/src/modules/discovery/rdap.ts) against real HTTP servers on 127.0.0.1
 * (test/peers/rdap-server.ts) answering registry-shaped JSON, and the RFC 9224 bootstrap: a local
 * «IANA» serving dns.json that names the local registries.
 */
import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRdapBootstrapCache,
  createRdapClient,
  parseRdapBootstrap,
  RDAP_BOOTSTRAP_RETRY_MS,
  RDAP_BOOTSTRAP_TTL_MS,
  type RdapFailure,
  rdapStatusRu,
} from '../src/modules/discovery/rdap';
import { type RdapServer, rdapBootstrapFile, recordedComDomain, startRdapServer } from './peers/rdap-server';

/** The peers listen on 127.0.0.1: the SSRF guard (lib/outbound.ts) is off for them, as OUTBOUND_ALLOW_PRIVATE does. */
const OPEN = { allowPrivate: true };

const IDN = domainToASCII('сбербанк-онлайн.рф');
let com: RdapServer;
let other: RdapServer;
let fallback: RdapServer;

beforeAll(async () => {
  other = await startRdapServer({ 'sberbank-online.com': { body: recordedComDomain('sberbank-online.com') } });
  com = await startRdapServer({
    'sberbank-online.com': { body: recordedComDomain('sberbank-online.com') },
    'sberbamk.com': {
      body: {
        objectClassName: 'domain',
        ldhName: 'sberbamk.com',
        status: ['active', 'active'],
        entities: [
          { objectClassName: 'entity', roles: ['registrant'], vcardArray: ['vcard', [['fn', {}, 'text', 'Private Person']]] },
          { objectClassName: 'entity', roles: ['registrar'], publicIds: [{ type: 'IANA Registrar ID', identifier: '3862' }] },
        ],
        events: [{ eventAction: 'registration', eventDate: '2026-11-20T00:00:00+03:00' }],
      },
    },
    'no-data.com': { body: { objectClassName: 'domain', ldhName: 'no-data.com' } },
    'slow.com': { body: recordedComDomain('slow.com'), delayMs: 10_000 },
    'broken.com': { body: { errorCode: 503, title: 'Service Unavailable' }, status: 503 },
    'not-json.com': { body: 'oops', status: 200 },
    'moved.com': { redirect: '/domain/sberbank-online.com' },
    'elsewhere.com': { redirect: `${other.url}/domain/sberbank-online.com` },
  });
  fallback = await startRdapServer({
    [IDN]: { body: { objectClassName: 'domain', ldhName: IDN, status: ['REGISTERED, DELEGATED, VERIFIED'] } },
  });
});
afterAll(async () => {
  await Promise.all([com.close(), other.close(), fallback.close()]);
});

function client(timeoutMs = 2_000) {
  const failures: { domain: string; reason: RdapFailure; status?: number }[] = [];
  const c = createRdapClient({
    servers: { com: `${com.url}/`, '*': fallback.url },
    timeoutMs,
    outbound: OPEN,
    onFailure: (f) => failures.push(f),
  });
  return { lookup: c.lookup, failures };
}

describe('RDAP lookup', () => {
  it('parses registrar (vcard fn), creation date and status of a registry-shaped answer', async () => {
    const { lookup } = client();
    expect(await lookup('sberbank-online.com')).toEqual({
      registrar: 'Registrar of Domain Names REG.RU LLC',
      created: '2026-10-02T09:14:51.000Z',
      status: ['client transfer prohibited', 'server hold'],
    });
    expect(com.requests).toContain('/domain/sberbank-online.com');
  });

  it('a registrar without vcard falls back to its public id; dates are normalised to UTC; status deduplicated', async () => {
    expect(await client().lookup('SberBamk.com.')).toEqual({
      registrar: 'IANA Registrar ID 3862',
      created: '2026-11-19T21:00:00.000Z',
      status: ['active'],
    });
  });

  it('status values read in Russian: RFC 9083 spelling and EPP camelCase; an unknown one stays as sent', () => {
    expect(rdapStatusRu('client transfer prohibited')).toBe('передача запрещена регистратором');
    expect(rdapStatusRu('clientTransferProhibited')).toBe('передача запрещена регистратором');
    expect(rdapStatusRu('Server Hold')).toBe('делегирование приостановлено реестром');
    expect(rdapStatusRu('ok')).toBe('активен');
    expect(rdapStatusRu('redemption period')).toBe('период восстановления после удаления');
    expect(rdapStatusRu('REGISTERED')).toBe('REGISTERED');
  });

  it('an answer without those fields gives nulls and no status', async () => {
    expect(await client().lookup('no-data.com')).toEqual({ registrar: null, created: null, status: [] });
  });

  it('the server is chosen by TLD, else the default; IDN names go as punycode', async () => {
    const before = com.requests.length;
    expect(IDN).toMatch(/^xn--[a-z0-9-]+\.xn--p1ai$/);
    expect(await client().lookup('сбербанк-онлайн.рф')).toEqual({
      registrar: null,
      created: null,
      status: ['REGISTERED, DELEGATED, VERIFIED'],
    });
    expect(fallback.requests).toEqual([`/domain/${IDN}`]);
    expect(com.requests.length).toBe(before);
  });

  it('404 → null', async () => {
    const { lookup, failures } = client();
    expect(await lookup('unknown.com')).toBeNull();
    expect(failures).toEqual([{ domain: 'unknown.com', reason: 'not-found', status: 404 }]);
  });

  it('5xx and non-JSON → null without throwing', async () => {
    const { lookup, failures } = client();
    expect(await lookup('broken.com')).toBeNull();
    expect(await lookup('not-json.com')).toBeNull();
    expect(failures.map((f) => f.reason)).toEqual(['http', 'invalid']);
  });

  it('a slow server → null at the timeout, without waiting for the answer', async () => {
    const { lookup, failures } = client(150);
    const before = com.requests.length;
    expect(await lookup('slow.com')).toBeNull();
    expect(failures).toEqual([{ domain: 'slow.com', reason: 'timeout', status: undefined }]);
    expect(com.requests.slice(before)).toEqual(['/domain/slow.com']);
  });

  it('a cancelled run gives up a lookup at once: null, no failure counted, nothing asked once aborted', async () => {
    const { lookup, failures } = client(20_000);
    const stop = new AbortController();
    const before = com.requests.length;
    const pending = lookup('slow.com', stop.signal);
    await com.waitForRequests(before + 1);
    const t = Date.now();
    stop.abort();
    expect(await pending).toBeNull();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(await lookup('sberbank-online.com', stop.signal)).toBeNull();
    expect(com.requests.slice(before)).toEqual(['/domain/slow.com']);
    expect(failures).toEqual([]);
  });

  it('a redirect on the same server is followed', async () => {
    expect((await client().lookup('moved.com'))?.registrar).toBe('Registrar of Domain Names REG.RU LLC');
  });

  it('a redirect to another host is not followed: no other host is contacted', async () => {
    const { lookup, failures } = client();
    expect(await lookup('elsewhere.com')).toBeNull();
    expect(failures).toEqual([{ domain: 'elsewhere.com', reason: 'redirect', status: 302 }]);
    expect(other.requests).toEqual([]);
  });

  it('no server for the TLD and no default → null, nothing contacted', async () => {
    const before = com.requests.length;
    const failures: RdapFailure[] = [];
    const c = createRdapClient({
      servers: { com: com.url },
      timeoutMs: 500,
      outbound: OPEN,
      onFailure: (f) => failures.push(f.reason),
    });
    expect(await c.lookup('example.ru')).toBeNull();
    expect(failures).toEqual(['no-server']);
    expect(com.requests.length).toBe(before);
  });

  it('a configured server that is not http(s) is refused', () => {
    expect(() => createRdapClient({ servers: { '*': 'ftp://127.0.0.1/' }, timeoutMs: 100 })).toThrow(/RDAP/);
  });
});

describe('RDAP bootstrap (RFC 9224)', () => {
  let iana: RdapServer; // serves the bootstrap files
  let comRegistry: RdapServer; // named by the bootstrap for com and net, base path /com/v1/
  let rfRegistry: RdapServer; // named for xn--p1ai (.рф)
  let redirector: RdapServer; // like rdap.org: only redirects
  let stranger: RdapServer; // neither configured nor in the bootstrap
  let explicit: RdapServer; // an explicit com= entry
  const DNS_JSON = '/rdap/dns.json';

  beforeAll(async () => {
    stranger = await startRdapServer({ 'sberbank-online.com': { body: recordedComDomain('sberbank-online.com') } });
    explicit = await startRdapServer({ 'sberbank-online.com': { body: { objectClassName: 'domain', status: ['ok'] } } });
    comRegistry = await startRdapServer({
      'sberbank-online.com': { body: recordedComDomain('sberbank-online.com') },
      'sberbank-online.net': { body: recordedComDomain('sberbank-online.net') },
    });
    rfRegistry = await startRdapServer({ [IDN]: { body: { objectClassName: 'domain', ldhName: IDN, status: ['REGISTERED'] } } });
    iana = await startRdapServer(
      {},
      {
        [DNS_JSON]: {
          body: rdapBootstrapFile([
            [['com', 'net'], [`${comRegistry.url}/com/v1/`]],
            [['XN--P1AI'], [`${rfRegistry.url}/`]],
            [['broken'], ['ftp://nowhere/']],
          ]),
        },
        '/down.json': { body: { error: 'internal' }, status: 500 },
        '/not-bootstrap.json': { body: { hello: 'world' } },
        '/moved.json': { redirect: `${stranger.url}${DNS_JSON}` },
      },
    );
    redirector = await startRdapServer({
      'sberbank-online.com': { redirect: `${comRegistry.url}/com/v1/domain/sberbank-online.com` },
      'to-stranger.com': { redirect: `${stranger.url}/domain/sberbank-online.com` },
      'to-other-zone.com': { redirect: `${rfRegistry.url}/domain/${IDN}` },
    });
  });
  afterAll(async () => {
    await Promise.all([iana, comRegistry, rfRegistry, redirector, stranger, explicit].map((p) => p.close()));
  });

  const bootstrapFetches = (path = DNS_JSON) => iana.requests.filter((p) => p === path).length;
  function bootClient(o: {
    servers?: Record<string, string>;
    file?: string;
    cache?: ReturnType<typeof createRdapBootstrapCache>;
  }) {
    const failures: { domain: string; reason: RdapFailure; status?: number }[] = [];
    const c = createRdapClient({
      servers: o.servers ?? {},
      bootstrapUrl: `${iana.url}${o.file ?? DNS_JSON}`,
      bootstrapCache: o.cache ?? createRdapBootstrapCache({ outbound: OPEN }),
      timeoutMs: 2_000,
      outbound: OPEN,
      onFailure: (f) => failures.push(f),
    });
    return { lookup: c.lookup, failures };
  }

  it('parses the services of a bootstrap file: zones as ASCII, https first, unusable URLs left out', () => {
    const b = parseRdapBootstrap(
      rdapBootstrapFile([
        [
          ['Com', '.NET.'],
          ['http://rdap.example.com/v1/', 'https://rdap.example.com/v1/'],
        ],
        [['рф'], ['https://rdap.example.ru/']],
        [['org'], ['ftp://rdap.example.org/', 'not a url']],
        [['bad-shape']] as unknown as [string[], string[]],
      ]),
    );
    expect(b && Object.fromEntries([...b].map(([z, urls]) => [z, urls.map((u) => u.href)]))).toEqual({
      com: ['https://rdap.example.com/v1/', 'http://rdap.example.com/v1/'],
      net: ['https://rdap.example.com/v1/', 'http://rdap.example.com/v1/'],
      'xn--p1ai': ['https://rdap.example.ru/'],
    });
    expect(parseRdapBootstrap({ hello: 'world' })).toBeNull();
    expect(parseRdapBootstrap([])).toBeNull();
  });

  it('the servers the file names for a zone are asked, under their base path; the file is fetched once', async () => {
    const cache = createRdapBootstrapCache({ outbound: OPEN });
    const before = bootstrapFetches();
    const { lookup, failures } = bootClient({ cache });
    expect((await lookup('sberbank-online.com'))?.registrar).toBe('Registrar of Domain Names REG.RU LLC');
    expect((await lookup('Sberbank-Online.NET'))?.status).toEqual(['client transfer prohibited', 'server hold']);
    expect(await lookup('сбербанк-онлайн.рф')).toMatchObject({ status: ['REGISTERED'] });
    expect(comRegistry.requests).toEqual(['/com/v1/domain/sberbank-online.com', '/com/v1/domain/sberbank-online.net']);
    expect(rfRegistry.requests).toEqual([`/domain/${IDN}`]);
    // Another client with the same cache (the next run) does not fetch it again.
    expect(await bootClient({ cache }).lookup('unknown.com')).toBeNull();
    expect(bootstrapFetches() - before).toBe(1);
    expect(failures).toEqual([]);
  });

  it('concurrent lookups share one fetch of the file', async () => {
    const before = bootstrapFetches();
    const { lookup } = bootClient({});
    const all = await Promise.all(['sberbank-online.com', 'sberbank-online.net', 'sberbank-online.com'].map((d) => lookup(d)));
    expect(all.every((x) => x?.registrar === 'Registrar of Domain Names REG.RU LLC')).toBe(true);
    expect(bootstrapFetches() - before).toBe(1);
  });

  it('an explicit zone=url entry overrides the file; a zone the file lacks takes «*», else no server', async () => {
    const beforeCom = comRegistry.requests.length;
    const { lookup, failures } = bootClient({ servers: { com: explicit.url, '*': stranger.url } });
    expect(await lookup('sberbank-online.com')).toEqual({ registrar: null, created: null, status: ['ok'] });
    expect(explicit.requests).toEqual(['/domain/sberbank-online.com']);
    expect(comRegistry.requests.length).toBe(beforeCom);
    // .org is in neither the explicit entries nor the file: the default.
    expect(await lookup('sberbank-online.org')).toBeNull();
    expect(stranger.requests).toEqual(['/domain/sberbank-online.org']);
    stranger.requests.length = 0;
    const none = bootClient({});
    expect(await none.lookup('sberbank-online.org')).toBeNull();
    expect(none.failures.map((f) => f.reason)).toEqual(['no-server']);
    expect(failures.map((f) => f.reason)).toEqual(['not-found']);
  });

  it('a redirect is followed to the zone’s bootstrap server, and refused to any other host', async () => {
    const { lookup, failures } = bootClient({ servers: { com: redirector.url } });
    // rdap.org-style: the configured server sends the client to the registry the file names for .com.
    expect((await lookup('sberbank-online.com'))?.registrar).toBe('Registrar of Domain Names REG.RU LLC');
    expect(comRegistry.requests.at(-1)).toBe('/com/v1/domain/sberbank-online.com');
    // A host that is neither configured nor in the file: refused, never contacted.
    expect(await lookup('to-stranger.com')).toBeNull();
    // The file names this server, but for another zone (.рф): refused too.
    const rfBefore = rfRegistry.requests.length;
    expect(await lookup('to-other-zone.com')).toBeNull();
    expect(failures).toEqual([
      { domain: 'to-stranger.com', reason: 'redirect', status: 302 },
      { domain: 'to-other-zone.com', reason: 'redirect', status: 302 },
    ]);
    expect(stranger.requests).toEqual([]);
    expect(rfRegistry.requests.length).toBe(rfBefore);
  });

  it('an unavailable file (5xx, not a bootstrap, a redirect) is a «bootstrap» failure, or the «*» server', async () => {
    for (const file of ['/down.json', '/not-bootstrap.json', '/moved.json']) {
      const { lookup, failures } = bootClient({ file });
      expect(await lookup('sberbank-online.com')).toBeNull();
      expect(failures.map((f) => f.reason)).toEqual(['bootstrap']);
    }
    expect(stranger.requests).toEqual([]); // the file's redirect was not followed
    const withDefault = bootClient({ file: '/down.json', servers: { '*': comRegistry.url } });
    expect(await withDefault.lookup('sberbank-online.com')).not.toBeNull();
    expect(comRegistry.requests.at(-1)).toBe('/domain/sberbank-online.com');
    expect(withDefault.failures).toEqual([]);
  });

  it('the file is kept for a day; a failed fetch is tried again after five minutes, not at every lookup', async () => {
    let now = 1_000_000;
    const cache = createRdapBootstrapCache({ now: () => now, outbound: OPEN });
    const url = `${iana.url}${DNS_JSON}`;
    const before = bootstrapFetches();
    expect(await cache.get(url, 2000)).not.toBeNull();
    now += RDAP_BOOTSTRAP_TTL_MS - 1;
    await cache.get(url, 2000);
    expect(bootstrapFetches() - before).toBe(1);
    now += 1;
    expect((await cache.get(url, 2000))?.get('com')?.[0]?.href).toBe(`${comRegistry.url}/com/v1/`);
    expect(bootstrapFetches() - before).toBe(2);

    const down = `${iana.url}/down.json`;
    const downBefore = bootstrapFetches('/down.json');
    expect(await cache.get(down, 2000)).toBeNull();
    now += RDAP_BOOTSTRAP_RETRY_MS - 1;
    expect(await cache.get(down, 2000)).toBeNull();
    expect(bootstrapFetches('/down.json') - downBefore).toBe(1);
    now += 1;
    await cache.get(down, 2000);
    expect(bootstrapFetches('/down.json') - downBefore).toBe(2);
  });

  it('a bootstrap address that is not http(s) is refused', () => {
    expect(() => createRdapClient({ servers: {}, bootstrapUrl: 'file:///etc/passwd', timeoutMs: 100 })).toThrow(/bootstrap/);
  });
});
