/*
 * RDAP domain lookup (RFC 9082 query path, RFC 9083 response) for registration data of a discovered
 * domain: registrar, creation date, status. Only the configured servers are contacted: the server
 * is chosen by TLD (key '*' = default), a redirect is followed only to one of the configured
 * servers' origins, and every failure (404, timeout, 5xx, bad JSON, a redirect elsewhere) is `null`
 * — registration data fills fields, it never fails a run.
 */
import { domainToASCII } from 'node:url';

export interface RdapInfo {
  registrar: string | null;
  created: string | null /* ISO 8601 */;
  status: string[];
}
export type RdapFailure = 'not-found' | 'timeout' | 'http' | 'network' | 'invalid' | 'redirect' | 'no-server';
export interface RdapOptions {
  servers: Record<string, string> /* tld (punycode, no dot) or '*' → base URL */;
  timeoutMs: number;
  /** Why a lookup gave null (for the caller's log); never throws into the lookup. */
  onFailure?: (f: { domain: string; reason: RdapFailure; status?: number }) => void;
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

async function readLimited(res: Response): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createRdapClient(opts: RdapOptions): { lookup(domain: string): Promise<RdapInfo | null> } {
  const bases = new Map<string, URL>();
  for (const [tld, url] of Object.entries(opts.servers)) {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`Некорректный адрес RDAP-сервера: «${url}»`);
    bases.set(tld.toLowerCase().replace(/^\./, ''), u);
  }
  const origins = new Set([...bases.values()].map((u) => u.origin));
  const timeoutMs = Math.max(1, opts.timeoutMs);

  return {
    async lookup(domain) {
      const fail = (reason: RdapFailure, status?: number) => {
        opts.onFailure?.({ domain, reason, status });
        return null;
      };
      const ascii = domainToASCII(domain.trim().toLowerCase().replace(/\.$/, ''));
      const tld = ascii.slice(ascii.lastIndexOf('.') + 1);
      const base = bases.get(tld) ?? bases.get('*');
      if (!ascii || !base) return fail('no-server');
      let url = new URL(`${base.href.replace(/\/+$/, '')}/domain/${encodeURIComponent(ascii)}`);
      // One deadline for the whole lookup, redirects and body included.
      const signal = AbortSignal.timeout(timeoutMs);
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
            // Only to a configured server: RDAP bootstrap redirects would otherwise reach any host.
            if (!next || !origins.has(next.origin) || hop >= MAX_REDIRECTS) return fail('redirect', res.status);
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
        return fail(signal.aborted || (e as Error)?.name === 'TimeoutError' ? 'timeout' : 'network');
      }
    },
  };
}
