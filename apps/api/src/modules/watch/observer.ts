/*
 * One observation of a domain for the watch: DNS through discovery's resolver (A/AAAA, NS, MX, exact
 * RCODE; its in-flight bound and queries-per-second bucket), then, when the name has an address, the
 * page through the snapshots' SSRF-guarded probe connected to the addresses the DNS answer gave
 * (status, final URL, title, normalised-HTML hash, password field, the HTTPS peer certificate), and
 * RDAP status when asked. Observations run with a bounded concurrency, and the HTTP requests with a
 * per-destination limit: at most `perDestination.concurrency` at once and `ratePerSecond` per
 * address (lookalikes often share one parking or hosting address). Never throws for a domain.
 */
import { BLANK_WATCH_STATE, type WatchState } from '@forpost/contract/watch';
import type { OutboundPolicy } from '../../lib/outbound';
import type { RdapInfo, Resolution, Resolver } from '../discovery/index';
import { type Clock, createSemaphore, createTokenBucket, realClock, type Semaphore, type TokenBucket } from '../discovery/index';
import { PROBE_MSG, type ProbeOptions, probe } from '../snapshots/index';
import { contentHash, hasLoginForm } from './page';

export interface ObserverOptions {
  resolver: Resolver;
  outbound: OutboundPolicy;
  /** Domains observed at once. */
  concurrency: number;
  http: { timeoutMs: number; maxBytes: number; maxRedirects: number; port?: number };
  perDestination: { concurrency: number; ratePerSecond: number };
  /** RDAP lookup (discovery's client); absent = not looked up. */
  rdap?: { lookup(domain: string, signal?: AbortSignal): Promise<RdapInfo | null> } | null;
  clock?: Clock;
}

export interface Observer {
  observe(domain: string, opts?: { rdap?: boolean }): Promise<WatchState>;
  /** Observes each domain (bounded); onResult is awaited before the slot takes the next one. */
  observeMany<T extends { domain: string; rdap?: boolean }>(
    items: readonly T[],
    onResult: (item: T, state: WatchState) => Promise<void> | void,
  ): Promise<void>;
}

/** A semaphore and a token bucket per destination address, created on first use. */
export function createDestinationLimiter(opts: { concurrency: number; ratePerSecond: number }, clock: Clock = realClock) {
  const slots = new Map<string, { sem: Semaphore; bucket: TokenBucket; users: number }>();
  return async function withDestination<T>(address: string, work: () => Promise<T>): Promise<T> {
    let d = slots.get(address);
    if (!d) {
      d = {
        sem: createSemaphore(opts.concurrency),
        bucket: createTokenBucket(opts.ratePerSecond, Math.max(1, Math.floor(opts.ratePerSecond)), clock),
        users: 0,
      };
      slots.set(address, d);
    }
    d.users++;
    const release = await d.sem.acquire();
    try {
      await d.bucket.take();
      return await work();
    } finally {
      release();
      // Forget idle destinations (a round touches thousands of addresses once).
      if (--d.users === 0) slots.delete(address);
    }
  };
}

function stateOf(r: Resolution): WatchState {
  return {
    ...BLANK_WATCH_STATE,
    tls_sans: [],
    dns: r.status,
    a: [...r.a].sort(),
    aaaa: [...r.aaaa].sort(),
    ns: [...r.ns].sort(),
    mx: [...r.mx].sort(),
    http_error: null,
  };
}

export function createObserver(o: ObserverOptions): Observer {
  const clock = o.clock ?? realClock;
  const perDestination = createDestinationLimiter(o.perDestination, clock);

  async function observe(domain: string, opts: { rdap?: boolean } = {}): Promise<WatchState> {
    const r = await o.resolver.resolve(domain);
    const s = stateOf(r);
    const addresses = [...r.a, ...r.aaaa];
    const rdapP = opts.rdap && o.rdap && r.status !== 'timeout' ? o.rdap.lookup(r.name).catch(() => null) : null;
    if (r.status === 'registered' && addresses.length) {
      const po: ProbeOptions = {
        timeoutMs: o.http.timeoutMs,
        maxBytes: o.http.maxBytes,
        maxRedirects: o.http.maxRedirects,
        allowPrivate: o.outbound.allowPrivate,
        ...(o.outbound.forbidden ? { forbidden: o.outbound.forbidden } : {}),
        // The first hop connects to what the watch's DNS answered; redirects elsewhere resolve as usual.
        resolve: async (host) => (host === r.name ? addresses : (o.outbound.resolve ?? systemResolve)(host)),
        capture: true,
        ...(o.http.port ? { port: o.http.port } : {}),
      };
      const timedOut = (x: { http_status: number | null; error: string | null }) =>
        x.http_status === null && !!x.error && x.error === PROBE_MSG.timeout(Math.round(o.http.timeoutMs / 1000));
      let p = await perDestination(addresses[0] as string, () => probe(r.name, po));
      // A page that did not answer in time is asked once more before it counts as not answering.
      if (timedOut(p)) p = await perDestination(addresses[0] as string, () => probe(r.name, po));
      if (timedOut(p)) s.http_timeout = true;
      s.http_status = p.http_status;
      s.final_url = p.final_url;
      s.title = p.page_title;
      s.http_error = p.error;
      if (p.body && p.http_status !== null) {
        const isHtml = !p.content_type || /html|xml|text/i.test(p.content_type);
        const text = isHtml ? p.body.toString('utf8') : '';
        s.content_hash = isHtml ? contentHash(text) : contentHash(p.body.toString('latin1'));
        s.login_form = isHtml && hasLoginForm(text);
      }
      if (p.cert) {
        s.tls_issuer = p.cert.issuer;
        s.tls_sans = [...p.cert.sans].sort();
        s.tls_fingerprint = p.cert.fingerprint256;
        if (p.cert.serial) s.tls_serial = p.cert.serial;
        s.tls_source = 'tls';
      }
    }
    if (rdapP) {
      const info = await rdapP;
      s.rdap_status = info ? [...info.status].sort() : null;
    }
    return s;
  }

  return {
    observe,
    async observeMany(items, onResult) {
      let next = 0;
      let failure: unknown = null;
      const worker = async () => {
        while (failure === null && next < items.length) {
          const item = items[next++] as (typeof items)[number];
          try {
            await onResult(item, await observe(item.domain, { rdap: item.rdap }));
          } catch (e) {
            failure ??= e;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, items.length)) }, worker));
      if (failure !== null) throw failure;
    },
  };
}

async function systemResolve(host: string): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** The part of a state that makes it distinct (the HTTP error text and RDAP misses do not). */
export function stateKey(s: WatchState): string {
  const { http_error: _e, http_timeout: _t, ...rest } = s;
  return JSON.stringify(rest);
}
