/*
 * RDAP domain lookup (RFC 9082 query path, RFC 9083 response) for registration data of a discovered
 * domain: registrar, creation date, status. Only configured servers are contacted. The server of a name
 * is, in this order: an explicit `tld=url` entry; the servers the RFC 9224 bootstrap file (IANA's
 * dns.json, fetched once and kept in memory for a day) names for the name's zone; the '*' entry. A
 * redirect is followed only to the origin of an explicit server or of a bootstrap server of the same
 * zone, and every failure (404, timeout, 5xx, bad JSON, a redirect elsewhere, no bootstrap) is `null`
 * — registration data fills fields, it never fails a run.
 */
import { domainToASCII } from 'node:url';
import { createOutboundFetch, GUARDED, type OutboundFetch, type OutboundPolicy, OutboundRefusedError } from '../../lib/outbound';

export interface RdapInfo {
  registrar: string | null;
  created: string | null /* ISO 8601 */;
  status: string[];
}
export type RdapFailure =
  | 'not-found'
  | 'timeout'
  | 'http'
  | 'network'
  | 'invalid'
  | 'redirect'
  | 'forbidden' /* the server's address is in a private network (lib/outbound.ts) */
  | 'no-server'
  | 'bootstrap' /* the bootstrap file was needed and is unavailable */;
export interface RdapOptions {
  servers: Record<string, string> /* tld (punycode, no dot) or '*' → base URL */;
  timeoutMs: number;
  /** The RFC 9224 bootstrap file (e.g. https://data.iana.org/rdap/dns.json); null/'' = none. */
  bootstrapUrl?: string | null;
  /** Where the bootstrap file is kept between clients (one per process); default: this client's own. */
  bootstrapCache?: RdapBootstrapCache;
  /** Why a lookup gave null (for the caller's log); never throws into the lookup. */
  onFailure?: (f: { domain: string; reason: RdapFailure; status?: number }) => void;
  /** The SSRF guard of every request, redirects included (lib/outbound.ts); on by default. */
  outbound?: OutboundPolicy;
}

const MAX_BODY = 1 << 20;
const MAX_REDIRECTS = 3;

type Json = { [k: string]: unknown };
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The `fn` of a jCard (RFC 7095: ["vcard", [[name, params, type, value], …]]). */
function vcardFn(entity: Json): string | null {
  const card = arr(entity.vcardArray);
  for (const prop of arr(card[1])) {
    const p = arr(prop);
    if (p[0] === 'fn') return str(p[3]);
  }
  return null;
}

function registrarOf(entities: unknown[], depth = 0): string | null {
  for (const e of entities) {
    if (!isObj(e)) continue;
    if (arr(e.roles).includes('registrar')) {
      const fn = vcardFn(e);
      if (fn) return fn;
      for (const id of arr(e.publicIds)) {
        if (isObj(id) && str(id.identifier)) return `${str(id.type) ?? 'ID'} ${str(id.identifier)}`;
      }
      if (str(e.handle)) return str(e.handle);
    }
  }
  // Some registries nest the registrar under another entity.
  if (depth < 2) {
    for (const e of entities) {
      if (isObj(e)) {
        const r = registrarOf(arr(e.entities), depth + 1);
        if (r) return r;
      }
    }
  }
  return null;
}

/** Extracts the fields from an RDAP domain object; null when it is not one. */
export function parseRdapDomain(body: unknown): RdapInfo | null {
  if (!isObj(body) || (body.objectClassName !== undefined && body.objectClassName !== 'domain')) return null;
  if (body.objectClassName === undefined && body.ldhName === undefined) return null;
  let created: string | null = null;
  for (const ev of arr(body.events)) {
    if (isObj(ev) && ev.eventAction === 'registration') {
      const d = new Date(String(ev.eventDate));
      if (!Number.isNaN(d.getTime())) created = d.toISOString();
      break;
    }
  }
  const status = [
    ...new Set(
      arr(body.status)
        .map(str)
        .filter((s): s is string => !!s),
    ),
  ];
  return { registrar: registrarOf(arr(body.entities)), created, status };
}

async function readLimited(res: Response, max = MAX_BODY): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const httpUrl = (s: string): URL | null => {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u : null;
  } catch {
    return null;
  }
};

/** Zone (ASCII, no dots at the ends) → base URLs of its RDAP servers, https first. */
export type RdapBootstrap = Map<string, URL[]>;

/**
 * The services of an RFC 9224 bootstrap file (`{version, publication, services: [[[zones…], [urls…]], …]}`);
 * null when it is not one. Zones are compared as ASCII; URLs that are not http(s) are left out.
 */
export function parseRdapBootstrap(body: unknown): RdapBootstrap | null {
  if (!isObj(body) || !Array.isArray(body.services)) return null;
  const out: RdapBootstrap = new Map();
  for (const service of body.services) {
    const [zones, urls] = arr(service);
    if (!Array.isArray(zones) || !Array.isArray(urls)) continue;
    const bases = urls
      .map((u) => (typeof u === 'string' ? httpUrl(u) : null))
      .filter((u): u is URL => u !== null)
      // RFC 9224 §3: when both are offered, prefer https.
      .sort((a, b) => Number(b.protocol === 'https:') - Number(a.protocol === 'https:'));
    if (!bases.length) continue;
    for (const z of zones) {
      const zone =
        typeof z === 'string'
          ? domainToASCII(
              z
                .trim()
                .toLowerCase()
                .replace(/^\.+|\.+$/g, ''),
            )
          : '';
      if (zone) out.set(zone, [...(out.get(zone) ?? []), ...bases]);
    }
  }
  return out;
}

/** The bootstrap servers of an ASCII name: the longest zone of the file the name ends with (RFC 9224 §4). */
function bootstrapServers(b: RdapBootstrap, ascii: string): URL[] {
  const labels = ascii.split('.');
  for (let i = 1; i < labels.length; i++) {
    const found = b.get(labels.slice(i).join('.'));
    if (found) return found;
  }
  return [];
}

/** A day, as the issue asks; the IANA file changes a few times a month. */
export const RDAP_BOOTSTRAP_TTL_MS = 24 * 3600_000;
/** After a failed fetch the file is tried again no sooner than this (a run makes thousands of lookups). */
export const RDAP_BOOTSTRAP_RETRY_MS = 5 * 60_000;
const MAX_BOOTSTRAP_BODY = 4 << 20;

export interface RdapBootstrapCache {
  /** The bootstrap of `url`: kept for a day after a fetch, a failure kept for five minutes; one fetch at a time. */
  get(url: string, timeoutMs: number): Promise<RdapBootstrap | null>;
}

export function createRdapBootstrapCache(
  opts: { ttlMs?: number; retryMs?: number; now?: () => number; outbound?: OutboundPolicy } = {},
): RdapBootstrapCache {
  const fetch = createOutboundFetch(opts.outbound ?? GUARDED);
  const ttlMs = opts.ttlMs ?? RDAP_BOOTSTRAP_TTL_MS;
  const retryMs = opts.retryMs ?? RDAP_BOOTSTRAP_RETRY_MS;
  const now = opts.now ?? Date.now;
  let kept: { url: string; until: number; value: Promise<RdapBootstrap | null> } | null = null;

  async function fetchFile(url: string, timeoutMs: number): Promise<RdapBootstrap | null> {
    try {
      // No redirects: the file is read from the configured address only.
      const res = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) {
        await res.body?.cancel();
        return null;
      }
      const text = await readLimited(res, MAX_BOOTSTRAP_BODY);
      return text === null ? null : parseRdapBootstrap(JSON.parse(text));
    } catch {
      return null;
    }
  }

  return {
    get(url, timeoutMs) {
      if (kept && kept.url === url && now() < kept.until) return kept.value;
      const entry = { url, until: Number.POSITIVE_INFINITY, value: fetchFile(url, timeoutMs) };
      kept = entry;
      void entry.value.then((b) => {
        entry.until = now() + (b ? ttlMs : retryMs);
      });
      return entry.value;
    },
  };
}

export function createRdapClient(opts: RdapOptions): {
  /** `signal`: the caller gives up (the run was cancelled) — null at once, not counted as a failure. */
  lookup(domain: string, signal?: AbortSignal): Promise<RdapInfo | null>;
} {
  const bases = new Map<string, URL>();
  for (const [tld, url] of Object.entries(opts.servers)) {
    const u = httpUrl(url);
    if (!u) throw new Error(`Некорректный адрес RDAP-сервера: «${url}»`);
    bases.set(tld.toLowerCase().replace(/^\./, ''), u);
  }
  const explicitOrigins = new Set([...bases.values()].map((u) => u.origin));
  const timeoutMs = Math.max(1, opts.timeoutMs);
  const bootstrapUrl = opts.bootstrapUrl?.trim() || null;
  if (bootstrapUrl && !httpUrl(bootstrapUrl)) throw new Error(`Некорректный адрес файла bootstrap RDAP: «${bootstrapUrl}»`);
  const outbound = opts.outbound ?? GUARDED;
  const cache = opts.bootstrapCache ?? createRdapBootstrapCache({ outbound });
  const fetch: OutboundFetch = createOutboundFetch(outbound);

  /** The bootstrap servers of `ascii`'s zone; null when the file was needed and is unavailable. */
  async function fromFile(ascii: string): Promise<URL[] | null> {
    if (!bootstrapUrl) return [];
    const b = await cache.get(bootstrapUrl, timeoutMs);
    return b ? bootstrapServers(b, ascii) : null;
  }

  /** The server to ask about `ascii`: explicit zone entry, else the file's, else '*'; or why there is none. */
  async function serverOf(ascii: string): Promise<URL | RdapFailure> {
    const explicit = bases.get(ascii.slice(ascii.lastIndexOf('.') + 1));
    if (explicit) return explicit;
    const listed = await fromFile(ascii);
    const base = listed?.[0] ?? bases.get('*');
    if (!base) return listed === null ? 'bootstrap' : 'no-server';
    return base;
  }

  /** A redirect may lead to a configured server, or to one the file names for the name's zone. */
  async function mayFollow(ascii: string, next: URL): Promise<boolean> {
    if (explicitOrigins.has(next.origin)) return true;
    return ((await fromFile(ascii)) ?? []).some((u) => u.origin === next.origin);
  }

  return {
    async lookup(domain, stop) {
      const fail = (reason: RdapFailure, status?: number) => {
        if (!stop?.aborted) opts.onFailure?.({ domain, reason, status });
        return null;
      };
      if (stop?.aborted) return null;
      const ascii = domainToASCII(domain.trim().toLowerCase().replace(/\.$/, ''));
      if (!ascii) return fail('no-server');
      const base = await serverOf(ascii);
      if (typeof base === 'string') return fail(base);
      let url = new URL(`${base.href.replace(/\/+$/, '')}/domain/${encodeURIComponent(ascii)}`);
      // One deadline for the whole lookup, redirects and body included.
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = stop ? AbortSignal.any([deadline, stop]) : deadline;
      try {
        for (let hop = 0; ; hop++) {
          const res = await fetch(url, {
            redirect: 'manual',
            signal,
            headers: { accept: 'application/rdap+json, application/json' },
          });
          if (res.status >= 300 && res.status < 400) {
            await res.body?.cancel();
            const loc = res.headers.get('location');
            const next = loc ? new URL(loc, url) : null;
            // Only to a configured server (or the zone's bootstrap server): a redirect would otherwise reach any host.
            if (!next || hop >= MAX_REDIRECTS || !(await mayFollow(ascii, next))) return fail('redirect', res.status);
            url = next;
            continue;
          }
          if (res.status === 404) {
            await res.body?.cancel();
            return fail('not-found', 404);
          }
          if (!res.ok) {
            await res.body?.cancel();
            return fail('http', res.status);
          }
          const text = await readLimited(res);
          if (text === null) return fail('invalid', res.status);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            return fail('invalid', res.status);
          }
          return parseRdapDomain(body) ?? fail('invalid', res.status);
        }
      } catch (e) {
        if (e instanceof OutboundRefusedError) return fail('forbidden');
        return fail(signal.aborted || (e as Error)?.name === 'TimeoutError' ? 'timeout' : 'network');
      }
    },
  };
}

/**
 * RDAP status values (RFC 9083 §10.2.2, the EPP statuses of RFC 8056) in Russian, for the event's
 * «Статус регистрации». Servers also send EPP's own spelling («clientTransferProhibited», «ok»).
 */
const RDAP_STATUS_RU: Record<string, string> = {
  validated: 'подтверждён',
  'renew prohibited': 'продление запрещено',
  'update prohibited': 'изменение запрещено',
  'transfer prohibited': 'передача запрещена',
  'delete prohibited': 'удаление запрещено',
  proxy: 'зарегистрирован через посредника',
  private: 'данные скрыты',
  removed: 'данные удалены',
  obscured: 'данные замаскированы',
  associated: 'связан с другими объектами',
  active: 'активен',
  ok: 'активен',
  inactive: 'неактивен',
  locked: 'заблокирован от изменений',
  'pending create': 'ожидает создания',
  'pending renew': 'ожидает продления',
  'pending transfer': 'ожидает передачи',
  'pending update': 'ожидает изменения',
  'pending delete': 'ожидает удаления',
  'pending restore': 'ожидает восстановления',
  'add period': 'льготный период после регистрации',
  'auto renew period': 'период автопродления',
  'renew period': 'льготный период после продления',
  'transfer period': 'льготный период после передачи',
  'redemption period': 'период восстановления после удаления',
  'client delete prohibited': 'удаление запрещено регистратором',
  'client hold': 'делегирование приостановлено регистратором',
  'client renew prohibited': 'продление запрещено регистратором',
  'client transfer prohibited': 'передача запрещена регистратором',
  'client update prohibited': 'изменение запрещено регистратором',
  'server delete prohibited': 'удаление запрещено реестром',
  'server hold': 'делегирование приостановлено реестром',
  'server renew prohibited': 'продление запрещено реестром',
  'server transfer prohibited': 'передача запрещена реестром',
  'server update prohibited': 'изменение запрещено реестром',
};

/** A status value in Russian; one this list does not know stays as the server sent it. */
export function rdapStatusRu(status: string): string {
  const key = status
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\s+/g, ' ');
  return RDAP_STATUS_RU[key] ?? status;
}
