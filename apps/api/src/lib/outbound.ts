/*
 * The SSRF guard of every outbound connection made to an address an administrator configures:
 * domain snapshots, the external classifier, RDAP servers and the bootstrap file, CT logs, SMTP
 * (the `smtp_url` setting) and discovery's DNS resolvers. One rule: private, loopback, link-local
 * (cloud metadata), CGNAT, multicast, documentation and reserved ranges are refused, also when
 * reached through an IPv4-mapped/NAT64/6to4 IPv6 form or a numeric host (`0`, `2130706433`,
 * `0x7f.1`). Checked twice: when a setting is saved (a literal address, configs.service.ts) and when
 * connecting (a name is resolved, every address checked, and only a checked address is dialled, so
 * DNS rebinding cannot slip past). `allowPrivate` (env OUTBOUND_ALLOW_PRIVATE, alias
 * SNAPSHOT_ALLOW_PRIVATE; tests, e2e, or an operator's deliberate choice) turns the guard off.
 */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { CONFIG_MSG, parseRdapServers, splitList } from '@forpost/contract/configs';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 one stands for (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedV4(ip6: string): string | null {
  const s = ip6.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) return dotted[1] ?? null;
  const words = expand(s);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6] as number, words[7] as number);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6] as number, words[7] as number);
  if (words[0] === 0x2002) return v4(words[1] as number, words[2] as number);
  return null;
}

/** '2001:db8::1' → eight 16-bit words (null for a malformed address). */
function expand(ip6: string): number[] | null {
  let s = ip6;
  const dot = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dot) {
    const p = (dot[1] as string).split('.').map(Number);
    s = `${s.slice(0, -(dot[1] as string).length)}${(((p[0] as number) << 8) | (p[1] as number)).toString(16)}:${(((p[2] as number) << 8) | (p[3] as number)).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = tail ? tail.split(':') : [];
  const fill = s.includes('::') ? 8 - a.length - b.length : 0;
  const all = [...a, ...Array(fill).fill('0'), ...b];
  if (all.length !== 8) return null;
  return all.map((w) => Number.parseInt(w || '0', 16));
}

/** Is `ip` an address an integration or a snapshot may not connect to? Non-addresses are refused too. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4 && isIP(v4) === 4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return true;
}

/**
 * A URL host as the connection will see it: numeric IPv4 forms (`0`, `2130706433`, `0x7f.1`,
 * `127.1`) become the dotted address (WHATWG URL's rules for http, applied to every scheme: smtp://
 * URLs are not normalised by the parser), IPv6 loses its brackets, names are lower-cased (IDN → ASCII).
 */
export function canonicalHost(host: string): string {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return bare.toLowerCase();
  }
}

/**
 * Is `host` (of a URL, or a resolver address) refused when saved as a setting: an address literal
 * (in any numeric form) the guard forbids, or a `localhost` name. Other names are checked when
 * connecting, against what they resolve to then.
 */
export function isForbiddenHost(host: string): boolean {
  const h = canonicalHost(host).replace(/\.$/, '');
  if (isIP(h)) return isForbiddenAddress(h);
  return h === 'localhost' || h.endsWith('.localhost');
}

/** What an outbound connection may reach. */
export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE: every address may be reached (tests and e2e; never in production). */
  allowPrivate: boolean;
  /** Name → addresses (tests); default the system resolver (getaddrinfo: /etc/hosts, then DNS). */
  resolve?: (host: string) => Promise<string[]>;
  /** The rule (default isForbiddenAddress); tests narrow it to reach a loopback peer yet refuse the rest. */
  forbidden?: (ip: string) => boolean;
}

/** The guard on: what every client uses unless told otherwise. */
export const GUARDED: OutboundPolicy = { allowPrivate: false };

export const OUTBOUND_MSG = {
  /** Saving a setting (the refusal of a connection says the same, with the address). */
  privateAddress: CONFIG_MSG.privateAddress,
  refused: (ip: string) => `Адрес ${ip} во внутренней сети недоступен для интеграций`,
} as const;

/** A connection the guard refused (before anything was sent). */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDFORBIDDEN';
  constructor(readonly address: string) {
    super(OUTBOUND_MSG.refused(address));
  }
}

const systemResolve = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) =>
      err ? reject(err) : resolve(addrs.map((a) => a.address)),
    ),
  );

/** Throws OutboundRefusedError when `ip` (an address literal) may not be reached. */
export function assertAllowedAddress(ip: string, policy: OutboundPolicy): void {
  if (refuses(policy, ip)) throw new OutboundRefusedError(ip);
}

const refuses = (policy: OutboundPolicy, ip: string) => !policy.allowPrivate && (policy.forbidden ?? isForbiddenAddress)(ip);

/**
 * The addresses of `host` a connection may use: a literal is checked as is, a name is resolved and
 * every address checked (the forbidden ones dropped). Throws OutboundRefusedError when none is left.
 */
export async function allowedAddresses(host: string, policy: OutboundPolicy): Promise<string[]> {
  const h = canonicalHost(host);
  const all = isIP(h) ? [h] : await (policy.resolve ?? systemResolve)(h);
  if (!all.length) throw Object.assign(new Error(`${h}: нет адресов`), { code: 'ENOTFOUND' });
  const ok = all.filter((a) => !refuses(policy, a));
  if (!ok.length) throw new OutboundRefusedError(all[0] as string);
  return ok;
}

/** A socket `lookup` that resolves through the guard (node:net calls it for names, never for literals). */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, policy).then(
      (ips) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const list = ips.map((address) => ({ address, family: isIP(address) })).filter((a) => !family || a.family === family);
        const first = list[0];
        if (!first) callback(Object.assign(new Error(`${hostname}: нет адресов`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all) callback(null, list);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** What the integrations' HTTP clients send (a subset of fetch's RequestInit). */
export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** As fetch: follow (default, at most 20 hops, each one guarded), manual (the 3xx is returned) or error. */
  redirect?: 'follow' | 'manual' | 'error';
}
export type OutboundFetch = (url: string | URL, init?: OutboundRequest) => Promise<Response>;

const MAX_FOLLOW = 20;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * fetch() for the integrations, on node:http(s) so that every connection goes through the guard: the
 * URL's address literal is checked before dialling, a name only through `guardedLookup` (the socket
 * connects to the address that was checked), and each redirect hop again. Aborts reject with the
 * signal's reason, as fetch does.
 */
export function createOutboundFetch(policy: OutboundPolicy = GUARDED): OutboundFetch {
  let made = fetches.get(policy);
  if (!made) {
    made = makeFetch(policy);
    fetches.set(policy, made);
  }
  return made;
}

/** One fetch (and one pair of keep-alive agents) per policy object: a socket is reused only under its own policy. */
const fetches = new WeakMap<OutboundPolicy, OutboundFetch>();

function makeFetch(policy: OutboundPolicy): OutboundFetch {
  const lookup = guardedLookup(policy);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  function once(url: URL, init: OutboundRequest): Promise<http.IncomingMessage> {
    const signal = init.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new TypeError(`Неподдерживаемая схема адреса: ${url.protocol}`));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    try {
      if (isIP(host)) assertAllowedAddress(host, policy);
    } catch (e) {
      return Promise.reject(e);
    }
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(
        url,
        { method: init.method ?? 'GET', headers: init.headers, agent: agents[url.protocol as 'http:' | 'https:'], lookup },
        (res) => {
          if (signal) {
            const onAbort = () => res.destroy(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            res.once('close', () => signal.removeEventListener('abort', onAbort));
          }
          resolve(res);
        },
      );
      if (signal) {
        const onAbort = () => req.destroy(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', onAbort));
      }
      req.once('error', reject);
      req.end(init.body);
    });
  }

  function toResponse(res: http.IncomingMessage): Response {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 599) {
      res.destroy();
      throw new TypeError(`Сервер ответил кодом ${status}`);
    }
    const headers = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      try {
        headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
      } catch {
        // a header fetch would not accept either: left out
      }
    }
    if (NULL_BODY.has(status)) {
      res.resume();
      return new Response(null, { status, headers });
    }
    const enc = String(res.headers['content-encoding'] ?? '').toLowerCase();
    const onError = <T extends NodeJS.ReadableStream>(z: T) => {
      res.once('error', (e) => (z as unknown as Readable).destroy(e));
      return z;
    };
    const body: Readable =
      enc === 'gzip' || enc === 'x-gzip'
        ? res.pipe(onError(zlib.createGunzip()))
        : enc === 'deflate'
          ? res.pipe(onError(zlib.createInflate()))
          : enc === 'br'
            ? res.pipe(onError(zlib.createBrotliDecompress()))
            : res;
    return new Response(Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, { status, headers });
  }

  return async (input, init = {}) => {
    let url = new URL(String(input));
    let req = init;
    for (let hop = 0; ; hop++) {
      const res = await once(url, req);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location && (req.redirect ?? 'follow') !== 'manual') {
        res.resume();
        if (req.redirect === 'error') throw new TypeError('Перенаправление запрещено');
        if (hop >= MAX_FOLLOW) throw new TypeError('Слишком много перенаправлений');
        url = new URL(location, url);
        if (status === 303 || ((status === 301 || status === 302) && req.method && req.method !== 'GET' && req.method !== 'HEAD'))
          req = { ...req, method: 'GET', body: undefined };
        continue;
      }
      return toResponse(res);
    }
  };
}

/**
 * A TCP connection to `host:port` through the guard (SMTP): the name is resolved, every address
 * checked, and the socket dialled to the first allowed address; `timeoutMs` bounds the dial.
 */
export async function guardedConnect(host: string, port: number, policy: OutboundPolicy, timeoutMs: number): Promise<Socket> {
  const [ip] = await allowedAddresses(host, policy);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: ip as string, port });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(
        Object.assign(new Error(`Соединение с ${host}:${port} не установлено за ${timeoutMs} мс`), { code: 'ETIMEDOUT' }),
      ),
    );
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A URL's host ('' when it does not parse). */
function hostOfUrl(s: string): string {
  try {
    return new URL(s.trim()).hostname;
  } catch {
    return '';
  }
}

/** `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53` → the address. */
const resolverHost = (s: string) => /^\[([^\]]+)\]/.exec(s)?.[1] ?? (isIP(s) ? s : s.replace(/:\d+$/, ''));

/** The hosts each integration setting makes the server connect to. */
const OUTBOUND_SETTINGS: Record<string, (value: string) => string[]> = {
  smtp_url: (v) => [hostOfUrl(v)],
  classifier_url: (v) => [hostOfUrl(v)],
  telegram_preview_url: (v) => [hostOfUrl(v)],
  discovery_rdap_bootstrap: (v) => [hostOfUrl(v)],
  discovery_rdap_servers: (v) => Object.values(parseRdapServers(v) ?? {}).map(hostOfUrl),
  discovery_ct_logs: (v) => splitList(v).map(hostOfUrl),
  discovery_dns_servers: (v) => splitList(v).map(resolverHost),
};

/** Does the (valid) value of setting `key` name a host the guard refuses? False for settings that are no address. */
export function settingReachesForbidden(key: string, value: unknown): boolean {
  const hosts = Object.hasOwn(OUTBOUND_SETTINGS, key)
    ? (OUTBOUND_SETTINGS[key] as (v: string) => string[])(String(value ?? ''))
    : [];
  return hosts.some((h) => h !== '' && isForbiddenHost(h));
}
