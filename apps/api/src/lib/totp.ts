import { createHmac, randomBytes } from 'node:crypto';

/** TOTP (RFC 6238) over HOTP (RFC 4226): SHA-1, 6 digits, 30-second steps, as every authenticator app expects. */
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const TOTP_STEP_SECONDS = 30;

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(s: string): Buffer {
  const clean = s.toUpperCase().replace(/=+$/, '').replace(/\s+/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) throw new Error('invalid base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = () => base32Encode(randomBytes(20));
export const currentStep = (now = Date.now()) => Math.floor(now / 1000 / TOTP_STEP_SECONDS);

export function hotp(secretB32: string, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac('sha1', base32Decode(secretB32)).update(msg).digest();
  const offset = (h[h.length - 1] ?? 0) & 0xf;
  const bin =
    (((h[offset] ?? 0) & 0x7f) << 24) | ((h[offset + 1] ?? 0) << 16) | ((h[offset + 2] ?? 0) << 8) | (h[offset + 3] ?? 0);
  return String(bin % 1_000_000).padStart(6, '0');
}

export const totp = (secretB32: string, now = Date.now()) => hotp(secretB32, currentStep(now));

/**
 * The step a code matches within ±1 step of now, newer than `lastUsedStep` (a code works once), or null.
 */
export function verifyTotp(secretB32: string, code: string, lastUsedStep: number | null, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const step = currentStep(now);
  for (const s of [step - 1, step, step + 1]) {
    if (lastUsedStep !== null && s <= lastUsedStep) continue;
    if (hotp(secretB32, s) === code) return s;
  }
  return null;
}

export const otpauthUri = (secretB32: string, account: string, issuer = 'Форпост') =>
  `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?secret=${secretB32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
