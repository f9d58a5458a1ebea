/*
 * The pure validators of passwords, domains, e-mail and URLs, without zod (validation.ts re-exports
 * them with its schemas): the console's sign-in page checks its fields with them, and a zod import
 * there would put zod into that page's bundle (issue #16).
 */
import { punycodeDecode, punycodeEncode } from './helpers';

/** Number of characters (Unicode code points, not UTF-16 units). */
function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// ---------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------

export const PASSWORD_MIN_LENGTH = 16;
export const PASSWORD_MAX_LENGTH = 1024;

const HAS_LOWER = /\p{Ll}/u;
const HAS_UPPER = /\p{Lu}/u;
const HAS_DIGIT = /\p{Nd}/u;
const HAS_SPECIAL = /[^\p{L}\p{N}]/u;

/**
 * At least 16 characters with a lowercase letter, an uppercase letter (Cyrillic counts), a digit
 * and a special (non-letter, non-digit) character. The upper limit is checked by the schemas.
 */
export function isStrongPassword(s: string): boolean {
  return (
    charCount(s) >= PASSWORD_MIN_LENGTH && HAS_LOWER.test(s) && HAS_UPPER.test(s) && HAS_DIGIT.test(s) && HAS_SPECIAL.test(s)
  );
}

export const notTooLongPassword = (s: string) => charCount(s) <= PASSWORD_MAX_LENGTH;

// ---------------------------------------------------------------------------
// Domains, e-mail, URL
// ---------------------------------------------------------------------------

/** Letters of any script, digits, hyphens, and `_` (DNS allows it: '_dmarc', 'my_host' in the wild). */
const LABEL_CHARS = /^[\p{L}\p{M}\p{Nd}_-]+$/u;
const ACE_PREFIX = 'xn--';

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** One label, as typed (Unicode) or as punycode; returns its ASCII (ACE) form or null. */
function asciiLabel(label: string): string | null {
  if (label === '' || !LABEL_CHARS.test(label)) return null;
  if (label.startsWith('-') || label.endsWith('-')) return null;
  if (isAscii(label)) {
    if (!/^[a-z0-9_-]+$/i.test(label)) return null;
    if (label.slice(0, ACE_PREFIX.length).toLowerCase() === ACE_PREFIX) {
      const payload = label.slice(ACE_PREFIX.length).toLowerCase();
      const decoded = punycodeDecode(payload);
      // A real IDN label: decodes, has non-ASCII text of valid label characters, and re-encodes
      // to the same payload (rejects non-canonical encodings).
      if (decoded === null || isAscii(decoded) || !LABEL_CHARS.test(decoded)) return null;
      if (punycodeEncode(decoded.normalize('NFC').toLowerCase()) !== payload) return null;
    }
    return label;
  }
  return ACE_PREFIX + punycodeEncode(label.normalize('NFC').toLowerCase());
}

/**
 * Host name with at least one dot: labels of letters (any script, so 'пример.рф' is fine),
 * digits, `_` and inner hyphens, 1–63 characters each and at most 253 in total — both measured on the
 * punycode (ASCII) form; `xn--` labels must be valid punycode. No trailing dot, no all-digit TLD.
 */
export function isDomain(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const labels = s.split('.');
  if (labels.length < 2) return false;
  let total = labels.length - 1;
  for (const label of labels) {
    const ascii = asciiLabel(label);
    if (ascii === null || ascii.length > 63) return false;
    total += ascii.length;
  }
  if (total > 253) return false;
  return !/^\d+$/.test(labels[labels.length - 1] ?? '');
}

const LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u;

/**
 * Practical e-mail check: exactly one '@', no whitespace, at most 254 characters, a local part of
 * at most 64 characters without leading/trailing/double dots, and a domain accepted by `isDomain`.
 */
export function isEmail(s: string): boolean {
  if (s.length > 254 || /\s/u.test(s)) return false;
  const at = s.indexOf('@');
  if (at <= 0 || at !== s.lastIndexOf('@')) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return isDomain(domain);
}

/** Absolute http(s) URL with a host; no whitespace. */
export function isUrl(s: string): boolean {
  if (/\s/u.test(s) || !/^https?:\/\/[^/?#]/i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
