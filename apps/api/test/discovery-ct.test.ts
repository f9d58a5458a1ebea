/*
 * Certificate Transparency for discovery (#17): the RFC 6962 client and leaf parser against a real log
 * peer on 127.0.0.1 serving generated certificates and precertificates, the follower (batches, resume
 * after a restart, growth, failure) and the name matcher.
 */

import { createHash, X509Certificate } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CtLogError, createCtClient } from '../src/modules/discovery/ct/client';
import { CtFollowError, followLog } from '../src/modules/discovery/ct/follow';
import { createMatcher } from '../src/modules/discovery/ct/match';
import { type CtEntry, parseLeaf } from '../src/modules/discovery/ct/parse';
import { CT_POISON_OID, createTestCa, issueCertificate, type TestCert } from './peers/certs';
import { type CtLogPeer, ctEntryOf, startCtLog } from './peers/ct-log-server';

/** The peers listen on 127.0.0.1: the SSRF guard (lib/outbound.ts) is off for them, as OUTBOUND_ALLOW_PRIVATE does. */
const OPEN = { allowPrivate: true };

const ca = createTestCa({ cn: 'Forpost Test CA', o: 'Forpost, Test' });
const many = (n: number, from = 0): TestCert[] =>
  Array.from({ length: n }, (_, i) =>
    issueCertificate(ca, { sans: [`host${from + i}.example.net`], precert: (from + i) % 3 === 0 }),
  );

const peers: CtLogPeer[] = [];
const startLog = async (opts: Parameters<typeof startCtLog>[0]) => {
  const p = await startCtLog(opts);
  peers.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(peers.map((p) => p.close()));
});

/** Follows `log` from `from`, collecting every entry index handed to onBatch and the persisted indexes. */
async function collect(log: CtLogPeer, from: number, batchSize: number, onEach?: (batchNo: number) => void) {
  const client = createCtClient({ url: log.url, timeoutMs: 5000, outbound: OPEN });
  const seen: number[] = [];
  const saved: number[] = [];
  let batchNo = 0;
  const result = await followLog({
    client,
    from,
    batchSize,
    onBatch: async (entries, next) => {
      seen.push(...entries.map((e) => e.index));
      saved.push(next);
      onEach?.(++batchNo);
    },
  });
  return { seen, saved, result };
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('CT client and leaf parser', () => {
  let log: CtLogPeer;
  let cert: TestCert;
  let precert: TestCert;
  beforeAll(async () => {
    cert = issueCertificate(ca, {
      sans: ['WWW.Example.com', '*.example.com', 'example.com', 'xn--e1afmkfd.xn--p1ai', 'mail.example.com.'],
      cn: 'Пример.РФ',
      serial: '00ff10',
      notBefore: new Date('2026-02-03T04:05:06Z'),
      notAfter: new Date('2026-05-04T03:02:01Z'),
    });
    precert = issueCertificate(ca, {
      sans: ['sberbank-online.ru', 'www.sberbank-online.ru'],
      cn: 'Sberbank Online LLC',
      serial: '7a0b',
      precert: true,
    });
    log = await startLog({ entries: [cert, precert] });
  });

  it('the test certificates are real X.509, signed by the CA; the precertificate carries the poison', () => {
    const caCert = new X509Certificate(ca.der);
    const x = new X509Certificate(cert.der);
    expect(x.verify(caCert.publicKey)).toBe(true);
    expect(x.subjectAltName).toContain('DNS:xn--e1afmkfd.xn--p1ai');
    const p = new X509Certificate(precert.der);
    expect(p.verify(caCert.publicKey)).toBe(true);
    // The poison OID, DER-encoded, is inside the precertificate and not inside the ordinary certificate.
    const poison = Buffer.from('060a2b06010401d679020403', 'hex');
    expect(CT_POISON_OID).toBe('1.3.6.1.4.1.11129.2.4.3');
    expect(precert.der.includes(poison)).toBe(true);
    expect(cert.der.includes(poison)).toBe(false);
    // A certificate with a public web certificate's extensions is valid too, and parses the same.
    const web = issueCertificate(ca, { sans: ['shop.example.org'], web: true });
    const w = new X509Certificate(web.der);
    expect(w.verify(caCert.publicKey)).toBe(true);
    expect(w.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(w.infoAccess).toContain('OCSP - URI:http://ocsp.test-ca.example');
    expect(parseLeaf(7, Buffer.from(ctEntryOf(web).leaf_input, 'base64'))).toMatchObject({
      index: 7,
      names: ['shop.example.org'],
    });
  });

  it('the log peer encodes RFC 6962: precert leaf, PrecertChainEntry, Merkle tree hash', async () => {
    const get = async (path: string) => (await fetch(`${log.url}/ct/v1/${path}`)).json();
    const { entries } = (await get('get-entries?start=0&end=1')) as { entries: { leaf_input: string; extra_data: string }[] };
    const [l0, l1] = entries.map((e) => Buffer.from(e.leaf_input, 'base64')) as [Buffer, Buffer];
    const sha = (...b: Buffer[]) => createHash('sha256').update(Buffer.concat(b)).digest();
    // precert_entry: type 1, issuer_key_hash = SHA-256 of the CA's SubjectPublicKeyInfo
    expect(l1.readUInt16BE(10)).toBe(1);
    expect(l1.subarray(12, 44)).toEqual(sha(ca.spki));
    // extra_data: pre_certificate (the poisoned precertificate) then the chain with the CA
    const extra = Buffer.from(entries[1]?.extra_data ?? '', 'base64');
    const preLen = extra.readUIntBE(0, 3);
    expect(extra.subarray(3, 3 + preLen)).toEqual(precert.der);
    const chain = extra.subarray(3 + preLen + 3);
    expect(chain.subarray(3)).toEqual(ca.der);
    const sth = (await get('get-sth')) as { tree_size: number; sha256_root_hash: string };
    const root = sha(Buffer.from([1]), sha(Buffer.from([0]), l0), sha(Buffer.from([0]), l1));
    expect(sth).toMatchObject({ tree_size: 2, sha256_root_hash: root.toString('base64') });
  });

  it('reads the STH and parses a certificate entry', async () => {
    const client = createCtClient({ url: `${log.url}/`, timeoutMs: 5000, outbound: OPEN });
    expect((await client.getSth()).treeSize).toBe(2);
    const [e] = await client.getEntries(0, 0);
    expect(e).toEqual<CtEntry>({
      index: 0,
      // lower case, wildcard kept as its base (deduplicated with example.com), trailing dot dropped, IDN CN → punycode
      names: ['www.example.com', 'example.com', 'xn--e1afmkfd.xn--p1ai', 'mail.example.com'],
      issuer: 'CN=Forpost Test CA, O=Forpost\\, Test, C=RU',
      notBefore: '2026-02-03T04:05:06.000Z',
      notAfter: '2026-05-04T03:02:01.000Z',
      precert: false,
      serial: 'ff10',
      // The fingerprint a TLS client sees for this certificate (the watch compares the two).
      fingerprint: new X509Certificate(cert.der).fingerprint256,
    });
  });

  it('parses a precertificate entry from its TBSCertificate; a CN that is not a host name is not a name', async () => {
    const client = createCtClient({ url: log.url, timeoutMs: 5000, outbound: OPEN });
    const batch = await client.getEntries(1, 1);
    expect(batch.fetched).toBe(1);
    expect(batch.parseErrors).toBe(0);
    expect(batch[0]).toMatchObject({
      index: 1,
      names: ['sberbank-online.ru', 'www.sberbank-online.ru'],
      issuer: 'CN=Forpost Test CA, O=Forpost\\, Test, C=RU',
      precert: true,
      serial: '7a0b',
    });
  });

  it('a corrupt entry is skipped and counted, the rest of the batch is parsed', async () => {
    const bad = await startLog({ entries: [cert] });
    bad.appendRaw([
      { leaf_input: Buffer.from([0, 0, 1, 2, 3]).toString('base64'), extra_data: '' }, // cut short
      { leaf_input: Buffer.concat([Buffer.alloc(10), Buffer.from([0, 7])]).toString('base64'), extra_data: '' }, // entry type 7
      { leaf_input: Buffer.concat([Buffer.alloc(12), Buffer.from([0, 0, 3, 1, 2, 3])]).toString('base64'), extra_data: '' }, // not DER
    ]);
    bad.append([precert]);
    const client = createCtClient({ url: bad.url, timeoutMs: 5000, outbound: OPEN });
    const batch = await client.getEntries(0, 4);
    expect(batch.fetched).toBe(5);
    expect(batch.parseErrors).toBe(3);
    expect(batch.map((e) => e.index)).toEqual([0, 4]);
    const { result, seen } = await collect(bad, 0, 10);
    expect(result).toMatchObject({ processed: 5, nextIndex: 5, parseErrors: 3 });
    expect(seen).toEqual([0, 4]);
  });

  it('errors of the log are Russian CtLogErrors: 5xx, not JSON, a timeout, a refused connection', async () => {
    const client = createCtClient({ url: log.url, timeoutMs: 5000, outbound: OPEN });
    log.failNext(1, '500');
    await expect(client.getSth()).rejects.toThrow(/ответил ошибкой 500 на get-sth/);
    log.failNext(1, 'json');
    await expect(client.getEntries(0, 1)).rejects.toThrow(/вернул не JSON/);
    await expect(client.getEntries(5, 9)).rejects.toThrow(/ответил ошибкой 400/);
    const silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const slowUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    await expect(createCtClient({ url: slowUrl, timeoutMs: 200, outbound: OPEN }).getSth()).rejects.toThrow(
      /не ответил за 200 мс/,
    );
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
    const refused = createCtClient({ url: slowUrl, timeoutMs: 2000, outbound: OPEN }).getSth();
    await expect(refused).rejects.toBeInstanceOf(CtLogError);
    await expect(refused).rejects.toThrow(/недоступен/);
  });
});

describe('CT log follower', () => {
  const certs = many(100);

  it('reads in batches of batchSize, and follows the log when it answers fewer entries', async () => {
    const log = await startLog({ entries: certs, maxEntries: 32 });
    const small = await collect(log, 0, 25);
    expect(small.saved).toEqual([25, 50, 75, 100]);
    expect(small.seen).toEqual(range(0, 100));
    expect(small.result).toMatchObject({ processed: 100, nextIndex: 100, parseErrors: 0 });
    expect(small.result.perSecond).toBeGreaterThan(0);
    // batchSize above the log's limit: the log returns 32 at a time, the follower goes on from there.
    const big = await collect(log, 10, 50);
    expect(big.saved).toEqual([42, 74, 100]);
    expect(big.seen).toEqual(range(10, 100));
  });

  it('resumes from the persisted index after a restart: no entry twice, none skipped', async () => {
    const log = await startLog({ entries: certs, maxEntries: 32 });
    const client = createCtClient({ url: log.url, timeoutMs: 5000, outbound: OPEN });
    const seen: number[] = [];
    let persisted = 0;
    const stop = new AbortController();
    const first = await followLog({
      client,
      from: 0,
      batchSize: 20,
      signal: stop.signal,
      onBatch: async (entries, next) => {
        seen.push(...entries.map((e) => e.index));
        persisted = next;
        if (next >= 40) stop.abort(); // the process stops after the second batch
      },
    });
    expect(first).toMatchObject({ processed: 40, nextIndex: 40 });
    expect(persisted).toBe(40);
    const second = await collect(log, persisted, 20);
    seen.push(...second.seen);
    expect(second.result).toMatchObject({ processed: 60, nextIndex: 100 });
    expect(seen).toEqual(range(0, 100));
  });

  it('stops when aborted during a request, after the last batch handed over', async () => {
    const log = await startLog({ entries: certs, maxEntries: 32 });
    const stop = new AbortController();
    const seen: number[] = [];
    const result = await followLog({
      client: createCtClient({ url: log.url, timeoutMs: 60_000, outbound: OPEN }),
      from: 0,
      batchSize: 20,
      signal: stop.signal,
      onBatch: async (entries, next) => {
        seen.push(...entries.map((e) => e.index));
        if (next === 40) void log.holdNext().then(() => stop.abort()); // the third request hangs, then the job is stopped
      },
    });
    expect(result).toMatchObject({ processed: 40, nextIndex: 40 });
    expect(seen).toEqual(range(0, 40));
  });

  it('keeps up with a log that grows during the follow', async () => {
    const log = await startLog({ entries: certs.slice(0, 30), maxEntries: 32 });
    const more = many(25, 1000);
    const { seen, saved, result } = await collect(log, 0, 10, (batchNo) => {
      if (batchNo === 1) log.append(more.slice(0, 15)); // grows while the follower is still behind
      if (batchNo === 5) log.append(more.slice(15)); // grows again after it caught up with the first STH
    });
    expect(result).toMatchObject({ processed: 55, nextIndex: 55 });
    expect(seen).toEqual(range(0, 55));
    expect(saved.at(-1)).toBe(55);
    // Caught up and the log did not grow: the next follow reads the STH and nothing else.
    const before = log.entriesRequests;
    expect((await collect(log, 55, 10)).result.processed).toBe(0);
    expect(log.entriesRequests).toBe(before);
  });

  it('a failing log stops the follow after the last persisted batch; the next follow goes on from there', async () => {
    const log = await startLog({ entries: certs, maxEntries: 32 });
    const client = createCtClient({ url: log.url, timeoutMs: 5000, outbound: OPEN });
    const seen: number[] = [];
    let persisted = 0;
    const follow = (from: number) =>
      followLog({
        client,
        from,
        batchSize: 30,
        onBatch: async (entries, next) => {
          seen.push(...entries.map((e) => e.index));
          persisted = next;
          if (next === 60) log.failNext(1, '500');
        },
      });
    const err = await follow(0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CtFollowError);
    expect((err as CtFollowError).message).toMatch(/ответил ошибкой 500/);
    expect((err as CtFollowError).result).toMatchObject({ processed: 60, nextIndex: 60 });
    expect(persisted).toBe(60);

    log.setFailing(true);
    await expect(follow(persisted)).rejects.toThrow(/get-sth/);
    log.setFailing(false);
    log.failNext(1, 'json');
    await expect(follow(persisted)).rejects.toThrow(/не JSON/);
    expect(persisted).toBe(60);

    const rest = await follow(persisted);
    expect(rest).toMatchObject({ processed: 40, nextIndex: 100 });
    expect(seen).toEqual(range(0, 100));
  });
});

describe('CT name matcher', () => {
  const matcher = createMatcher({
    domains: ['sberbank.ru', 'пример.рф'],
    permutations: ['sberbnak.ru', 'sberbank-online.com', 'xn--80aaa0cvac.xn--p1ai'],
    keywords: ['sberpay', 'Сбол', 'ок'],
    threshold: 0.8,
  });

  it('a name of the permutation set, or a subdomain of one, is a permutation hit', () => {
    expect(matcher.match('sberbnak.ru')).toEqual({ asset: 'sberbank.ru', reason: 'permutation', score: 1 });
    expect(matcher.match('login.sberbank-online.com')).toMatchObject({ reason: 'permutation', asset: 'sberbank.ru' });
    expect(matcher.match('*.SBERBNAK.RU')).toMatchObject({ reason: 'permutation' });
    expect(matcher.match('xn--80aaa0cvac.xn--p1ai')).toMatchObject({ reason: 'permutation' });
  });

  it('keywords: Latin, Cyrillic in IDN names, and each in the other script by transliteration', () => {
    expect(matcher.match('my-sberpay.top')).toEqual({ asset: 'sberpay', reason: 'keyword', score: 1 });
    // сбол-вход.рф in punycode
    const idn = new URL('http://сбол-вход.рф').hostname;
    expect(idn.startsWith('xn--')).toBe(true);
    expect(matcher.match(idn)).toEqual({ asset: 'Сбол', reason: 'keyword', score: 1 });
    expect(matcher.match('sbol-login.com')).toMatchObject({ asset: 'Сбол', reason: 'keyword' });
    expect(matcher.match(new URL('http://сберпэй.рф').hostname)).toBeNull(); // «сберпэй» transliterates to sberpey
    expect(matcher.match(new URL('http://мой-sberpay.рф').hostname)).toMatchObject({ asset: 'sberpay' });
    // keywords shorter than 3 letters are ignored; the zone is not searched
    expect(matcher.match('okey.de')).toBeNull();
    expect(matcher.match('example.sberpay')).toBeNull();
  });

  it('similarity of the registrable label (Damerau–Levenshtein) at the threshold boundary', () => {
    const m = (threshold: number) => createMatcher({ domains: ['abcdefghij.ru'], permutations: [], keywords: [], threshold });
    // two edits over ten letters: similarity exactly 0.8
    expect(m(0.8).match('abcdefghxy.com')).toEqual({ asset: 'abcdefghij.ru', reason: 'similar', score: 0.8 });
    expect(m(0.81).match('abcdefghxy.com')).toBeNull();
    // a swap of adjacent letters is one edit (Levenshtein would count two)
    expect(m(0.9).match('abcdefghji.com')).toMatchObject({ reason: 'similar', score: 0.9 });
    // the same label in another zone, and a subdomain of a lookalike
    expect(m(0.9).match('www.abcdefghij.com')).toMatchObject({ reason: 'similar', score: 1 });
    expect(m(0.9).match('abcdefghij.evil.com')).toBeNull();
    // Unicode labels are compared in Unicode
    const cyr = createMatcher({ domains: ['пример.рф'], permutations: [], keywords: [], threshold: 0.8 });
    expect(cyr.match(new URL('http://примеп.рф').hostname)).toMatchObject({ asset: 'пример.рф', reason: 'similar' });
  });

  it('never matches the company’s own domains or their subdomains', () => {
    const own = createMatcher({
      domains: ['sberbank.ru', 'пример.рф'],
      permutations: ['sberbank.ru', 'online.sberbank.ru'],
      keywords: ['sberbank', 'пример'],
      threshold: 0.5,
    });
    for (const name of [
      'sberbank.ru',
      'www.sberbank.ru',
      'online.sberbank.ru',
      '*.sberbank.ru',
      'xn--e1afmkfd.xn--p1ai',
      'lk.пример.рф',
    ])
      expect(own.match(name)).toBeNull();
    expect(own.match('sberbank.ru.evil.com')).toMatchObject({ reason: 'keyword' });
    expect(own.match('notsberbank.ru')).toMatchObject({ reason: 'keyword' });
    expect(own.match('not a host')).toBeNull();
  });
});
