import { urlHost } from '@forpost/contract/helpers';
import { isDomain, isEmail, isIPv4, isIPv6 } from '@forpost/contract/validation';
import { canonicalIp, domainKey, emailKey, nameKey, urlKey, type WhitelistSubject } from '@forpost/contract/whitelist';

/** The match keys an event's subject is compared with, per entry type. */
export interface Candidates {
  domain: string[];
  url: string[];
  email: string[];
  inn: string[];
  name: string[];
  /** A bare IP address (canonical), contained-in-CIDR checked by the database. */
  ip: string | null;
}

/** 'a.b.example.com' → ['a.b.example.com', 'b.example.com', 'example.com']: a domain entry covers its subdomains. */
export function domainSuffixes(host: string): string[] {
  const key = domainKey(host);
  if (!isDomain(key)) return [];
  const labels = key.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** 'ex.com/a/b?x=1' → ['ex.com/a/b?x=1', 'ex.com/a/b', 'ex.com/a', 'ex.com']: a URL entry covers the paths under it. */
export function urlPrefixes(url: string): string[] {
  const key = urlKey(url);
  if (!key) return [];
  const out = [key];
  const q = key.indexOf('?');
  let path = q >= 0 ? key.slice(0, q) : key;
  if (path !== key) out.push(path);
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/')) {
    path = path.slice(0, i);
    out.push(path);
  }
  return out;
}

/**
 * What each entry type is compared with. A domain entry matches the subject's domain and the host
 * of its URL (subdomains included); URL entries match the URL and the paths under it; e-mail, ИНН
 * and names match exactly (names ignoring case, 'ё' and quotes); IP entries contain the subject's IP.
 */
export function subjectCandidates(s: WhitelistSubject): Candidates {
  const domain = new Set<string>();
  const rawDomain = s.domain?.trim();
  if (rawDomain) {
    const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(rawDomain) ? urlHost(rawDomain) : rawDomain;
    if (host) for (const d of domainSuffixes(host)) domain.add(d);
  }
  const url = s.url?.trim() ? urlPrefixes(s.url) : [];
  if (s.url?.trim()) {
    const host = urlHost(s.url);
    if (host) for (const d of domainSuffixes(host)) domain.add(d);
  }
  const email = s.email?.trim() && isEmail(s.email.trim().toLowerCase()) ? [emailKey(s.email)] : [];
  const ipRaw = s.ip?.trim() ?? '';
  const ip = ipRaw && !ipRaw.includes('/') && (isIPv4(ipRaw) || isIPv6(ipRaw.toLowerCase())) ? canonicalIp(ipRaw) : null;
  const inn = s.inn?.trim() ? [s.inn.trim()] : [];
  const name = s.name?.trim() ? [nameKey(s.name)] : [];
  return { domain: [...domain], url, email, inn, name, ip };
}

export const hasCandidates = (c: Candidates) =>
  c.domain.length + c.url.length + c.email.length + c.inn.length + c.name.length > 0 || c.ip !== null;
