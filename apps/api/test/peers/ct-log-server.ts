/*
 * An RFC 6962 log on 127.0.0.1 for the CT tests and benchmark: GET /ct/v1/get-sth and
 * /ct/v1/get-entries built from real certificates (certs.ts). Leaves are MerkleTreeLeaf v1
 * timestamped entries (x509_entry, or precert_entry with issuer_key_hash and the TBSCertificate without
 * poison); extra_data is the certificate chain, or for a precertificate the PrecertChainEntry. The STH
 * carries the real Merkle tree hash (RFC 6962 §2.1), not a signature. Like real logs it answers at most
 * `maxEntries` per get-entries; append() grows the tree, failNext() makes the next requests fail, holdNext() leaves one unanswered.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { precertLeafParts, type TestCert } from './certs';

export interface RawCtEntry {
  leaf_input: string;
  extra_data: string;
}

const u24 = (n: number) => {
  const b = Buffer.alloc(3);
  b.writeUIntBE(n, 0, 3);
  return b;
};
const opaque24 = (b: Buffer) => Buffer.concat([u24(b.length), b]);

/** The log's leaf and extra_data for one certificate or precertificate. */
export function ctEntryOf(cert: TestCert, timestamp = Date.now()): RawCtEntry {
  const head = Buffer.alloc(12);
  head.writeUInt8(0, 0); // version v1
  head.writeUInt8(0, 1); // leaf_type timestamped_entry
  head.writeBigUInt64BE(BigInt(timestamp), 2);
  head.writeUInt16BE(cert.precert ? 1 : 0, 10);
  const noExtensions = Buffer.alloc(2);
  const chain = opaque24(opaque24(cert.issuer.der));
  if (!cert.precert) {
    return {
      leaf_input: Buffer.concat([head, opaque24(cert.der), noExtensions]).toString('base64'),
      extra_data: chain.toString('base64'),
    };
  }
  const { tbs, issuerKeyHash } = precertLeafParts(cert);
  return {
    leaf_input: Buffer.concat([head, issuerKeyHash, opaque24(tbs), noExtensions]).toString('base64'),
    extra_data: Buffer.concat([opaque24(cert.der), chain]).toString('base64'),
  };
}

/** Merkle tree hash (RFC 6962 §2.1) of leaf hashes [lo, hi). */
function treeHash(leaves: Buffer[], lo: number, hi: number): Buffer {
  const n = hi - lo;
  if (n === 0) return createHash('sha256').digest();
  if (n === 1) return leaves[lo] as Buffer;
  let k = 1;
  while (k * 2 < n) k *= 2;
  return createHash('sha256')
    .update(Buffer.from([1]))
    .update(treeHash(leaves, lo, lo + k))
    .update(treeHash(leaves, lo + k, hi))
    .digest();
}

export interface CtLogPeer {
  url: string;
  /** Adds certificates at the end of the log (the tree grows). */
  append(certs: TestCert[]): void;
  /** Adds entries as given (e.g. a corrupt leaf). */
  appendRaw(entries: RawCtEntry[]): void;
  /** The next `count` requests fail: HTTP 500, or 200 with a body that is not JSON. */
  failNext(count?: number, kind?: '500' | 'json'): void;
  /** The next request is never answered; resolves when it has arrived. */
  holdNext(): Promise<void>;
  /** Every request fails with 500 until turned off. */
  setFailing(on: boolean): void;
  /** get-entries requests served so far. */
  readonly entriesRequests: number;
  close(): Promise<void>;
}

export async function startCtLog(opts: { entries?: TestCert[]; maxEntries?: number } = {}): Promise<CtLogPeer> {
  const maxEntries = opts.maxEntries ?? 32;
  const entries: RawCtEntry[] = [];
  const leafHashes: Buffer[] = [];
  let failCount = 0;
  let failKind: '500' | 'json' = '500';
  let failing = false;
  let entriesRequests = 0;
  let hold: (() => void) | null = null;
  const rootCache = new Map<number, string>();

  const appendRaw = (list: RawCtEntry[]) => {
    for (const e of list) {
      entries.push(e);
      leafHashes.push(
        createHash('sha256')
          .update(Buffer.from([0]))
          .update(Buffer.from(e.leaf_input, 'base64'))
          .digest(),
      );
    }
  };
  appendRaw((opts.entries ?? []).map((c) => ctEntryOf(c)));

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (hold) {
      hold();
      hold = null;
      return; // left open; closeAllConnections() ends it
    }
    if (failing || failCount > 0) {
      if (failCount > 0) failCount--;
      if (failKind === 'json' && !failing) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"entries": [');
      } else send(500, { error: 'internal error' });
      return;
    }
    if (url.pathname === '/ct/v1/get-sth') {
      const size = entries.length;
      let root = rootCache.get(size);
      if (!root) {
        root = treeHash(leafHashes, 0, size).toString('base64');
        rootCache.set(size, root);
      }
      send(200, { tree_size: size, timestamp: Date.now(), sha256_root_hash: root, tree_head_signature: '' });
      return;
    }
    if (url.pathname === '/ct/v1/get-entries') {
      entriesRequests++;
      const start = Number(url.searchParams.get('start'));
      const end = Number(url.searchParams.get('end'));
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || start >= entries.length) {
        send(400, { error: 'bad range' });
        return;
      }
      const last = Math.min(end, entries.length - 1, start + maxEntries - 1);
      send(200, { entries: entries.slice(start, last + 1) });
      return;
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    append: (certs) => appendRaw(certs.map((c) => ctEntryOf(c))),
    appendRaw,
    failNext(count = 1, kind = '500') {
      failCount = count;
      failKind = kind;
    },
    holdNext: () =>
      new Promise<void>((resolve) => {
        hold = resolve;
      }),
    setFailing(on) {
      failing = on;
    },
    get entriesRequests() {
      return entriesRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
