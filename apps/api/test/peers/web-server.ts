/*
 * A web server on 127.0.0.1 for the watch's tests and bench: one port speaks both HTTP and HTTPS (the
 * first byte of a connection tells a TLS ClientHello from a plain request), so a domain mapped to the
 * port by the probe's `port` option is tried with https:// and then http:// as a real site would be.
 * Pages are per host and can be changed during a test; a host serves HTTPS only once it was issued a
 * certificate (test CA, certs.ts; SNI picks it), otherwise the TLS handshake fails and the client
 * falls back to plain HTTP. Every request is counted.
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createServer, type Socket } from 'node:net';
import tls from 'node:tls';
import { AsnParser } from '@peculiar/asn1-schema';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { createTestCa, issueCertificate, type TestCa } from './certs';

export interface Page {
  status: number;
  body: string;
  /** Redirect target (Location) for a 3xx. */
  location?: string;
  /** Never answer (the client times out). */
  hang?: boolean;
}

export interface WebServer {
  port: number;
  requests: number;
  setPage(host: string, page: Page | null): void;
  /**
   * Issues a (new) certificate for the host (with this serial, e.g. one a CT log already holds as a
   * precertificate): HTTPS answers from now on with it; returns its SHA-256 fingerprint.
   */
  issueCert(host: string, opts?: { serial?: string }): string;
  /** The CA the server's certificates are issued by (to put one of them in a CT log peer). */
  ca: TestCa;
  dropCert(host: string): void;
  close(): Promise<void>;
}

export async function startWebServer(): Promise<WebServer> {
  const base = createTestCa({ cn: 'Forpost Watch CA', o: 'Forpost Watch' });
  const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ca: TestCa = {
    ...base,
    leafSpki: AsnParser.parse(leaf.publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
  };
  const keyPem = leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const pages = new Map<string, Page>();
  const contexts = new Map<string, tls.SecureContext>();
  const sockets = new Set<Socket>();
  let requests = 0;

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests++;
    const host = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .toLowerCase();
    const page = pages.get(host);
    if (page?.hang) return; // the socket is destroyed by the client's timeout or by close()
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<html><head><title>Not Found</title></head><body>404</body></html>');
    }
    res.writeHead(page.status, {
      'content-type': 'text/html; charset=utf-8',
      ...(page.location ? { location: page.location } : {}),
    });
    res.end(page.body);
  };
  const plain = http.createServer(handler);
  const secure = https.createServer(
    {
      SNICallback: (name, cb) => {
        const ctx = contexts.get(name.toLowerCase());
        if (ctx) cb(null, ctx);
        else cb(new Error(`no certificate for ${name}`));
      },
    },
    handler,
  );
  secure.on('tlsClientError', () => undefined);
  const front = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (buf) => {
      socket.pause();
      socket.unshift(buf);
      (buf[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const port = (front.address() as { port: number }).port;

  return {
    port,
    get requests() {
      return requests;
    },
    setPage(host, page) {
      if (page) pages.set(host.toLowerCase(), page);
      else pages.delete(host.toLowerCase());
    },
    ca,
    issueCert(host, opts = {}) {
      const cert = issueCertificate(ca, {
        sans: [host],
        cn: host,
        notAfter: new Date('2036-01-01T00:00:00Z'),
        ...(opts.serial ? { serial: opts.serial } : {}),
      });
      const x = new X509Certificate(cert.der);
      contexts.set(host.toLowerCase(), tls.createSecureContext({ cert: x.toString(), key: keyPem }));
      return x.fingerprint256;
    },
    dropCert(host) {
      contexts.delete(host.toLowerCase());
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        front.close(() => resolve());
      }),
  };
}
