/* SQL of the first start (bootstrap.ts): is there any user, and the first administrator. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema/index';

export async function countUsers(db: Db): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return n;
}

/** Inserts the user unless the email is taken (a concurrent start); true when this call created it. */
export async function insertFirstAdmin(db: Db, row: typeof users.$inferInsert): Promise<boolean> {
  const r = await db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
  return r.length > 0;
}
