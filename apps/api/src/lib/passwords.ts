import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm), OWASP-recommended cost.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

let dummy: Promise<string> | undefined;
/** Verifies; with no hash (unknown user) still spends the same time, so timing reveals nothing. */
export async function verifyPassword(hashed: string | null | undefined, password: string): Promise<boolean> {
  if (!hashed) {
    dummy ??= hash('forpost-timing-equaliser', OPTIONS);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(hashed, password).catch(() => false);
}
