import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The password verdict without the password (#34): what a hunt keeps of a leaked secret. The plaintext
 * exists only as bytes of the dump's buffer inside the matcher; it is reduced here to
 * - `masked`: first and last character with the length between them (`q******9`, length 8), all stars
 *   when shorter than 6 characters (two shown characters of a 4-character password are half of it);
 * - `hmac`: HMAC-SHA-256 under a per-installation key, so «the same password seen again» and «reused across
 *   services» are equal strings, while the value cannot be reversed without the server's SECRET;
 * - `strength`: a class from length and character kinds, `weak` for the well-known passwords.
 * Hashes from the dump (`email;hash`) get the same HMAC over the hash text and `strength: 'unknown'`.
 */

export type Strength = 'weak' | 'medium' | 'strong' | 'unknown';
export interface PasswordVerdict {
  masked: string;
  length: number;
  hmac: string;
  strength: Strength;
}

/** The per-installation key: derived from SECRET for this purpose only (as secretbox derives its keys). */
export function huntKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.from('forpost'), Buffer.from('hunt-passwords'), 32));
}

const COMMON = new Set(
  [
    '123456',
    '12345678',
    '123456789',
    '1234567890',
    'password',
    'qwerty',
    'qwerty123',
    '111111',
    '000000',
    '123123',
    'abc123',
    'password1',
    'iloveyou',
    '1q2w3e4r',
    '1q2w3e',
    'qwertyuiop',
    'йцукен',
    'admin',
    'admin123',
    'welcome',
    'letmein',
    'zaq12wsx',
  ].map((s) => Buffer.from(s).toString('latin1')),
);

/** Number of UTF-8 characters in buf[s, e) (continuation bytes are not counted). */
function charCount(buf: Buffer, s: number, e: number): number {
  let n = 0;
  for (let i = s; i < e; i++) if ((buf[i]! & 0xc0) !== 0x80) n++;
  return n;
}

/** The UTF-8 character starting at s (or the last one ending at e). */
function firstChar(buf: Buffer, s: number, e: number): string {
  let j = s + 1;
  while (j < e && (buf[j]! & 0xc0) === 0x80) j++;
  return buf.toString('utf8', s, j);
}
function lastChar(buf: Buffer, s: number, e: number): string {
  let j = e - 1;
  while (j > s && (buf[j]! & 0xc0) === 0x80) j--;
  return buf.toString('utf8', j, e);
}

export function strengthOf(buf: Buffer, s: number, e: number): Strength {
  const len = charCount(buf, s, e);
  if (len < 8 || COMMON.has(buf.toString('latin1', s, e).toLowerCase())) return 'weak';
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let other = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i]!;
    if (c >= 0x61 && c <= 0x7a) lower = 1;
    else if (c >= 0x41 && c <= 0x5a) upper = 1;
    else if (c >= 0x30 && c <= 0x39) digit = 1;
    else other = 1;
  }
  const kinds = lower + upper + digit + other;
  if (len >= 12 && kinds >= 3) return 'strong';
  if (kinds >= 2) return 'medium';
  return 'weak';
}

export function verdictOf(key: Buffer, buf: Buffer, s: number, e: number, isHash: boolean): PasswordVerdict {
  const length = charCount(buf, s, e);
  const hmac = createHmac('sha256', key).update(buf.subarray(s, e)).digest('base64url');
  if (isHash) return { masked: '', length, hmac, strength: 'unknown' };
  const masked = length >= 6 ? `${firstChar(buf, s, e)}${'*'.repeat(length - 2)}${lastChar(buf, s, e)}` : '*'.repeat(length);
  return { masked, length, hmac, strength: strengthOf(buf, s, e) };
}
