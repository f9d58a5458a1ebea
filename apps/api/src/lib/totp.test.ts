import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secretbox';
import { hotp, newTotpSecret, totp, verifyTotp } from './totp';

// RFC 6238 Appendix B test vectors (SHA-1 secret "12345678901234567890"), last 6 digits.
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;
const VECTORS: [number, string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
];

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors', () => {
    for (const [t, code] of VECTORS) expect(totp(RFC_SECRET, t * 1000)).toBe(code);
  });
  it('matches the RFC 4226 HOTP vectors', () => {
    expect(hotp(RFC_SECRET, 0)).toBe('755224');
    expect(hotp(RFC_SECRET, 9)).toBe('520489');
  });
  it('new secrets are 160 random bits in base32', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(a).bytes).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
    expect(verifyTotp(a, totp(a), null)).not.toBeNull();
  });
  it('accepts ±1 step of drift, refuses ±2 and replays', () => {
    const now = 1_700_000_000_000;
    const prev = totp(RFC_SECRET, now - 30_000);
    const next = totp(RFC_SECRET, now + 30_000);
    expect(verifyTotp(RFC_SECRET, prev, null, now)).not.toBeNull();
    expect(verifyTotp(RFC_SECRET, next, null, now)).not.toBeNull();
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 60_000), null, now)).toBeNull();
    const step = verifyTotp(RFC_SECRET, totp(RFC_SECRET, now), null, now);
    expect(step).not.toBeNull();
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now), step, now)).toBeNull();
    expect(verifyTotp(RFC_SECRET, '12345', null, now)).toBeNull();
  });
});

describe('secret box', () => {
  it('round-trips, differs per purpose and detects tampering', () => {
    const a = createSecretBox('s'.repeat(40), 'totp');
    const b = createSecretBox('s'.repeat(40), 'cards');
    const sealed = a.seal('4276 1234');
    expect(a.open(sealed)).toBe('4276 1234');
    expect(sealed).not.toContain('4276');
    expect(() => b.open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = `${parts[3]?.slice(0, -2)}AA`;
    expect(() => a.open(parts.join('.'))).toThrow();
  });
});
