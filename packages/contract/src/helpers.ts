/* Pure helpers shared by the console and the API (browser- and Node-safe, no dependencies). */

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

/** Keeps only the digits and groups them in fours: '1234567890123456' → '1234 5678 9012 3456'. */
export function groupCardNumber(s: string): string {
  return groupFours(s.replace(/\D/g, ''));
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

const PC_BASE = 36;
const PC_TMIN = 1;
const PC_TMAX = 26;
const PC_SKEW = 38;
const PC_DAMP = 700;
const PC_INITIAL_BIAS = 72;
const PC_INITIAL_N = 128;
const PC_MAX_INT = 0x7fffffff;
const ACE_PREFIX = 'xn--';
/** Label separators recognised by IDNA: full stop, ideographic, fullwidth and halfwidth stops. */
const LABEL_SEPARATORS = /[.\u3002\uff0e\uff61]/;

function pcAdapt(delta: number, numPoints: number, firstTime: boolean): number {
  let d = firstTime ? Math.floor(delta / PC_DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((PC_BASE - PC_TMIN) * PC_TMAX) >> 1) {
    d = Math.floor(d / (PC_BASE - PC_TMIN));
    k += PC_BASE;
  }
  return Math.floor(k + ((PC_BASE - PC_TMIN + 1) * d) / (d + PC_SKEW));
}

function pcThreshold(k: number, bias: number): number {
  if (k <= bias) return PC_TMIN;
  if (k >= bias + PC_TMAX) return PC_TMAX;
  return k - bias;
}

function pcDigitToBasic(d: number): string {
  // 0..25 → 'a'..'z', 26..35 → '0'..'9'
  return String.fromCharCode(d < 26 ? d + 97 : d + 22);
}

function pcBasicToDigit(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 22; // '0'..'9' → 26..35
  if (cp >= 0x41 && cp <= 0x5a) return cp - 0x41; // 'A'..'Z'
  if (cp >= 0x61 && cp <= 0x7a) return cp - 0x61; // 'a'..'z'
  return PC_BASE;
}

/**
 * RFC 3492 Punycode encoding of one label (without the `xn--` prefix): 'пример' → 'e1afmkfd'.
 * Throws RangeError on overflow (only possible for absurdly long input).
 */
export function punycodeEncode(input: string): string {
  const cps = Array.from(input, (ch) => ch.codePointAt(0) ?? 0);
  let output = '';
  for (const cp of cps) if (cp < 0x80) output += String.fromCharCode(cp);
  const basicLength = output.length;
  let handled = basicLength;
  if (basicLength > 0) output += '-';

  let n = PC_INITIAL_N;
  let delta = 0;
  let bias = PC_INITIAL_BIAS;
  while (handled < cps.length) {
    let m = PC_MAX_INT;
    for (const cp of cps) if (cp >= n && cp < m) m = cp;
    if (m - n > Math.floor((PC_MAX_INT - delta) / (handled + 1))) throw new RangeError('punycode overflow');
    delta += (m - n) * (handled + 1);
    n = m;
    for (const cp of cps) {
      if (cp < n) {
        delta += 1;
        if (delta > PC_MAX_INT) throw new RangeError('punycode overflow');
      }
      if (cp === n) {
        let q = delta;
        for (let k = PC_BASE; ; k += PC_BASE) {
          const t = pcThreshold(k, bias);
          if (q < t) break;
          output += pcDigitToBasic(t + ((q - t) % (PC_BASE - t)));
          q = Math.floor((q - t) / (PC_BASE - t));
        }
        output += pcDigitToBasic(q);
        bias = pcAdapt(delta, handled + 1, handled === basicLength);
        delta = 0;
        handled += 1;
      }
    }
    delta += 1;
    n += 1;
  }
  return output;
}

/**
 * RFC 3492 Punycode decoding of one label (without the `xn--` prefix): 'e1afmkfd' → 'пример'.
 * Returns null when the input is not valid Punycode.
 */
export function punycodeDecode(input: string): string | null {
  const output: number[] = [];
  let basic = input.lastIndexOf('-');
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) {
    const cp = input.charCodeAt(j);
    if (cp >= 0x80) return null;
    output.push(cp);
  }

  let n = PC_INITIAL_N;
  let i = 0;
  let bias = PC_INITIAL_BIAS;
  let pos = basic > 0 ? basic + 1 : 0;
  while (pos < input.length) {
    const oldi = i;
    let w = 1;
    for (let k = PC_BASE; ; k += PC_BASE) {
      if (pos >= input.length) return null;
      const digit = pcBasicToDigit(input.charCodeAt(pos++));
      if (digit >= PC_BASE) return null;
      if (digit > Math.floor((PC_MAX_INT - i) / w)) return null;
      i += digit * w;
      const t = pcThreshold(k, bias);
      if (digit < t) break;
      if (w > Math.floor(PC_MAX_INT / (PC_BASE - t))) return null;
      w *= PC_BASE - t;
    }
    const count = output.length + 1;
    bias = pcAdapt(i - oldi, count, oldi === 0);
    if (Math.floor(i / count) > PC_MAX_INT - n) return null;
    n += Math.floor(i / count);
    i %= count;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
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

/** True when the host has Cyrillic characters, as typed or inside `xn--` (punycode) labels. */
export function isCyrillicHost(host: string): boolean {
  const h = host.trim().replace(/:\d+$/, '');
  return hasCyrillic(h) || hasCyrillic(punycodeToUnicode(h));
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
