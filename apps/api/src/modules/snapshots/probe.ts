/*
 * One check of a domain: resolve the host (IPv4/IPv6), fetch https://host/ (then http://host/) with a
 * total deadline, a body cap and a redirect limit, and read the status, final URL, the connected IP and
 * the page <title> (charset from the header or <meta>, entities decoded). Every hop is resolved
 * through the SSRF guard, and the address the socket actually connected to is checked again.
 * Failures come back as a Russian `error`, never as an exception.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { decodeHTML } from 'entities';
import iconv from 'iconv-lite';
import { isForbiddenAddress } from '../../lib/outbound';

export interface ProbeOptions {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowPrivate: boolean;
  /** The guard (default: guard.ts); tests narrow it to reach loopback yet refuse the rest. */
  forbidden?: (ip: string) => boolean;
  /**
   * Test resolution: host → address and port (the guard still applies to the address). When set,
   * it is the whole world: other hosts are not resolved at all (tests never query real DNS).
   */
  hostMap?: ReadonlyMap<string, { ip: string; port: number }>;
  /** DNS override (tests); default the system resolver. */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * The watch (#31): keep the final page's body and content type and the HTTPS peer certificate in
   * the result, and accept a certificate that does not verify (it is observed, not trusted).
   */
  capture?: boolean;
  /** The port both schemes connect to when the host is not in `hostMap` (tests and bench). */
  port?: number;
}

/** The certificate an HTTPS server presented (capture). */
export interface PeerCert {
  issuer: string | null;
  sans: string[];
  fingerprint256: string;
  /** Serial number: lower-case hex without leading zero bytes (null when the peer gave none). */
  serial: string | null;
}

export interface ProbeResult {
  /** The address the final response came from. */
  ip: string | null;
  http_status: number | null;
  final_url: string | null;
  page_title: string | null;
  /** Russian reason when the check failed (or was cut short); null = the site answered in full. */
  error: string | null;
  /** With `capture`: the final page (at most maxBytes), its content type, the certificate of an HTTPS answer. */
  body?: Buffer;
  content_type?: string;
  cert?: PeerCert | null;
}

export const PROBE_MSG = {
  nxdomain: 'Домен не найден в DNS (NXDOMAIN)',
  noAddress: 'У домена нет IP-адресов (A/AAAA)',
  dns: 'Ошибка DNS при разрешении домена',
  timeout: (s: number) => `Сайт не ответил за ${s} с`,
  tls: (detail: string) => `Ошибка TLS: ${detail}`,
  refused: 'Соединение отклонено',
  reset: 'Соединение сброшено сервером',
  unreachable: 'Сервер недоступен',
  forbidden: (ip: string) => `Адрес ${ip} внутренний или служебный — проверка запрещена`,
  tooManyRedirects: (n: number) => `Слишком много перенаправлений (больше ${n})`,
  badRedirect: 'Перенаправление на недопустимый адрес',
  tooLarge: (kb: number) => `Страница больше ${kb} КБ — прочитано только начало`,
  badResponse: 'Сервер ответил не по протоколу HTTP',
  generic: 'Не удалось проверить сайт',
} as const;

class ProbeError extends Error {}

const isForbidden = (ip: string, o: ProbeOptions) => !o.allowPrivate && (o.forbidden ?? isForbiddenAddress)(ip);

/** Parses SNAPSHOT_HOST_MAP: `host=ip:port,host2=[::1]:port`. */
export function parseHostMap(s: string): Map<string, { ip: string; port: number }> {
  const map = new Map<string, { ip: string; port: number }>();
  for (const part of s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^([^=]+)=\[?([0-9a-fA-F:.]+?)\]?:(\d+)$/.exec(part);
    if (m && isIP(m[2] as string)) map.set((m[1] as string).trim().toLowerCase(), { ip: m[2] as string, port: Number(m[3]) });
  }
  return map;
}

const systemResolve = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) =>
      err ? reject(err) : resolve(addrs.map((a) => a.address)),
    ),
  );

const notInMap = async (): Promise<string[]> => {
  throw Object.assign(new Error('not in SNAPSHOT_HOST_MAP'), { code: 'ENOTFOUND' });
};

const TLS_CODES = /^(ERR_TLS|ERR_SSL|EPROTO|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL|HOSTNAME_MISMATCH)/;

function reasonOf(e: unknown, o: ProbeOptions): string {
  if (e instanceof ProbeError) return e.message;
  const code = String((e as { code?: string }).code ?? '');
  if (code === 'ENOTFOUND') return PROBE_MSG.nxdomain;
  if (code === 'ENODATA') return PROBE_MSG.noAddress;
  if (code === 'EAI_AGAIN' || code === 'ESERVFAIL' || code === 'ETIMEOUT') return PROBE_MSG.dns;
  if (code === 'ECONNREFUSED') return PROBE_MSG.refused;
  if (code === 'ECONNRESET' || code === 'EPIPE') return PROBE_MSG.reset;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return PROBE_MSG.unreachable;
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR') return PROBE_MSG.timeout(Math.round(o.timeoutMs / 1000));
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) return PROBE_MSG.badResponse;
  if (TLS_CODES.test(code)) return PROBE_MSG.tls(code);
  return PROBE_MSG.generic;
}
const isTls = (e: unknown) => TLS_CODES.test(String((e as { code?: string }).code ?? ''));

/** Resolves a host to the addresses a check may use (the guard applied); throws a ProbeError otherwise. */
async function addressesOf(host: string, o: ProbeOptions): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const mapped = o.hostMap?.get(bare.toLowerCase());
  const resolve = o.resolve ?? (o.hostMap?.size ? notInMap : systemResolve);
  const all = mapped ? [mapped.ip] : isIP(bare) ? [bare] : await resolve(bare);
  if (!all.length) throw Object.assign(new Error('no address'), { code: 'ENODATA' });
  const allowed = all.filter((a) => !isForbidden(a, o));
  if (!allowed.length) throw new ProbeError(PROBE_MSG.forbidden(all[0] as string));
  return allowed;
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  ip: string | null;
  body: Buffer;
  truncated: boolean;
  cert: PeerCert | null;
}

/** The peer certificate of a TLS socket (null for plain HTTP or none presented). */
function peerCertOf(socket: Socket | undefined): PeerCert | null {
  const s = socket as (Socket & { getPeerCertificate?: () => import('node:tls').PeerCertificate }) | undefined;
  if (!s?.getPeerCertificate) return null;
  const c = s.getPeerCertificate();
  if (!c?.fingerprint256) return null;
  const issuer = c.issuer ? (c.issuer.O ?? c.issuer.CN ?? null) : null;
  const sans = (c.subjectaltname ?? '')
    .split(/,\s*/)
    .filter((x) => x.startsWith('DNS:'))
    .map((x) => x.slice(4).toLowerCase());
  // Lower-case hex without leading zero bytes, as the CT parser writes it (the watch matches the two).
  const serial = c.serialNumber ? c.serialNumber.toLowerCase().replace(/^(00)+/, '') || '00' : null;
  return { issuer: Array.isArray(issuer) ? issuer.join(', ') : issuer, sans, fingerprint256: c.fingerprint256, serial };
}

/** Reads at most `max` bytes of a (decompressed) body. */
async function readCapped(stream: Readable, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = c as Buffer;
    if (size + b.length > max) {
      chunks.push(b.subarray(0, max - size));
      size = max;
      stream.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(b);
    size += b.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function decoded(res: http.IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const onError = (z: Readable) => z.on('error', () => undefined);
  if (enc === 'gzip' || enc === 'x-gzip') return res.pipe(onError(zlib.createGunzip()) as zlib.Gunzip);
  if (enc === 'deflate') return res.pipe(onError(zlib.createInflate()) as zlib.Inflate);
  if (enc === 'br') return res.pipe(onError(zlib.createBrotliDecompress()) as zlib.BrotliDecompress);
  return res;
}

/** One request, connected only to guarded addresses; GET with the body read up to the cap. */
function request(url: URL, o: ProbeOptions, deadline: number, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An IP literal (e.g. a redirect to 169.254.169.254) skips `lookup`: refuse it before connecting.
    if (isIP(host) && isForbidden(host, o)) {
      reject(new ProbeError(PROBE_MSG.forbidden(host)));
      return;
    }
    let connectedIp: string | null = null;
    const req = lib.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port ? Number(url.port) : undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        servername: isIP(host) ? undefined : host,
        ...(o.capture ? { rejectUnauthorized: false } : {}),
        signal,
        agent: false,
        timeout: Math.max(1, deadline - Date.now()),
        headers: {
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Forpost-Snapshot',
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5',
          host: url.host,
        },
        lookup: ((hostname: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          addressesOf(hostname, o).then(
            (addrs) => {
              const list = addrs.map((a) => ({ address: a, family: isIP(a) }));
              if (opts?.all) cb(null, list);
              else cb(null, list[0]?.address, list[0]?.family);
            },
            (err) => cb(err),
          );
        }) as unknown as typeof dnsLookup,
      },
      (res) => {
        void (async () => {
          try {
            const cert = o.capture ? peerCertOf(res.socket) : null;
            const { body, truncated } = await readCapped(decoded(res), o.maxBytes);
            if (truncated) req.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, ip: connectedIp, body, truncated, cert });
          } catch (e) {
            reject(e);
          }
        })();
      },
    );
    // The address actually connected to, checked again (not only the DNS answer).
    req.on('socket', (socket: Socket) => {
      const check = () => {
        const ip = socket.remoteAddress ?? null;
        connectedIp = ip;
        if (!ip || isForbidden(ip, o)) req.destroy(new ProbeError(PROBE_MSG.forbidden(ip ?? '?')));
      };
      if (socket.remoteAddress && !socket.connecting) check();
      else socket.once('connect', check);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  });
}

/** Follows redirects from `start` (each hop guarded) up to the limit. */
async function follow(start: URL, o: ProbeOptions, deadline: number, signal: AbortSignal): Promise<{ hop: Hop; url: URL }> {
  let url = start;
  for (let i = 0; ; i++) {
    const hop = await request(url, o, deadline, signal);
    const location = hop.headers.location;
    if (hop.status >= 300 && hop.status < 400 && location) {
      if (i >= o.maxRedirects) throw new ProbeError(PROBE_MSG.tooManyRedirects(o.maxRedirects));
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ProbeError(PROBE_MSG.badRedirect);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ProbeError(PROBE_MSG.badRedirect);
      if (next.username || next.password) throw new ProbeError(PROBE_MSG.badRedirect);
      url = next;
      continue;
    }
    return { hop, url };
  }
}

/** Charset: the Content-Type header, else a <meta> in the first bytes, else UTF-8. */
function charsetOf(contentType: string | undefined, head: Buffer): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const ascii = head.subarray(0, 4096).toString('latin1');
  const fromMeta =
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(ascii)?.[1] ??
    /<meta[^>]+content=["'][^"']*charset=([\w.:-]+)/i.exec(ascii)?.[1];
  for (const c of [fromHeader, fromMeta]) if (c && iconv.encodingExists(c)) return c.toLowerCase();
  return 'utf-8';
}

/** The page's <title>: decoded, entities resolved, whitespace collapsed, at most 500 characters. */
export function titleOf(body: Buffer, contentType: string | undefined): string | null {
  const text = iconv.decode(body, charsetOf(contentType, body));
  const m = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(text) ?? /<title[^>]*>([\s\S]{1,2000})/i.exec(text);
  if (!m) return null;
  const t = decodeHTML(m[1] as string)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
  return t || null;
}

/** Checks `host`: https first, then http when https cannot connect; never throws. */
export async function probe(host: string, o: ProbeOptions): Promise<ProbeResult> {
  const failed = (error: string, ip: string | null = null): ProbeResult => ({
    ip,
    http_status: null,
    final_url: null,
    page_title: null,
    error,
  });
  const deadline = Date.now() + o.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), o.timeoutMs);
  const timeoutMsg = PROBE_MSG.timeout(Math.round(o.timeoutMs / 1000));
  const timedOut = (e: unknown) =>
    controller.signal.aborted ||
    Date.now() >= deadline - 20 ||
    ['ETIMEDOUT', 'ABORT_ERR'].includes(String((e as { code?: string }).code));
  const mapped = o.hostMap?.get(host);
  // A test mapping names the port too (the checked URL shows it).
  const port = mapped?.port ?? o.port;
  const hostPart = `${isIP(host) === 6 ? `[${host}]` : host}${port ? `:${port}` : ''}`;
  try {
    let firstIp: string | null = null;
    try {
      firstIp = (await addressesOf(host, o))[0] ?? null;
    } catch (e) {
      return failed(reasonOf(e, o));
    }
    let result: { hop: Hop; url: URL } | undefined;
    let httpsError: unknown;
    try {
      result = await follow(new URL(`https://${hostPart}/`), o, deadline, controller.signal);
    } catch (e) {
      httpsError = e;
      if (timedOut(e)) return failed(timeoutMsg, firstIp);
      if (e instanceof ProbeError) return failed(e.message, firstIp);
    }
    if (!result) {
      try {
        result = await follow(new URL(`http://${hostPart}/`), o, deadline, controller.signal);
      } catch (e) {
        if (timedOut(e)) return failed(timeoutMsg, firstIp);
        // A site that speaks only broken TLS: its TLS error says more than the refused plain port.
        return failed(reasonOf(isTls(httpsError) && !(e instanceof ProbeError) ? httpsError : e, o), firstIp);
      }
    }
    const { hop, url } = result;
    const type = String(hop.headers['content-type'] ?? '');
    const isHtml = !type || /html|xml/i.test(type);
    return {
      ip: hop.ip ?? firstIp,
      http_status: hop.status >= 100 && hop.status <= 599 ? hop.status : null,
      final_url: url.toString().slice(0, 2000),
      page_title: isHtml ? titleOf(hop.body, type) : null,
      error: hop.truncated ? PROBE_MSG.tooLarge(Math.round(o.maxBytes / 1024)) : null,
      ...(o.capture ? { body: hop.body, content_type: type, cert: hop.cert } : {}),
    };
  } catch (e) {
    return failed(timedOut(e) ? timeoutMsg : reasonOf(e, o));
  } finally {
    clearTimeout(timer);
  }
}
