/*
 * Discovery DNS resolution (apps/api/src/modules/discovery/resolver.ts) against a real UDP DNS server
 * on 127.0.0.1 (test/peers/dns-server.ts). Every assertion is on answers and on the server's counts.
 * Timeouts are generous where an answer must arrive (2 s) and short only where none will (dropped,
 * held), so a busy machine slows the file down but does not change a count.
 */
import { promises as dnsPromises } from 'node:dns';
import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenBucket } from '../src/modules/discovery/rate-limit';
import { createResolver, parseServer, type Resolution, type ResolverOptions } from '../src/modules/discovery/resolver';
import { type DnsServer, startDnsServer, type Zone } from './peers/dns-server';

/** The peers listen on 127.0.0.1: the SSRF guard (lib/outbound.ts) is off for them, as OUTBOUND_ALLOW_PRIVATE does. */
const OPEN = { allowPrivate: true };

const ZONE: Zone = {
  'sberbank-online.ru': {
    A: ['192.0.2.10', '192.0.2.11'],
    AAAA: ['2001:db8::10'],
    MX: ['20 mx2.sberbank-online.ru', '10 mx1.sberbank-online.ru'],
    NS: ['ns2.reg.ru', 'ns1.reg.ru'],
  },
  'sberbenk.ru': { CNAME: 'parking.hoster.net' },
  'parking.hoster.net': { CNAME: 'lb.hoster.net' },
  'lb.hoster.net': { A: ['198.51.100.7'], AAAA: ['2001:db8:0:1::7'] },
  'mx-only.ru': { MX: ['mail.mx-only.ru'] },
  'ns-only.ru': { NS: ['ns1.parking.example'] },
  'dangling.ru': { CNAME: 'gone.nowhere.ru' },
  'wild.ru': { A: ['203.0.113.1'] },
  '*.wild.ru': { A: ['203.0.113.1'] },
  'real.wild.ru': { A: ['203.0.113.99'] },
  '*.ws': { A: ['64.70.19.203'] },
  'sberbank.ws': { A: ['192.0.2.50'] },
  'broken.ru': { rcode: 'SERVFAIL' },
  'refused.ru': { rcode: 'REFUSED' },
  'flaky.ru': { A: ['192.0.2.77'], dropFirst: 1 },
  'servfail-once.ru': { A: ['192.0.2.78'], failFirst: 1 },
};

/** Time that passes only when the code under test sleeps. */
function virtualClock() {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

let dns: DnsServer;
const opened: { close(): void }[] = [];
const make = (o: Partial<ResolverOptions> = {}, internals = {}) => {
  const r = createResolver(
    { servers: [dns.server], concurrency: 10, timeoutMs: 2_000, retries: 1, ratePerSecond: 100_000, outbound: OPEN, ...o },
    internals,
  );
  opened.push(r);
  return r;
};

beforeAll(async () => {
  dns = await startDnsServer(ZONE);
});
afterAll(async () => {
  for (const r of opened) r.close();
  await dns.close();
});

describe('status mapping and records', () => {
  it('a registered name: A, AAAA, MX by preference, NS', async () => {
    const r = await make().resolve('Sberbank-Online.RU.');
    expect(r).toEqual({
      name: 'sberbank-online.ru',
      status: 'registered',
      a: ['192.0.2.10', '192.0.2.11'],
      aaaa: ['2001:db8::10'],
      cname: [],
      mx: ['mx1.sberbank-online.ru', 'mx2.sberbank-online.ru'],
      ns: ['ns1.reg.ru', 'ns2.reg.ru'],
      wildcard: false,
    } satisfies Resolution);
  });

  it('a CNAME chain is followed and reported in order', async () => {
    const r = await make().resolve('sberbenk.ru');
    expect(r.status).toBe('registered');
    expect(r.cname).toEqual(['parking.hoster.net', 'lb.hoster.net']);
    expect(r.a).toEqual(['198.51.100.7']);
    expect(r.aaaa).toEqual(['2001:db8:0:1::7']);
  });

  it('a name with only MX or only NS (NOERROR, no address) is registered', async () => {
    const resolver = make();
    const mx = await resolver.resolve('mx-only.ru');
    expect(mx).toMatchObject({ status: 'registered', a: [], mx: ['mail.mx-only.ru'], ns: [] });
    const ns = await resolver.resolve('ns-only.ru');
    expect(ns).toMatchObject({ status: 'registered', a: [], mx: [], ns: ['ns1.parking.example'] });
  });

  it('a CNAME into a missing name is registered (the CNAME exists) with its chain', async () => {
    const r = await make().resolve('dangling.ru');
    expect(r).toMatchObject({ status: 'registered', cname: ['gone.nowhere.ru'], a: [] });
  });

  it('NXDOMAIN costs one query; SERVFAIL is retried, REFUSED is an error', async () => {
    const resolver = make({ retries: 2 });
    dns.resetCounts();
    expect((await resolver.resolve('sberbamk.ru')).status).toBe('nxdomain');
    expect(dns.count('sberbamk.ru')).toBe(1);
    expect((await resolver.resolve('broken.ru')).status).toBe('servfail');
    expect(dns.count('broken.ru', 'A')).toBe(3);
    expect((await resolver.resolve('refused.ru')).status).toBe('error');
    expect(dns.count('refused.ru')).toBe(1);
    expect((await resolver.resolve('bad..name.ru')).status).toBe('error');
  });

  it('IDN input is resolved by its punycode', async () => {
    const ascii = domainToASCII('сбербанкк.рф');
    expect(ascii).toMatch(/^xn--[a-z0-9-]+\.xn--p1ai$/);
    dns.setRecord(ascii, { A: ['192.0.2.33'] });
    const r = await make().resolve('сбербанкк.рф');
    expect(r).toMatchObject({ name: ascii, status: 'registered', a: ['192.0.2.33'] });
  });
});

describe('the test server checked by an independent DNS implementation', () => {
  // Node's own resolver (c-ares) against the same server: the wire codec (dns-wire.ts) both encodes the
  // server's answers and decodes them in our client, so a symmetric mistake would pass every test above.
  const nodeResolver = () => {
    const r = new dnsPromises.Resolver({ timeout: 2_000, tries: 1 });
    r.setServers([dns.server]);
    return r;
  };

  it('c-ares reads A, AAAA, MX, NS and CNAME answers as our client does', async () => {
    const r = nodeResolver();
    expect((await r.resolve4('sberbank-online.ru')).sort()).toEqual(['192.0.2.10', '192.0.2.11']);
    expect(await r.resolve6('sberbank-online.ru')).toEqual(['2001:db8::10']);
    expect((await r.resolveMx('sberbank-online.ru')).sort((a, b) => a.priority - b.priority)).toEqual([
      { exchange: 'mx1.sberbank-online.ru', priority: 10 },
      { exchange: 'mx2.sberbank-online.ru', priority: 20 },
    ]);
    expect((await r.resolveNs('sberbank-online.ru')).sort()).toEqual(['ns1.reg.ru', 'ns2.reg.ru']);
    expect(await r.resolveCname('sberbenk.ru')).toEqual(['parking.hoster.net']);
    // The chain in one answer: c-ares follows it to the addresses, with TTLs as sent.
    const withTtl = await r.resolve4('sberbenk.ru', { ttl: true });
    expect(withTtl.map((x) => x.address)).toEqual(['198.51.100.7']);
    expect(withTtl[0]?.ttl).toBeGreaterThan(0);
    // The same names through our client give the same records.
    const ours = await make().resolve('sberbank-online.ru');
    expect(ours).toMatchObject({ a: ['192.0.2.10', '192.0.2.11'], aaaa: ['2001:db8::10'], ns: ['ns1.reg.ru', 'ns2.reg.ru'] });
  });

  it('c-ares sees wildcards, IDN names, NXDOMAIN, SERVFAIL and REFUSED as the server means them', async () => {
    const r = nodeResolver();
    expect(await r.resolve4('anything-at-all.wild.ru')).toEqual(['203.0.113.1']);
    expect(await r.resolve4('real.wild.ru')).toEqual(['203.0.113.99']);
    const ascii = domainToASCII('сбербанк-ц.рф');
    dns.setRecord(ascii, { A: ['192.0.2.34'] });
    expect(await r.resolve4(ascii)).toEqual(['192.0.2.34']);
    expect(await r.resolveMx('mx-only.ru')).toEqual([{ exchange: 'mail.mx-only.ru', priority: 10 }]);
    await expect(r.resolve4('no-such-name.ru')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(r.resolve4('broken.ru')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    await expect(r.resolve4('refused.ru')).rejects.toMatchObject({ code: 'EREFUSED' });
    // A name that exists with no A record: NOERROR without answers (c-ares: ENODATA), not NXDOMAIN.
    await expect(r.resolve4('mx-only.ru')).rejects.toMatchObject({ code: 'ENODATA' });
  });
});

describe('timeouts and retries', () => {
  it('a slow name times out after 1 + retries tries without waiting for the late answer', async () => {
    const own = await startDnsServer({ 'slow.ru': { A: ['192.0.2.99'], delayMs: 5_000 } });
    try {
      const r = await make({ servers: [own.server], retries: 1, timeoutMs: 300 }).resolve('slow.ru');
      expect(r.status).toBe('timeout');
      expect(own.count('slow.ru', 'A')).toBe(2);
      // Both answers are still held by the server: the resolver returned before either.
      expect(own.inFlight).toBe(2);
    } finally {
      await own.close();
    }
  });

  it('a dropped first query is retried and then answered', async () => {
    const resolver = make({ retries: 1, timeoutMs: 400 });
    dns.resetCounts();
    const r = await resolver.resolve('flaky.ru');
    expect(r).toMatchObject({ status: 'registered', a: ['192.0.2.77'] });
    expect(dns.count('flaky.ru', 'A')).toBe(2);
  });

  it('without retries the dropped query is a timeout', async () => {
    dns.setRecord('flaky2.ru', { A: ['192.0.2.79'], dropFirst: 1 });
    const r = await make({ retries: 0, timeoutMs: 300 }).resolve('flaky2.ru');
    expect(r.status).toBe('timeout');
  });

  it('a SERVFAIL once is retried into an answer', async () => {
    dns.resetCounts();
    const r = await make({ retries: 1 }).resolve('servfail-once.ru');
    expect(r).toMatchObject({ status: 'registered', a: ['192.0.2.78'] });
    expect(dns.count('servfail-once.ru', 'A')).toBe(2);
  });

  it('retries go to the next configured server, and only to configured servers', async () => {
    const dead = await startDnsServer({ '*': { dropFirst: Number.MAX_SAFE_INTEGER } });
    try {
      const resolver = make({ servers: [dead.server, dns.server], retries: 2, timeoutMs: 400 });
      dns.resetCounts();
      const names = ['sberbank-online.ru', 'sberbenk.ru', 'nx-1.ru', 'nx-2.ru'];
      const got: Resolution[] = [];
      const sum = await resolver.resolveMany(names, (r) => {
        got.push(r);
      });
      expect(sum).toMatchObject({ total: 4, registered: 2, errors: 0 });
      expect(dead.count()).toBeGreaterThan(0);
      // Every query the dead server swallowed was asked again at the good one.
      for (const q of dead.queries) expect(dns.count(q.name, q.type)).toBeGreaterThan(0);
    } finally {
      await dead.close();
    }
  });
});

describe('wildcard parents', () => {
  it('names answered by a wildcard are flagged and not counted; distinct answers are', async () => {
    const resolver = make();
    dns.resetCounts();
    const names = [
      'sberbank-online.wild.ru',
      'sberbank.wild.ru',
      'real.wild.ru',
      'login.sberbank.wild.ru',
      'sberbank-online.ru',
      'sberbamk.ru',
    ];
    const got = new Map<string, Resolution>();
    const sum = await resolver.resolveMany(names, (r) => {
      got.set(r.name, r);
    });
    expect(sum.total).toBe(6);
    expect(sum.wildcardParents).toEqual(['sberbank.wild.ru', 'wild.ru']);
    expect(sum.registered).toBe(2); // real.wild.ru, sberbank-online.ru
    expect(got.get('sberbank-online.wild.ru')).toMatchObject({ status: 'registered', wildcard: true });
    expect(got.get('login.sberbank.wild.ru')?.wildcard).toBe(true);
    expect(got.get('real.wild.ru')).toMatchObject({ status: 'registered', wildcard: false, a: ['203.0.113.99'] });
    expect(got.get('sberbank-online.ru')?.wildcard).toBe(false);
    // A wildcard echo costs one query (A), no AAAA/MX/NS flood.
    expect(dns.count('sberbank-online.wild.ru')).toBe(1);
    // One probe per distinct parent.
    expect(dns.queries.filter((q) => q.name.startsWith('fp-') && q.name.endsWith('.wild.ru') && q.type === 'A')).toHaveLength(2);
  });

  it('a wildcard TLD is detected too', async () => {
    const got = new Map<string, Resolution>();
    const sum = await make().resolveMany(['sberbanc.ws', 'sberbank.ws', 'sberbank.ru'], (r) => {
      got.set(r.name, r);
    });
    expect(sum.wildcardParents).toEqual(['ws']);
    expect(got.get('sberbanc.ws')?.wildcard).toBe(true);
    expect(got.get('sberbank.ws')).toMatchObject({ status: 'registered', wildcard: false });
    expect(sum.registered).toBe(1);
  });

  it('resolve() alone also checks the parent', async () => {
    expect((await make().resolve('anything.wild.ru')).wildcard).toBe(true);
  });
});

describe('concurrency, rate and abort', () => {
  it('queries in flight at the server never exceed the concurrency setting', async () => {
    const resolver = make({ concurrency: 4 });
    // Registered names ask AAAA, MX and NS at once: 4 names in progress could have 12 queries out.
    const names = Array.from({ length: 40 }, (_, i) => `reg-conc-${i}.ru`);
    for (const n of names) dns.setRecord(n, { A: ['192.0.2.1'], MX: [`mx.${n}`], NS: ['ns1.reg.ru'] });
    names.push(...Array.from({ length: 20 }, (_, i) => `nx-conc-${i}.ru`));
    dns.setDelay(15);
    dns.resetCounts();
    try {
      const sum = await resolver.resolveMany(names, () => {});
      expect(sum).toMatchObject({ total: 60, registered: 40, errors: 0 });
    } finally {
      dns.setDelay(0);
    }
    expect(dns.count()).toBe(1 + 40 * 4 + 20); // the probe of 'ru', A/AAAA/MX/NS per registered name, A per NXDOMAIN
    expect(dns.maxInFlight).toBe(4);
  });

  it('every query takes a token: virtual time spent equals the count the server saw / rate', async () => {
    const clock = virtualClock();
    const resolver = make({ ratePerSecond: 5, concurrency: 8 }, { clock });
    dns.resetCounts();
    await resolver.resolveMany(
      Array.from({ length: 12 }, (_, i) => `nx-rate-${i}.ru`),
      () => {},
    );
    expect(dns.count()).toBe(13);
    // Bucket of 1 token at 5/s: the 2nd … 13th query each waited 200 ms of (virtual) time.
    expect(clock.t).toBeCloseTo(12 * 200, 6);
  });

  it('the token bucket never hands out more than capacity + t·rate over any window', async () => {
    const clock = virtualClock();
    const bucket = createTokenBucket(10, 3, clock);
    const at: number[] = [];
    await Promise.all(Array.from({ length: 40 }, () => bucket.take().then(() => at.push(clock.t))));
    for (const start of at) {
      const inWindow = at.filter((x) => x >= start && x < start + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(3 + 10);
    }
    expect(at.slice(0, 3)).toEqual([0, 0, 0]);
    expect(at[39]).toBeCloseTo(3700, 6);
  });

  it('abort stops the run: rejects, no more results, no more queries', async () => {
    const resolver = make({ concurrency: 2 });
    const names = Array.from({ length: 200 }, (_, i) => `nx-abort-${i}.ru`);
    const ctl = new AbortController();
    dns.setDelay(10);
    dns.resetCounts();
    let results = 0;
    const run = resolver.resolveMany(
      names,
      () => {
        results++;
      },
      ctl.signal,
    );
    await dns.waitForQueries(6);
    ctl.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    dns.setDelay(0);
    expect(results).toBeLessThan(200);
    // At the abort the server had 6 queries and at most `concurrency` (2) more were unanswered; after
    // that nothing is sent: a fresh resolver's two queries (probe of 'ru', the name) are all that follow.
    expect((await make().resolve('sberbamk.ru')).status).toBe('nxdomain');
    expect(dns.count()).toBeLessThanOrEqual(6 + 2 + 2);
  });

  it('an already aborted signal rejects at once', async () => {
    await expect(make().resolveMany(['a.ru'], () => {}, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('an onResult failure stops the run with that error', async () => {
    const boom = new Error('boom');
    await expect(
      make().resolveMany(['nx-x1.ru', 'nx-x2.ru'], () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });
});

describe('configuration', () => {
  it('server strings with and without ports', () => {
    expect(parseServer('8.8.8.8')).toEqual({ address: '8.8.8.8', port: 53, family: 4 });
    expect(parseServer('127.0.0.1:5300')).toEqual({ address: '127.0.0.1', port: 5300, family: 4 });
    expect(parseServer('[::1]:5300')).toEqual({ address: '::1', port: 5300, family: 6 });
    expect(parseServer('2001:db8::1')).toEqual({ address: '2001:db8::1', port: 53, family: 6 });
    expect(() => parseServer('dns.google')).toThrow(/Некорректный адрес DNS-сервера/);
    expect(() => parseServer('1.2.3.4:99999')).toThrow(/Некорректный адрес/);
  });
});
