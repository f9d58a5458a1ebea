import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { systemConfigs, users } from '../../db/schema/index';

export const CONFIGS_CHANNEL = 'forpost_configs';

export type StoredConfig = typeof systemConfigs.$inferSelect & { updatedByName: string | null };

export function createConfigsRepo(db: Db) {
  const select = (tx: Db) =>
    tx
      .select({
        key: systemConfigs.key,
        value: systemConfigs.value,
        updatedBy: systemConfigs.updatedBy,
        createdAt: systemConfigs.createdAt,
        updatedAt: systemConfigs.updatedAt,
        updatedByName: users.name,
      })
      .from(systemConfigs)
      .leftJoin(users, eq(users.id, systemConfigs.updatedBy));

  return {
    async list(tx: Db = db): Promise<StoredConfig[]> {
      return select(tx);
    },
    async find(key: string, tx: Db = db): Promise<StoredConfig | undefined> {
      const [r] = await select(tx).where(eq(systemConfigs.key, key)).limit(1);
      return r;
    },
    /** Inserts unless the key is already stored; false if it was. */
    async insert(key: string, value: unknown, userId: number | null, tx: Db = db): Promise<boolean> {
      const r = await tx
        .insert(systemConfigs)
        .values({ key, value, updatedBy: userId })
        .onConflictDoNothing()
        .returning({ key: systemConfigs.key });
      return r.length === 1;
    },
    async upsert(key: string, value: unknown, userId: number | null, tx: Db = db): Promise<void> {
      await tx
        .insert(systemConfigs)
        .values({ key, value, updatedBy: userId })
        .onConflictDoUpdate({ target: systemConfigs.key, set: { value, updatedBy: userId, updatedAt: new Date() } });
    },
    async remove(key: string, tx: Db = db): Promise<boolean> {
      const r = await tx.delete(systemConfigs).where(eq(systemConfigs.key, key)).returning({ key: systemConfigs.key });
      return r.length === 1;
    },
    /** Tells every instance (delivered when the transaction commits). */
    async notify(key: string, tx: Db = db): Promise<void> {
      await tx.execute(sql`SELECT pg_notify(${CONFIGS_CHANNEL}, ${key})`);
    },
  };
}
export type ConfigsRepo = ReturnType<typeof createConfigsRepo>;
