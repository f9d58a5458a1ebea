import { generatePassword } from '@forpost/contract/helpers';
import { isStrongPassword } from '@forpost/contract/validation';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema/index';
import { hashPassword } from './passwords';

/**
 * First start: create the SUPER_ADMIN. Returns the generated password (to print once) when none was given.
 * Concurrent starts are safe: the insert is conditional and emails are unique.
 */
export async function ensureFirstAdmin(
  db: Db,
  email: string,
  password?: string,
): Promise<{ created: boolean; generated?: string }> {
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if (n > 0) return { created: false };
  if (password && !isStrongPassword(password)) {
    throw new Error('ADMIN_PASSWORD слишком слабый: нужно не менее 16 символов, строчные и прописные буквы, цифра и спецсимвол');
  }
  const generated = password ? undefined : generatePassword(20);
  const hash = await hashPassword(password ?? (generated as string));
  const r = await db
    .insert(users)
    .values({ email, name: 'Администратор', passwordHash: hash, role: 'SUPER_ADMIN', passwordChangedAt: new Date() })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return r.length ? { created: true, generated } : { created: false };
}
