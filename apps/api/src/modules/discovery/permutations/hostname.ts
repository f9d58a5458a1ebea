/*
 * Host names of candidates: IDNA (UTS #46, non-transitional, as Node's URL parser applies it) to the
 * ASCII form, then the DNS rules on that form — letters, digits and hyphens, labels of 1..63
 * characters, 253 in all, no hyphen at a label's ends, «--» in the 3rd and 4th position only in an
 * `xn--` label whose Punycode decodes and encodes back to the same label, no all-digit zone.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { punycodeEncode } from '@forpost/contract/helpers';

const LDH = /^[a-z0-9-]+$/;
const PLAIN = /^[a-z0-9.-]+$/;
const DIGITS = /^[0-9]+$/;

function ldhLabel(l: string): boolean {
  const n = l.length;
  if (n < 1 || n > 63 || !LDH.test(l) || l.charCodeAt(0) === 45 || l.charCodeAt(n - 1) === 45) return false;
  return !(n >= 4 && l.charCodeAt(2) === 45 && l.charCodeAt(3) === 45) || l.startsWith('xn--');
}

/** True when an ASCII host name follows the DNS rules above (A-labels are not decoded here). */
export function isLdhHostname(ascii: string): boolean {
  if (ascii.length > 253) return false;
  const labels = ascii.split('.');
  if (labels.length < 2 || DIGITS.test(labels[labels.length - 1] ?? '')) return false;
  return labels.every(ldhLabel);
}

export interface Hostname {
  /** ASCII (punycode) form. */
  ascii: string;
  /** Unicode form (A-labels decoded). */
  unicode: string;
}

/** IDNA 2008 forbids a hyphen at either end of a U-label and «--» in its 3rd and 4th position too. */
function uLabelHyphensOk(l: string): boolean {
  return !l.startsWith('-') && !l.endsWith('-') && l.slice(2, 4) !== '--';
}

/** A letter, not a modifier letter (those are spacing marks such as ʰ). */
const LETTER = /^(?!\p{Lm})\p{L}$/u;
const SCRIPTS = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]$/u;
const selfMapped = new Map<string, boolean>();

/**
 * A Latin, Cyrillic or Greek letter that IDNA keeps as it is (valid, not mapped): a label of such
 * letters, digits and hyphens is its own U-label (NFC, no bidi or joiner rules apply), so its A-label is
 * plain Punycode. Decided once per character by the IDNA library.
 */
function isSelfMapped(c: string): boolean {
  let ok = selfMapped.get(c);
  if (ok === undefined) {
    ok = LETTER.test(c) && SCRIPTS.test(c) && domainToUnicode(domainToASCII(`${c}.ru`)) === `${c}.ru`;
    selfMapped.set(c, ok);
  }
  return ok;
}

/** The fast path for names built of self-mapped letters; undefined when the IDNA library must decide. */
function fromSelfMapped(name: string, aLabels?: Map<string, string>): Hostname | null | undefined {
  const labels = name.split('.');
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] ?? '';
    if (LDH.test(l)) continue;
    for (const c of l) if (!(c.length === 1 && c.charCodeAt(0) < 128 ? LDH.test(c) : isSelfMapped(c))) return undefined;
    if (!uLabelHyphensOk(l)) return null;
    let a = aLabels?.get(l);
    if (a === undefined) {
      a = `xn--${punycodeEncode(l)}`;
      aLabels?.set(l, a);
    }
    labels[i] = a;
  }
  const ascii = labels.join('.');
  return isLdhHostname(ascii) ? { ascii, unicode: name } : null;
}

/**
 * The ASCII and Unicode forms of a lower-case host name typed in either form, or null when it is not
 * a valid host name after IDNA mapping. Plain LDH names and names of self-mapped letters skip the
 * IDNA library (a call costs 5–8 µs, the engine makes thousands); `cache` keeps the A-labels of
 * U-labels already encoded (the suffix and subdomain of every candidate of one domain are the same).
 */
export function toHostname(name: string, cache?: Map<string, string>): Hostname | null {
  const aLabels = name.includes('xn--');
  if (!aLabels) {
    if (PLAIN.test(name)) return isLdhHostname(name) ? { ascii: name, unicode: name } : null;
    const fast = fromSelfMapped(name, cache);
    if (fast !== undefined) return fast;
  }
  const ascii = domainToASCII(name);
  if (!ascii || !isLdhHostname(ascii)) return null;
  const unicode = domainToUnicode(ascii);
  if (!unicode.split('.').every(uLabelHyphensOk)) return null;
  // A given non-canonical A-label (xn--abc-: an all-ASCII payload) decodes to a name that encodes
  // differently; A-labels the library made itself from Unicode are canonical.
  if (aLabels && domainToASCII(unicode) !== ascii) return null;
  return { ascii, unicode };
}
