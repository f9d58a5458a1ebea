/* Pure helpers shared by the console and the API (browser- and Node-safe). */

// The npm package by its file: a bare 'punycode' is Node's deprecated built-in module.
import punycode from 'punycode/punycode.js';

// ---------------------------------------------------------------------------
// cleanEmpty
// ---------------------------------------------------------------------------

/** Recursive `Partial`: what `cleanEmpty` may return (any key at any depth may be gone). */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isEmptyValue(v: unknown): boolean {
  if (v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

function cleanValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(cleanValue);
  if (isPlainObject(v)) return cleanObject(v);
  return v;
}

function cleanObject(obj: Record<string, unknown>): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(obj)) {
    const cleaned = cleanValue(obj[key]);
    if (!isEmptyValue(cleaned)) entries.push([key, cleaned]);
  }
  // fromEntries defines own properties, so a '__proto__' key (e.g. from JSON.parse) stays data.
  return Object.fromEntries(entries);
}

/**
 * Returns a new object without keys whose values are empty strings, empty arrays or empty plain
 * objects — recursively: nested plain objects are cleaned first and dropped if they end up empty;
 * plain objects inside arrays are cleaned too, but array elements are never removed.
 * `null`, `undefined`, `0`, `false`, whitespace-only strings, Dates etc. are kept. Never mutates.
 */
export function cleanEmpty<T extends object>(obj: T): DeepPartial<T> {
  return cleanValue(obj) as DeepPartial<T>;
}

// ---------------------------------------------------------------------------
// Card numbers
// ---------------------------------------------------------------------------

function groupFours(s: string): string {
  return s.match(/.{1,4}/gsu)?.join(' ') ?? '';
}

/**
 * Keeps only the digits and mask stars and groups them in fours: '1234567890123456' → '1234 5678 9012 3456',
 * '4276********1234' → '4276 **** **** 1234' (a masked number as the API sends it is shown the same way).
 */
export function groupCardNumber(s: string): string {
  return groupFours(s.replace(/[^\d*]/g, ''));
}

/**
 * '4276123456781234' → '4276 **** **** 1234': first 4 and last 4 digits visible, grouped in fours.
 * Numbers shorter than 12 digits show only the last 4; 4 digits or fewer are returned as is.
 */
export function maskCardNumber(s: string): string {
  const digits = s.replace(/\D/g, '');
  const n = digits.length;
  if (n <= 4) return digits;
  const head = n >= 12 ? digits.slice(0, 4) : '';
  const tail = digits.slice(-4);
  return groupFours(head + '*'.repeat(n - head.length - 4) + tail);
}

// ---------------------------------------------------------------------------
// Cyrillic and punycode (RFC 3492)
// ---------------------------------------------------------------------------

const CYRILLIC = /\p{Script=Cyrillic}/u;

/** True when the string contains at least one Cyrillic character. */
export function hasCyrillic(s: string): boolean {
  return CYRILLIC.test(s);
}

const ACE_PREFIX = 'xn--';
/** Label separators recognised by IDNA: full stop, ideographic, fullwidth and halfwidth stops. */
const LABEL_SEPARATORS = /[.\u3002\uff0e\uff61]/;
/** Any UTF-16 surrogate unit, and a lone one (not half of a pair). */
const SURROGATE_UNIT = /[\ud800-\udfff]/;
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * RFC 3492 Punycode encoding of one label (without the `xn--` prefix): 'пример' → 'e1afmkfd'.
 * Throws RangeError on overflow (only possible for absurdly long input).
 */
export const punycodeEncode = (input: string): string => punycode.encode(input);

/**
 * RFC 3492 Punycode decoding of one label (without the `xn--` prefix): 'e1afmkfd' → 'пример'.
 * Returns null when the input is not valid Punycode.
 */
export function punycodeDecode(input: string): string | null {
  try {
    const s = punycode.decode(input);
    if (!SURROGATE_UNIT.test(s)) return s;
    // Decoded surrogate code points are not characters: a lone one stays lone, and two decoded one
    // after the other join into another character, which then encodes differently from the input.
    return LONE_SURROGATE.test(s) || punycode.encode(s).toLowerCase() !== input.toLowerCase() ? null : s;
  } catch {
    return null;
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Decodes the `xn--` labels of a host name: 'xn--e1afmkfd.xn--p1ai' → 'пример.рф'.
 * Other labels and labels that are not valid Punycode are left unchanged.
 */
export function punycodeToUnicode(host: string): string {
  return host
    .split(LABEL_SEPARATORS)
    .map((label) => {
      if (label.slice(0, ACE_PREFIX.length).toLowerCase() !== ACE_PREFIX) return label;
      return punycodeDecode(label.slice(ACE_PREFIX.length)) ?? label;
    })
    .join('.');
}

/**
 * Encodes the non-ASCII labels of a host name: 'Пример.РФ' → 'xn--e1afmkfd.xn--p1ai'.
 * The host is NFC-normalised and lower-cased first (the IDNA mapping for ordinary input).
 */
export function unicodeToPunycode(host: string): string {
  return host
    .normalize('NFC')
    .toLowerCase()
    .split(LABEL_SEPARATORS)
    .map((label) => (isAscii(label) ? label : ACE_PREFIX + punycodeEncode(label)))
    .join('.');
}

/**
 * The ASCII form a Unicode host is registered under ('пример.рф' → 'xn--e1afmkfd.xn--p1ai'), or null when the
 * host is ASCII already (nothing to show beside it): what a list shows on hover of an IDN host.
 */
export function idnAsciiForm(host: string): string | null {
  return isAscii(host) ? null : unicodeToPunycode(host);
}

/** True when the host has Cyrillic characters, as typed or inside `xn--` (punycode) labels. */
export function isCyrillicHost(host: string): boolean {
  const h = host.trim().replace(/:\d+$/, '');
  return hasCyrillic(h) || hasCyrillic(punycodeToUnicode(h));
}

/**
 * The writing system of a letter, for the mixed-script check: the common scripts by name, Han,
 * Hiragana, Katakana and Hangul as one (Japanese and Korean mix them legitimately), others as one.
 */
const SCRIPTS: readonly [string, RegExp][] = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['armenian', /\p{Script=Armenian}/u],
  ['georgian', /\p{Script=Georgian}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
];
/** A letter that belongs to a script (not Common or Inherited, like the Japanese long-vowel mark). */
const LETTER = /(?![\p{Script=Common}\p{Script=Inherited}])\p{L}/u;

function scriptOf(ch: string): string {
  for (const [name, re] of SCRIPTS) if (re.test(ch)) return name;
  return 'other';
}

/**
 * True when one label of the host mixes letters of different scripts — Latin «а» next to Cyrillic
 * «а» and the like (a lookalike of another name). Checked on the Unicode form (`xn--` labels are
 * decoded); digits and hyphens belong to no script. A label wholly in one script is never flagged,
 * nor a host whose labels each keep to one script ('sber.рф').
 */
export function isMixedScriptHost(host: string): boolean {
  const h = punycodeToUnicode(host.trim().replace(/:\d+$/, '').normalize('NFC'));
  for (const label of h.split(LABEL_SEPARATORS)) {
    let first: string | null = null;
    for (const ch of label) {
      if (!LETTER.test(ch)) continue;
      const script = scriptOf(ch);
      if (first === null) first = script;
      else if (script !== first) return true;
    }
  }
  return false;
}

/**
 * An indicator as threat reports and feeds write it so that nobody clicks it — «hxxps://evil[.]com»,
 * «evil(.)com», «185.1.2[.]3», «http[:]//…» — as it is meant; any other text unchanged.
 */
export function refang(s: string): string {
  return s
    .replace(/^hxxp(s?)(?=(?::|\[:\])\/\/)/i, 'http$1')
    .replace(/\[:\]/g, ':')
    .replace(/\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)/gi, '.');
}

/**
 * The host of a URL (defanged or not): lower case, in the ASCII (punycode) form, IPv6 without brackets;
 * null when the text is no URL or has no host.
 */
export function urlHost(raw: string): string | null {
  try {
    const host = new URL(refang(raw.trim())).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    return host || null;
  } catch {
    return null;
  }
}

/**
 * Cyrillic and Greek letters a reader takes for Latin ones, each with the Latin letter it passes for
 * (lower case: hosts are case-insensitive). The Cyrillic set is the one Chromium's IDN spoof checker
 * uses for whole-script confusables; the Greek one holds the letters with a plain Latin twin. Stricter on
 * purpose than the classifier's skeleton (`HOMOGLYPHS` in apps/api classifier/phishing.ts, which also
 * reads «н» as h and «т» as t to find a brand): a mark in the list must not fall on ordinary Russian words.
 */
const LATIN_LOOKALIKES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cyrillic: {
    а: 'a',
    с: 'c',
    ԁ: 'd',
    е: 'e',
    һ: 'h',
    і: 'i',
    ј: 'j',
    ӏ: 'l',
    о: 'o',
    р: 'p',
    ԛ: 'q',
    ѕ: 's',
    ԝ: 'w',
    х: 'x',
    у: 'y',
    ъ: 'b',
    ь: 'b',
    ҽ: 'e',
    п: 'n',
    г: 'r',
    ѵ: 'v',
    ѡ: 'w',
  },
  greek: { α: 'a', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', υ: 'u', χ: 'x' },
};

/**
 * The Latin name a host passes for when a label is written wholly in Cyrillic (or Greek) letters that
 * look like Latin ones — «аррӏе.com» (`xn--80ak6aa92e.com`) reads «apple.com» — under a top-level
 * domain of another script; null for any other host. Such a host mixes no scripts inside a label, so
 * `isMixedScriptHost` misses it; a Russian word under `.рф` («пример.рф») or one with letters that
 * look like no Latin letter («пример.com») is not flagged. The Latin reading is built from every
 * label (the others as they are).
 */
export function latinLookalikeOf(host: string): string | null {
  const labels = punycodeToUnicode(host.trim().replace(/:\d+$/, '').normalize('NFC').toLowerCase()).split(LABEL_SEPARATORS);
  const tld = labels.length > 1 ? (labels.at(-1) ?? '') : '';
  let flagged = false;
  const reading = labels.map((label, i) => {
    if (i === labels.length - 1 && labels.length > 1) return label;
    const letters = [...label].filter((ch) => LETTER.test(ch));
    if (letters.length === 0) return label;
    const script = scriptOf(letters[0] as string);
    const twins = LATIN_LOOKALIKES[script];
    if (!twins || !letters.every((ch) => ch in twins)) return label;
    // Under a TLD of the same script (сайт.рф) the name is read in that script, not as Latin.
    if ([...tld].some((ch) => LETTER.test(ch) && scriptOf(ch) === script)) return label;
    flagged = true;
    return [...label].map((ch) => twins[ch] ?? ch).join('');
  });
  return flagged ? reading.join('.') : null;
}

// ---------------------------------------------------------------------------
// Password generation
// ---------------------------------------------------------------------------

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SPECIAL = '!@#$%^&*()-_=+[]{};:,.?/~';
const ALL = LOWER + UPPER + DIGITS + SPECIAL;
/** Minimum generated length (the strong-password minimum). */
const GENERATED_MIN = 16;
const GENERATED_MAX = 1024;

interface RandomSource {
  getRandomValues<T extends ArrayBufferView>(array: T): T;
}

function getRandomSource(): RandomSource {
  const c = (globalThis as unknown as { crypto?: RandomSource }).crypto;
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new Error('globalThis.crypto.getRandomValues is not available');
  }
  return c;
}

/** Uniform integer in [0, max) by rejection sampling (no modulo bias). */
function randomBelow(rnd: RandomSource, max: number): number {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x100000000 / max) * max;
  for (;;) {
    rnd.getRandomValues(buf);
    const v = buf[0] ?? 0;
    if (v < limit) return v % max;
  }
}

function pick(rnd: RandomSource, alphabet: string): string {
  return alphabet.charAt(randomBelow(rnd, alphabet.length));
}

/**
 * Cryptographically random password: at least 16 characters (capped at 1024), always with a
 * lowercase and an uppercase Latin letter, a digit and a special character; uniformly chosen and
 * Fisher–Yates shuffled with `globalThis.crypto.getRandomValues`.
 */
export function generatePassword(length = 20): string {
  const len = Math.min(GENERATED_MAX, Math.max(GENERATED_MIN, Number.isFinite(length) ? Math.floor(length) : GENERATED_MIN));
  const rnd = getRandomSource();
  const chars = [pick(rnd, LOWER), pick(rnd, UPPER), pick(rnd, DIGITS), pick(rnd, SPECIAL)];
  while (chars.length < len) chars.push(pick(rnd, ALL));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomBelow(rnd, i + 1);
    const tmp = chars[i] as string;
    chars[i] = chars[j] as string;
    chars[j] = tmp;
  }
  return chars.join('');
}
