/*
 * Who to write to: the abuse contacts of a domain's registrar and of its hosting network, by RDAP.
 *
 *   registrar  the domain's RDAP answer (server: an explicit `tld=url` of discovery's settings, the
 *              RFC 9224 dns.json bootstrap, or '*'): the entity with role `abuse` nested under the
 *              entity with role `registrar` (ICANN's RDAP response profile) — its jCard `email`.
 *   hosting    the IP's RDAP answer from the RIR the RFC 9224 ipv4.json / ipv6.json bootstrap names
 *              for the longest matching prefix (the files lie next to dns.json: the same directory);
 *              the network's `abuse` entity (top level or nested under another), the network's name
 *              and its registrant's name for the «hosting» figure. A redirect (RIRs refer to each other)
 *              is followed only to a server the bootstrap files name.
 *
 * Every failure is «not found» with a reason: recipients are proposed, the analyst edits them.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { createOutboundFetch, type OutboundPolicy } from '../../lib/outbound';
import { parseRdapBootstrap } from '../discovery/index';

type Json = { [k: string]: unknown };
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export interface AbuseContact {
  email: string;
  name: string | null;
  /** The RDAP URL the contact was read from. */
  source: string;
}
export interface DomainRdap {
  registrar: string | null;
  abuse: AbuseContact | null;
  created: string | null;
  expires: string | null;
  updated: string | null;
  status: string[];
  nameservers: string[];
}
export interface NetworkRdap {
  /** The network's name and its owner (registrant) — what the hosting figure names. */
  name: string | null;
  owner: string | null;
  handle: string | null;
  country: string | null;
  abuse: AbuseContact | null;
}

/** The jCard property values of `name` (RFC 7095). */
function vcard(entity: Json, name: string): string[] {
  const out: string[] = [];
  for (const prop of arr(arr(entity.vcardArray)[1])) {
    const p = arr(prop);
    if (p[0] === name) {
      const v = str(p[3]);
      if (v) out.push(v.replace(/^mailto:/i, ''));
    }
  }
  return out;
}
const roles = (e: Json) => arr(e.roles).map((r) => String(r).toLowerCase());
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The first entity with role `abuse` among `entities` (and, to `depth`, their nested entities) with an e-mail. */
function abuseIn(entities: unknown[], source: string, depth = 2): AbuseContact | null {
  for (const e of entities) {
    if (!isObj(e) || !roles(e).includes('abuse')) continue;
    const email = vcard(e, 'email').find((x) => EMAIL.test(x));
    if (email) return { email: email.toLowerCase(), name: vcard(e, 'fn')[0] ?? null, source };
  }
  if (depth > 0)
    for (const e of entities) {
      if (!isObj(e)) continue;
      const found = abuseIn(arr(e.entities), source, depth - 1);
      if (found) return found;
    }
  return null;
}

function eventDate(body: Json, action: string): string | null {
  for (const ev of arr(body.events)) {
    if (isObj(ev) && ev.eventAction === action) {
      const d = new Date(String(ev.eventDate));
      return Number.isNaN(d.getTime()) ? null : d.toISOString();
    }
  }
  return null;
}

/** Registrar, its abuse contact, dates, status and name servers of an RDAP domain answer. */
export function parseDomainRdap(body: unknown, source: string): DomainRdap | null {
  if (!isObj(body) || (body.objectClassName !== undefined && body.objectClassName !== 'domain')) return null;
  const registrar = arr(body.entities).find((e): e is Json => isObj(e) && roles(e).includes('registrar')) ?? null;
  let registrarName: string | null = null;
  if (registrar) {
    registrarName = vcard(registrar, 'fn')[0] ?? null;
    if (!registrarName)
      for (const id of arr(registrar.publicIds))
        if (isObj(id) && str(id.identifier)) registrarName = `${str(id.type) ?? 'ID'} ${str(id.identifier)}`;
    registrarName ??= str(registrar.handle);
  }
  return {
    registrar: registrarName,
    // ICANN profile: the abuse contact is nested under the registrar; some registries put it at the top.
    abuse: (registrar ? abuseIn(arr(registrar.entities), source, 1) : null) ?? abuseIn(arr(body.entities), source, 0),
    created: eventDate(body, 'registration'),
    expires: eventDate(body, 'expiration'),
    updated: eventDate(body, 'last changed'),
    status: arr(body.status)
      .map(str)
      .filter((s): s is string => !!s),
    nameservers: arr(body.nameservers)
      .map((n) => (isObj(n) ? str(n.ldhName)?.toLowerCase() : null))
      .filter((s): s is string => !!s),
  };
}

/** The network's name, owner and abuse contact of an RDAP ip network answer. */
export function parseNetworkRdap(body: unknown, source: string): NetworkRdap | null {
  if (!isObj(body) || (body.objectClassName !== undefined && body.objectClassName !== 'ip network')) return null;
  const entities = arr(body.entities);
  const owner = entities.find((e): e is Json => isObj(e) && roles(e).includes('registrant'));
  return {
    name: str(body.name),
    owner: owner ? (vcard(owner, 'fn')[0] ?? str(owner.handle)) : null,
    handle: str(body.handle),
    country: str(body.country)?.toUpperCase() ?? null,
    abuse: abuseIn(entities, source, 2),
  };
}

/** An RFC 9224 ipv4/ipv6 bootstrap: prefix → base URLs. */
type IpBootstrap = { net: bigint; bits: number; v6: boolean; urls: URL[] }[];

function ipToBig(ip: string): { v: bigint; v6: boolean } | null {
  const kind = isIP(ip);
  if (kind === 4) return { v: ip.split('.').reduce((a, o) => (a << 8n) | BigInt(Number(o)), 0n), v6: false };
  if (kind !== 6) return null;
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  let t = tail !== undefined && tail ? tail.split(':') : [];
  // An embedded IPv4 at the end.
  const last = (t.length ? t : h).at(-1) ?? '';
  if (last.includes('.')) {
    const v4 = ipToBig(last);
    if (!v4) return null;
    const parts = [Number((v4.v >> 16n) & 0xffffn).toString(16), Number(v4.v & 0xffffn).toString(16)];
    if (t.length) t = [...t.slice(0, -1), ...parts];
    else h.splice(h.length - 1, 1, ...parts);
  }
  const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return { v: groups.reduce((a, g) => (a << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n), v6: true };
}

export function parseIpBootstrap(body: unknown): IpBootstrap | null {
  if (!isObj(body) || !Array.isArray(body.services)) return null;
  const out: IpBootstrap = [];
  for (const service of body.services) {
    const [prefixes, urls] = arr(service);
    const bases = arr(urls)
      .map((u) => {
        try {
          const x = new URL(String(u));
          return x.protocol === 'https:' || x.protocol === 'http:' ? x : null;
        } catch {
          return null;
        }
      })
      .filter((u): u is URL => u !== null)
      .sort((a, b) => Number(b.protocol === 'https:') - Number(a.protocol === 'https:'));
    if (!bases.length) continue;
    for (const p of arr(prefixes)) {
      const [addr, len] = String(p).split('/');
      const ip = ipToBig(addr ?? '');
      const bits = Number(len);
      if (!ip || !Number.isInteger(bits)) continue;
      out.push({ net: ip.v, bits, v6: ip.v6, urls: bases });
    }
  }
  return out;
}

/** The servers of the longest prefix containing `ip` (RFC 9224 §5.1). */
export function ipServers(b: IpBootstrap, ip: string): URL[] {
  const x = ipToBig(ip);
  if (!x) return [];
  const width = x.v6 ? 128n : 32n;
  let best: IpBootstrap[number] | null = null;
  for (const e of b) {
    if (e.v6 !== x.v6) continue;
    const shift = width - BigInt(e.bits);
    if (x.v >> shift === e.net >> shift && (!best || e.bits > best.bits)) best = e;
  }
  return best?.urls ?? [];
}

export interface AbuseFinderOptions {
  /** discovery's RDAP settings: explicit servers by zone ('*' = any) and the dns.json bootstrap. */
  servers: Record<string, string>;
  bootstrapUrl: string | null;
  timeoutMs: number;
  outbound: OutboundPolicy;
}

const MAX_BODY = 1 << 20;

export function createAbuseFinder(opts: AbuseFinderOptions) {
  const fetch = createOutboundFetch(opts.outbound);
  const timeoutMs = Math.max(1, opts.timeoutMs);
  const files = new Map<string, Promise<unknown>>();

  async function getJson(url: string): Promise<{ body: unknown; url: string } | null> {
    try {
      const res = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/rdap+json, application/json' },
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        return { body: null, url: res.headers.get('location') ? new URL(res.headers.get('location') ?? '', url).href : '' };
      }
      if (!res.ok) {
        await res.body?.cancel();
        return null;
      }
      const text = await res.text();
      if (text.length > MAX_BODY) return null;
      return { body: JSON.parse(text), url };
    } catch {
      return null;
    }
  }
  /** A bootstrap file, fetched once per finder. */
  function file(url: string): Promise<unknown> {
    let f = files.get(url);
    if (!f) {
      f = getJson(url).then((r) => r?.body ?? null);
      files.set(url, f);
    }
    return f;
  }
  const sibling = (name: string) => (opts.bootstrapUrl ? new URL(name, opts.bootstrapUrl).href : null);

  /** GET with redirects only to `allowed` origins (3 at most). */
  async function follow(url: string, allowed: Set<string>): Promise<{ body: unknown; url: string } | null> {
    let u = url;
    for (let hop = 0; hop < 4; hop++) {
      const r = await getJson(u);
      if (!r) return null;
      if (r.body !== null) return r;
      if (!r.url || !allowed.has(new URL(r.url).origin)) return null;
      u = r.url;
    }
    return null;
  }

  return {
    async domain(name: string): Promise<DomainRdap | null> {
      const ascii = domainToASCII(name.trim().toLowerCase().replace(/\.$/, ''));
      if (!ascii) return null;
      const tld = ascii.slice(ascii.lastIndexOf('.') + 1);
      let base = opts.servers[tld] ?? null;
      const allowed = new Set(Object.values(opts.servers).map((s) => new URL(s).origin));
      if (!base && opts.bootstrapUrl) {
        const b = parseRdapBootstrap(await file(opts.bootstrapUrl));
        const labels = ascii.split('.');
        for (let i = 1; i < labels.length && !base; i++) base = b?.get(labels.slice(i).join('.'))?.[0]?.href ?? null;
        for (const urls of b?.values() ?? []) for (const u of urls) allowed.add(u.origin);
      }
      base ??= opts.servers['*'] ?? null;
      if (!base) return null;
      const r = await follow(`${base.replace(/\/+$/, '')}/domain/${encodeURIComponent(ascii)}`, allowed);
      return r ? parseDomainRdap(r.body, r.url) : null;
    },

    async network(ip: string): Promise<NetworkRdap | null> {
      const v = isIP(ip);
      if (!v) return null;
      const url = sibling(v === 4 ? 'ipv4.json' : 'ipv6.json');
      if (!url) return null;
      const b = parseIpBootstrap(await file(url));
      if (!b) return null;
      const allowed = new Set(b.flatMap((e) => e.urls.map((u) => u.origin)));
      const base = ipServers(b, ip)[0];
      if (!base) return null;
      const r = await follow(`${base.href.replace(/\/+$/, '')}/ip/${ip}`, allowed);
      return r ? parseNetworkRdap(r.body, r.url) : null;
    },
  };
}
export type AbuseFinder = ReturnType<typeof createAbuseFinder>;
