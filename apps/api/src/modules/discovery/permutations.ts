/*
 * Permutation engine of discovery (issue #17): every lookalike candidate of a domain, by the fuzzer
 * families of packages/contract/src/fuzzers.ts (definitions in permutations/families.ts). Pure and
 * synchronous, no network. Each candidate has its ASCII (punycode, IDNA UTS #46 non-transitional)
 * and Unicode forms and the first family (in FUZZERS order) that made it; the input itself, invalid
 * host names and duplicates are dropped. Measured against dnstwist in bench/permutations.bench.ts.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { FUZZERS, type Fuzzer } from '@forpost/contract/fuzzers';
import { parse } from 'tldts';
import { ApiError } from '../../lib/errors';
import { CYRILLIC_WORDS, LATIN_WORDS } from './permutations/dictionary';
import { FAMILIES, type FamilyInput, type Target } from './permutations/families';
import { toHostname } from './permutations/hostname';
import { DEFAULT_TLDS } from './permutations/tlds';

export type { Fuzzer } from '@forpost/contract/fuzzers';

export interface Candidate {
  /** ASCII (punycode). */
  domain: string;
  unicode: string;
  fuzzer: Fuzzer;
}

export interface PermutationOptions {
  /** Words for the dictionary family (default: the Russian-market list of permutations/dictionary.ts). */
  dictionary?: readonly string[];
  /** Words added to the dictionary (default or given): a company's own combo words. */
  extraWords?: readonly string[];
  /** Zones for the tld-swap family, ASCII or Unicode (default: permutations/tlds.ts). */
  tlds?: readonly string[];
}

export const PERMUTATION_MSG = {
  empty: 'Укажите домен, например example.ru',
  notDomain: 'Это не домен. Укажите домен, например example.ru',
  ip: 'Укажите домен, а не IP-адрес, например example.ru',
  tooLong: 'Домен длиннее 253 символов',
  labelTooLong: 'Часть домена между точками длиннее 63 символов',
  suffixOnly: 'Это доменная зона, а не домен. Укажите домен, например example.ru',
} as const;

/** Input that is not a domain; an HTTP 400 with the Russian message when it reaches a route. */
export class DiscoveryInputError extends ApiError {
  constructor(message: string) {
    super(400, message, { fields: { domain: message } });
    this.name = 'DiscoveryInputError';
  }
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const WORD = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
/** Longer input is rejected before any parsing (a host name has at most 253 characters). */
const MAX_INPUT = 1024;

/** Parses and checks the input domain (Unicode or punycode, a URL is reduced to its host). */
export function parseTarget(input: string): Target {
  let s = typeof input === 'string' ? input.trim() : '';
  if (!s) throw new DiscoveryInputError(PERMUTATION_MSG.empty);
  if (s.length > MAX_INPUT) throw new DiscoveryInputError(PERMUTATION_MSG.tooLong);
  if (SCHEME.test(s)) {
    try {
      s = new URL(s).hostname;
    } catch {
      throw new DiscoveryInputError(PERMUTATION_MSG.notDomain);
    }
  }
  s = s.toLowerCase().replace(/\.$/, '');
  if (isIP(s.replace(/^\[(.*)\]$/, '$1'))) throw new DiscoveryInputError(PERMUTATION_MSG.ip);
  if (/\s/.test(s) || !s) throw new DiscoveryInputError(PERMUTATION_MSG.notDomain);
  const host = toHostname(s);
  if (!host) {
    const zone = parse(s, { allowPrivateDomains: true, extractHostname: false, validateHostname: false });
    if (zone.isIcann && zone.publicSuffix === s) throw new DiscoveryInputError(PERMUTATION_MSG.suffixOnly);
    const ascii = domainToASCII(s);
    if (ascii && isIP(ascii)) throw new DiscoveryInputError(PERMUTATION_MSG.ip);
    if (ascii && ascii.length > 253) throw new DiscoveryInputError(PERMUTATION_MSG.tooLong);
    if (ascii.split('.').some((l) => l.length > 63)) throw new DiscoveryInputError(PERMUTATION_MSG.labelTooLong);
    throw new DiscoveryInputError(PERMUTATION_MSG.notDomain);
  }
  const parsed = parse(host.ascii, { allowPrivateDomains: true, extractHostname: false, validateHostname: false });
  if (parsed.isIp) throw new DiscoveryInputError(PERMUTATION_MSG.ip);
  if (!parsed.domain || !parsed.publicSuffix) throw new DiscoveryInputError(PERMUTATION_MSG.suffixOnly);
  const suffixLabels = parsed.publicSuffix.split('.').length;
  const a = host.ascii.split('.');
  const u = host.unicode.split('.');
  const at = a.length - suffixLabels - 1;
  const label = u[at] ?? '';
  return {
    ascii: host.ascii,
    unicode: host.unicode,
    sub: u.slice(0, at).join('.'),
    label,
    labelAscii: a[at] ?? '',
    suffix: u.slice(at + 1).join('.'),
    suffixAscii: a.slice(at + 1).join('.'),
    cyrillic: CYRILLIC.test(label),
  };
}

function zones(list: readonly string[]): string[] {
  const out = new Set<string>();
  for (const z of list) {
    const h = toHostname(`x.${z.trim().toLowerCase().replace(/^\./, '')}`);
    if (h) out.add(h.unicode.slice(2));
  }
  return [...out];
}

function words(list: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of list) {
    const n = w.trim().normalize('NFC').toLowerCase();
    if (WORD.test(n)) out.add(n);
  }
  return [...out];
}

const DEFAULT_ZONES = zones(DEFAULT_TLDS);
const DEFAULT_LATIN_WORDS = words(LATIN_WORDS);
const DEFAULT_ALL_WORDS = words([...LATIN_WORDS, ...CYRILLIC_WORDS]);

/** `base` and the valid extra words not in it; Cyrillic words go to Cyrillic labels only (see dictionary.ts). */
function withExtra(base: string[], extra: readonly string[] | undefined, cyrillic: boolean): string[] {
  if (!extra?.length) return base;
  const have = new Set(base);
  const add = words(extra).filter((w) => !have.has(w) && (cyrillic || !CYRILLIC.test(w)));
  return add.length ? [...add, ...base] : base;
}

/**
 * Every lookalike candidate of `domain`. Throws DiscoveryInputError (Russian message) for input that
 * is not a domain. Never includes the input itself.
 */
export function generatePermutations(domain: string, opts: PermutationOptions = {}): Candidate[] {
  const target = parseTarget(domain);
  const input: FamilyInput = {
    target,
    tlds: opts.tlds ? zones(opts.tlds) : DEFAULT_ZONES,
    words: withExtra(
      opts.dictionary ? words(opts.dictionary) : target.cyrillic ? DEFAULT_ALL_WORDS : DEFAULT_LATIN_WORDS,
      opts.extraWords,
      target.cyrillic,
    ),
  };
  const seen = new Set<string>([target.unicode]);
  const taken = new Set<string>([target.ascii]);
  const out: Candidate[] = [];
  const aLabels = new Map<string, string>();
  for (const fuzzer of FUZZERS) {
    FAMILIES[fuzzer](input, (name) => {
      if (seen.has(name)) return;
      seen.add(name);
      const h = toHostname(name, aLabels);
      if (!h || taken.has(h.ascii)) return;
      taken.add(h.ascii);
      out.push({ domain: h.ascii, unicode: h.unicode, fuzzer });
    });
  }
  return out;
}
