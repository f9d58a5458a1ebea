/*
 * The classifier of the watch: which named transitions (contract TRANSITIONS) lie between two
 * observations of a domain. Pure; the rules, in words:
 *
 *   reach of a state: 0 not registered (NXDOMAIN), 1 registered without an address, 2 an address
 *   but no page, 3 a page (final HTTP status 2xx/3xx). DNS failures (SERVFAIL, timeout) say nothing:
 *   no transition is read from or into them.
 *
 *   offline          reach went down (NXDOMAIN, no A/AAAA, or the page is gone: 4xx/5xx/no answer)
 *   came_back        reach went up while the domain was down (an earlier `offline`)
 *   parked           not parked → parked (registered with only NS, or NS of a parking service),
 *                    unless the same step went offline or came back
 *   web_live         no page → a page, unless it came back
 *   mx_appeared      no MX → MX
 *   login_form       no password field → a password field on a live page
 *   content_changed  a page → a page with another normalised-HTML hash, unless the login form appeared
 *   cert_issued      a certificate never seen on the domain before: neither its fingerprint nor its
 *                    serial (a CT precertificate and the certificate later served share the serial)
 *                    was in an earlier state — served by the site, or (serving none) from the CT monitor
 *
 * The first observation is the baseline: no transitions. (A page that timed out twice is carried over
 * from the previous state once by the worker, watch.jobs.ts: one slow answer is no `offline`.)
 */
import { TRANSITION_KINDS, type TransitionKind, type WatchState } from '@forpost/contract/watch';

/** Name servers of parking services (a suffix match on the NS host). */
export const PARKING_NS = [
  'sedoparking.com',
  'parkingcrew.net',
  'bodis.com',
  'above.com',
  'parklogic.com',
  'domaincontrol.com.parked',
  'dan.com',
  'afternic.com',
  'namebrightdns.com',
  'parking.reg.ru',
  'parking.ru',
  'parking.nic.ru',
  'expired.reg.ru',
  'ns1.parking.test',
  'parking.test',
];

export const isParkingNs = (ns: string) => {
  const h = ns.toLowerCase().replace(/\.$/, '');
  return PARKING_NS.some((p) => h === p || h.endsWith(`.${p}`));
};

/** Did the DNS answer say something (registered or NXDOMAIN), as opposed to a failure to ask? */
export const dnsKnown = (s: WatchState) => s.dns === 'registered' || s.dns === 'nxdomain';
const hasAddress = (s: WatchState) => s.a.length > 0 || s.aaaa.length > 0;
export const webLive = (s: WatchState) =>
  s.dns === 'registered' && hasAddress(s) && s.http_status !== null && s.http_status >= 200 && s.http_status < 400;

export function reach(s: WatchState): 0 | 1 | 2 | 3 {
  if (s.dns !== 'registered') return 0;
  if (!hasAddress(s)) return 1;
  return webLive(s) ? 3 : 2;
}

export function isParked(s: WatchState): boolean {
  if (s.dns !== 'registered') return false;
  if (s.ns.some(isParkingNs)) return true;
  return !hasAddress(s) && s.ns.length > 0;
}

/** The identities of a state's certificate: `fp:<fingerprint>` and, when known, `sn:<serial>`. */
export function certKeys(s: WatchState | null): string[] {
  if (!s?.tls_fingerprint) return [];
  return s.tls_serial ? [`fp:${s.tls_fingerprint}`, `sn:${s.tls_serial}`] : [`fp:${s.tls_fingerprint}`];
}

export interface Classified {
  kinds: TransitionKind[];
  /** The domain is down after this observation (set by `offline`, cleared by `came_back`). */
  down: boolean;
}

/**
 * Transitions from `prev` to `next`; `down` — whether the domain was down before `next` (an earlier
 * `offline` not yet followed by `came_back`); `lastFingerprint` — the last certificate seen.
 */
export function transitionsBetween(
  prev: WatchState | null,
  next: WatchState,
  down = false,
  /** The last certificate fingerprint seen before `prev` (a page that went down and came back with it is no new certificate). */
  lastFingerprint: string | null = null,
  /** Every certificate identity (certKeys) the domain's earlier states showed. */
  seenCerts: readonly string[] = [],
): Classified {
  if (!prev) return { kinds: [], down: false };
  // A failed DNS question is no observation of the domain: nothing changes.
  if (!dnsKnown(next) || !dnsKnown(prev)) return { kinds: [], down };
  const out = new Set<TransitionKind>();
  const r0 = reach(prev);
  const r1 = reach(next);
  let isDown = down;
  if (r1 < r0) {
    out.add('offline');
    isDown = true;
  } else if (r1 > r0 && down && r1 >= 2) {
    // Back with an address at least (a registration without one is still down).
    out.add('came_back');
    isDown = false;
  }
  const offOrBack = out.has('offline') || out.has('came_back');
  if (!isParked(prev) && isParked(next) && !offOrBack) out.add('parked');
  if (!webLive(prev) && webLive(next) && !out.has('came_back')) out.add('web_live');
  if (prev.mx.length === 0 && next.mx.length > 0) out.add('mx_appeared');
  const login0 = webLive(prev) && prev.login_form;
  const login1 = webLive(next) && next.login_form;
  if (!login0 && login1) out.add('login_form');
  if (webLive(prev) && webLive(next) && prev.content_hash !== next.content_hash && !out.has('login_form'))
    out.add('content_changed');
  if (next.tls_fingerprint) {
    const known = new Set([...seenCerts, ...certKeys(prev), ...(lastFingerprint ? [`fp:${lastFingerprint}`] : [])]);
    if (!certKeys(next).some((k) => known.has(k))) out.add('cert_issued');
  }
  return { kinds: TRANSITION_KINDS.filter((k) => out.has(k)), down: isDown };
}

/** What of a state a transition row keeps (before/after): the fields that changed for that kind. */
export function summaryOf(kind: TransitionKind, s: WatchState | null): Record<string, unknown> | null {
  if (!s) return null;
  switch (kind) {
    case 'mx_appeared':
      return { mx: s.mx };
    case 'parked':
      return { dns: s.dns, ns: s.ns, a: s.a };
    case 'login_form':
      return { login_form: s.login_form, final_url: s.final_url, title: s.title };
    case 'content_changed':
      return { content_hash: s.content_hash, title: s.title };
    case 'cert_issued':
      return {
        tls_issuer: s.tls_issuer,
        tls_sans: s.tls_sans,
        tls_fingerprint: s.tls_fingerprint,
        ...(s.tls_source ? { tls_source: s.tls_source } : {}),
      };
    default:
      return { dns: s.dns, a: s.a, http_status: s.http_status, final_url: s.final_url };
  }
}
