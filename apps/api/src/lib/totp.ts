import { HOTP, Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) over HOTP (RFC 4226) by `otpauth`: SHA-1, 6 digits, 30-second steps, as every
 * authenticator app expects. Ours are only the rules: the ±1-step window and that a code works once.
 */
const STEP_SECONDS = 30;

export const newTotpSecret = () => new Secret({ size: 20 }).base32;
export const currentStep = (now = Date.now()) => TOTP.counter({ period: STEP_SECONDS, timestamp: now });

export const hotp = (secretB32: string, counter: number): string =>
  HOTP.generate({ secret: Secret.fromBase32(secretB32), counter });

export const totp = (secretB32: string, now = Date.now()) => hotp(secretB32, currentStep(now));

/**
 * The step a code matches within ±1 step of now, newer than `lastUsedStep` (a code works once), or null.
 */
export function verifyTotp(secretB32: string, code: string, lastUsedStep: number | null, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = Secret.fromBase32(secretB32);
  const step = currentStep(now);
  for (const s of [step - 1, step, step + 1]) {
    if (lastUsedStep !== null && s <= lastUsedStep) continue;
    // window 0: only step `s` (compared in constant time by the library)
    if (HOTP.validate({ token: code, secret, counter: s, window: 0 }) !== null) return s;
  }
  return null;
}

export const otpauthUri = (secretB32: string, account: string, issuer = 'Форпост') =>
  new TOTP({ issuer, label: account, secret: secretB32, period: STEP_SECONDS }).toString();
