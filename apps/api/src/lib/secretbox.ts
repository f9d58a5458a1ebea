import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest (AES-256-GCM) for secrets the server must read back: TOTP secrets, card numbers,
 * collector credentials. The key is derived from SECRET per purpose, so one leaked column key opens nothing else.
 * Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export function createSecretBox(secret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.from('forpost'), Buffer.from(purpose), 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return `v1.${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${ct.toString('base64url')}`;
    },
    open(sealed: string): string {
      const [v, iv, tag, ct] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown sealed format');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
