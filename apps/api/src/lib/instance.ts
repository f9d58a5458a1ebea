/*
 * One installation, one secret. SECRET signs sessions and encrypts secrets stored in the database, so
 * every process on one database must have the same one. The first start records a check value of
 * it (an HMAC, from which the secret can't be recovered); a process whose secret gives another value
 * refuses to start with a Russian message instead of silently signing cookies nobody else accepts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { checkOf, recordCheck } from './instance.repo';

export const SECRET_MISMATCH =
  'SECRET этого процесса не совпадает с секретом, с которым настроена база. Все процессы одной установки должны ' +
  'запускаться с одним и тем же SECRET (см. docs/operations.md).';
export const SECRET_REQUIRED =
  'Задайте SECRET (не короче 32 символов): с внешней базой (DATABASE_URL) все процессы установки должны использовать ' +
  'один и тот же секрет, а сгенерированный в DATA_DIR у каждой машины свой (см. docs/operations.md).';

const checkValue = (secret: string) => createHmac('sha256', secret).update('forpost-secret-check-v1').digest('hex');

/** Records the secret's check value at the first start, compares it at every later one (throws on mismatch). */
export async function checkSharedSecret(client: pg.ClientBase, secret: string): Promise<'recorded' | 'same'> {
  const mine = checkValue(secret);
  const recorded = await recordCheck(client, 'secret', mine);
  if (recorded) return 'recorded';
  const theirs = (await checkOf(client, 'secret')) ?? '';
  const same = theirs.length === mine.length && timingSafeEqual(Buffer.from(theirs), Buffer.from(mine));
  if (!same) throw new Error(SECRET_MISMATCH);
  return 'same';
}
