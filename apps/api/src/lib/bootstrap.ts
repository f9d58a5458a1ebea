import { generatePassword } from '@forpost/contract/helpers';
import { isStrongPassword } from '@forpost/contract/validation';
import type { Db } from '../db/client';
import { countUsers, insertFirstAdmin } from './bootstrap.repo';
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
  if ((await countUsers(db)) > 0) return { created: false };
  if (password && !isStrongPassword(password)) {
    throw new Error('ADMIN_PASSWORD слишком слабый: нужно не менее 16 символов, строчные и прописные буквы, цифра и спецсимвол');
  }
  const generated = password ? undefined : generatePassword(20);
  const hash = await hashPassword(password ?? (generated as string));
  const created = await insertFirstAdmin(db, {
    email,
    name: 'Администратор',
    passwordHash: hash,
    role: 'SUPER_ADMIN',
    passwordChangedAt: new Date(),
  });
  return created ? { created: true, generated } : { created: false };
}
