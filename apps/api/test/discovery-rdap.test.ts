/*
 * RDAP lookups (apps/api/src/modules/discovery/rdap.ts) against real HTTP servers on 127.0.0.1
 * (test/peers/rdap-server.ts) answering registry-shaped JSON.
 */
import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRdapClient, type RdapFailure } from '../src/modules/discovery/rdap';
import { type RdapServer, recordedComDomain, startRdapServer } from './peers/rdap-server';

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
    const c = createRdapClient({ servers: { com: com.url }, timeoutMs: 500, onFailure: (f) => failures.push(f.reason) });
    expect(await c.lookup('example.ru')).toBeNull();
    expect(failures).toEqual(['no-server']);
    expect(com.requests.length).toBe(before);
  });

  it('a configured server that is not http(s) is refused', () => {
    expect(() => createRdapClient({ servers: { '*': 'ftp://127.0.0.1/' }, timeoutMs: 100 })).toThrow(/RDAP/);
  });
});
