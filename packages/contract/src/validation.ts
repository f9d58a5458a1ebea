/* Pure validators and zod schemas shared by the console forms and the API (the zod-free ones: validators.ts). */
import { z } from 'zod';
import { MSG } from './messages';
import { isDomain, isEmail, isStrongPassword, isUrl, notTooLongPassword } from './validators';

export { isDomain, isEmail, isStrongPassword, isUrl, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './validators';

/** Required strong password; one message per failure: required → too long → weak. Never trimmed. */
export const passwordSchema = z
  .string({ error: MSG.required })
  .min(1, { error: MSG.required, abort: true })
  .refine(notTooLongPassword, { error: MSG.passwordTooLong, abort: true })
  .refine(isStrongPassword, { error: MSG.weakPassword });

/** Like `passwordSchema`, but `undefined` and '' (= "leave unchanged") are accepted as is. */
export const optionalPasswordSchema = z
  .string({ error: MSG.required })
  .refine((s) => s === '' || notTooLongPassword(s), { error: MSG.passwordTooLong, abort: true })
  .refine((s) => s === '' || isStrongPassword(s), { error: MSG.weakPassword })
  .optional();

/** Required e-mail, trimmed and lower-cased. */
export const emailSchema = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, { error: MSG.required, abort: true })
  .refine(isEmail, { error: MSG.email });

/** Required http(s) URL, trimmed. */
export const urlSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .refine(isUrl, { error: MSG.url });

/** Required domain (Unicode or punycode form kept as typed), trimmed and lower-cased. */
export const domainSchema = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, { error: MSG.required, abort: true })
  .refine(isDomain, { error: MSG.domain });

// ---------------------------------------------------------------------------
// Bank cards
// ---------------------------------------------------------------------------

/** Luhn (mod 10) checksum of a string of ASCII digits; false for anything else or ''. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const CARD_SEPARATORS = /[\s-]/g;

/** 13–19 digits (spaces and dashes ignored) passing the Luhn check. */
export function isCardNumber(s: string): boolean {
  const digits = s.replace(CARD_SEPARATORS, '');
  return /^\d{13,19}$/.test(digits) && luhnValid(digits);
}

/** Required card number; the parsed value is digits only ('4276 1234 …' → '42761234…'). */
export const cardNumberSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .refine(isCardNumber, { error: MSG.card, abort: true })
  .overwrite((s) => s.replace(CARD_SEPARATORS, ''));

// ---------------------------------------------------------------------------
// IP addresses and CIDR
// ---------------------------------------------------------------------------

const IPV4_OCTET = /^(?:0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
const MAPPED_PREFIX = 0xffff00000000n;
const ALL_ONES_128 = (1n << 128n) - 1n;

function parseIPv4(s: string): number | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const p of parts) {
    if (!IPV4_OCTET.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

function parseIPv6(s: string): bigint | null {
  let str = s;
  if (str.includes('.')) {
    const lastColon = str.lastIndexOf(':');
    if (lastColon < 0) return null;
    const v4 = parseIPv4(str.slice(lastColon + 1));
    if (v4 === null) return null;
    str = `${str.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  let groups: string[];
  const dbl = str.indexOf('::');
  if (dbl >= 0) {
    if (str.indexOf('::', dbl + 1) >= 0) return null;
    const head = str.slice(0, dbl);
    const tail = str.slice(dbl + 2);
    const headGroups = head === '' ? [] : head.split(':');
    const tailGroups = tail === '' ? [] : tail.split(':');
    const missing = 8 - headGroups.length - tailGroups.length;
    if (missing < 1) return null;
    groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  } else {
    groups = str.split(':');
    if (groups.length !== 8) return null;
  }
  let value = 0n;
  for (const g of groups) {
    if (!HEX_GROUP.test(g)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(g, 16));
  }
  return value;
}

/** Dotted-quad IPv4, each octet 0–255 without leading zeros ('010.0.0.1' is rejected). */
export function isIPv4(s: string): boolean {
  return parseIPv4(s) !== null;
}

/**
 * IPv6 in any RFC 4291 text form: full, `::`-compressed ('::', '::1', '2001:db8::'), with an
 * embedded IPv4 tail ('::ffff:1.2.3.4'); case-insensitive hex; zone ids ('%eth0') are rejected.
 */
export function isIPv6(s: string): boolean {
  return parseIPv6(s) !== null;
}

interface ParsedNet {
  family: 4 | 6;
  /** The address as typed, in its family's bit width. */
  address: bigint;
  /** Prefix as typed, or null for a bare address. */
  prefix: number | null;
  /** Address in the 128-bit space (IPv4 as IPv4-mapped IPv6 ::ffff:a.b.c.d). */
  address128: bigint;
  /** Prefix length in the 128-bit space. */
  prefix128: number;
}

function parseNet(input: string): ParsedNet | null {
  const s = input.trim();
  const slash = s.indexOf('/');
  const addr = slash < 0 ? s : s.slice(0, slash);
  let prefix: number | null = null;
  if (slash >= 0) {
    const p = s.slice(slash + 1);
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p)) return null;
    prefix = Number(p);
  }
  const v4 = parseIPv4(addr);
  if (v4 !== null) {
    if (prefix !== null && prefix > 32) return null;
    const address = BigInt(v4);
    return { family: 4, address, prefix, address128: MAPPED_PREFIX | address, prefix128: 96 + (prefix ?? 32) };
  }
  const v6 = parseIPv6(addr);
  if (v6 !== null) {
    if (prefix !== null && prefix > 128) return null;
    return { family: 6, address: v6, prefix, address128: v6, prefix128: prefix ?? 128 };
  }
  return null;
}

/** IPv4, IPv4/0..32, IPv6 or IPv6/0..128 (prefix in decimal without leading zeros). */
export function isIpOrCidr(s: string): boolean {
  return s.trim() === s && parseNet(s) !== null;
}

/** Normalised form of an allowed-IP entry for comparisons: trimmed and lower-cased. */
export function normalizeIpEntry(s: string): string {
  return s.trim().toLowerCase();
}

function netKey(s: string): string {
  const n = parseNet(s);
  if (n === null) return `raw:${normalizeIpEntry(s)}`;
  return `${n.family}:${n.address.toString(16)}/${n.prefix ?? ''}`;
}

/**
 * Validates an entry typed into an allowed-IP list. Returns null when it is fine or empty,
 * `MSG.ip` when it is not an IP/CIDR, `MSG.ipDuplicate` when the list already has it (compared
 * after trimming and lower-casing; equivalent IPv6 spellings such as '::1' and '0:0::1' count as
 * the same entry).
 */
export function validateAllowedIpEntry(entry: string, existing: readonly string[]): string | null {
  const value = normalizeIpEntry(entry);
  if (value === '') return null;
  if (!isIpOrCidr(value)) return MSG.ip;
  const key = netKey(value);
  for (const e of existing) {
    if (normalizeIpEntry(e) === value || netKey(e) === key) return MSG.ipDuplicate;
  }
  return null;
}

/**
 * Whether `ip` (a bare IPv4 or IPv6 address) lies in `cidrOrIp` (an address or a CIDR range).
 * Both families are compared in one 128-bit space in which IPv4 is IPv4-mapped IPv6, so the
 * '::ffff:10.1.2.3' a dual-stack socket reports matches '10.0.0.0/8', and '::ffff:10.0.0.0/104'
 * is the same range. Host bits set in the range ('10.0.0.1/8') are ignored. Anything malformed
 * (including zone ids and a prefix on `ip`) never matches.
 */
export function ipInCidr(ip: string, cidrOrIp: string): boolean {
  if (ip.includes('/')) return false;
  const a = parseNet(ip);
  const net = parseNet(cidrOrIp);
  if (a === null || net === null) return false;
  const mask = ALL_ONES_128 ^ ((1n << BigInt(128 - net.prefix128)) - 1n);
  return (a.address128 & mask) === (net.address128 & mask);
}

/** Required allowed-IP entry (IP or CIDR), trimmed and lower-cased. */
export const ipOrCidrSchema = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, { error: MSG.required, abort: true })
  .refine(isIpOrCidr, { error: MSG.ip });

// ---------------------------------------------------------------------------
// Russian company identifiers
// ---------------------------------------------------------------------------

function weightedCheck(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (weights[i] ?? 0) * (digits.charCodeAt(i) - 48);
  return (sum % 11) % 10;
}

const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN12_WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN12_WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;

const digitAt = (s: string, i: number) => s.charCodeAt(i) - 48;

/**
 * ИНН: 10 digits (legal entity) or 12 digits (individual) with the official FNS check digits.
 * The first two digits (region / inspection code) can't be '00'.
 */
export function isInn(s: string): boolean {
  if (!/^(?:\d{10}|\d{12})$/.test(s) || s.startsWith('00')) return false;
  if (s.length === 10) return weightedCheck(s, INN10_WEIGHTS) === digitAt(s, 9);
  return weightedCheck(s, INN12_WEIGHTS_11) === digitAt(s, 10) && weightedCheck(s, INN12_WEIGHTS_12) === digitAt(s, 11);
}

function modOf(digits: string, m: number): number {
  let r = 0;
  for (let i = 0; i < digits.length; i++) r = (r * 10 + (digits.charCodeAt(i) - 48)) % m;
  return r;
}

/**
 * ОГРН: 13 digits starting with 1 or 5, check digit = (first 12 mod 11) mod 10; or ОГРНИП:
 * 15 digits starting with 3, check digit = (first 14 mod 13) mod 10.
 */
export function isOgrn(s: string): boolean {
  if (/^[15]\d{12}$/.test(s)) return modOf(s.slice(0, 12), 11) % 10 === digitAt(s, 12);
  if (/^3\d{14}$/.test(s)) return modOf(s.slice(0, 14), 13) % 10 === digitAt(s, 14);
  return false;
}

/** Required ИНН, trimmed. */
export const innSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .refine(isInn, { error: MSG.inn });

/** Required ОГРН / ОГРНИП, trimmed. */
export const ogrnSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .refine(isOgrn, { error: MSG.ogrn });

// --- text PostgreSQL can store ------------------------------------------------

/** A NUL character, or a UTF-16 surrogate without its pair: PostgreSQL's text and jsonb refuse both. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);
/** A client's key (a field name) that an error may name back: short, storable, printable. */
export const isEchoSafe = (s: string): boolean => s.length <= 64 && isStorableText(s) && !/\p{Cc}/u.test(s);
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');
/** For text gathered from outside (collectors): NUL dropped, an unpaired surrogate becomes U+FFFD. */
export const storableText = (s: string): string => s.replace(UNSTORABLE_ALL, (c) => (c === '\0' ? '' : '\ufffd'));

/**
 * The one rule for text the API accepts: where in a parsed request value (body, query string, path
 * parameters) the first string or object key PostgreSQL can't store is, as a dotted path ('' for the
 * value itself); null when every piece of text is storable. Walks iteratively, so any depth is safe.
 */
export function unstorableTextPath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (!isStorableText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (!isStorableText(k)) return path || '_';
        stack.push([x, at]);
      }
    }
  }
  return null;
}
