/*
 * SQL of the modules' extras (accounts.extras, repositories.extras, leaks.extras, media.extras):
 * leaks linked to account events, files of repository events, and which events use a reference.
 */
import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { accountLeaks, events, leaks, leakTypes, repositoryFiles } from '../../../db/schema/index';
import { containing } from '../../../db/sql';

export type RepoFileRow = typeof repositoryFiles.$inferSelect;
export type NewRepoFile = typeof repositoryFiles.$inferInsert;

export function createExtrasRepo(db: Db) {
  return {
    /* Leaks linked to account events */
    async linkedLeaks(eventId: number, tx: Db = db): Promise<{ id: number; name: string; linkedAt: Date }[]> {
      return tx
        .select({ id: leaks.id, name: leaks.name, linkedAt: accountLeaks.createdAt })
        .from(accountLeaks)
        .innerJoin(leaks, eq(leaks.id, accountLeaks.leakId))
        .where(eq(accountLeaks.eventId, eventId))
        .orderBy(asc(accountLeaks.createdAt), asc(leaks.id));
    },

    async leak(id: number, tx: Db = db): Promise<{ id: number; name: string } | undefined> {
      const [r] = await tx.select({ id: leaks.id, name: leaks.name }).from(leaks).where(eq(leaks.id, id));
      return r;
    },

    /** Links a leak to an event; false when it was linked already. */
    async linkLeak(v: { eventId: number; leakId: number; createdBy: number }, tx: Db): Promise<boolean> {
      const r = await tx.insert(accountLeaks).values(v).onConflictDoNothing().returning({ leakId: accountLeaks.leakId });
      return r.length > 0;
    },

    /** Unlinks a leak from an event; false when it was not linked. */
    async unlinkLeak(eventId: number, leakId: number, tx: Db): Promise<boolean> {
      const r = await tx
        .delete(accountLeaks)
        .where(and(eq(accountLeaks.eventId, eventId), eq(accountLeaks.leakId, leakId)))
        .returning({ leakId: accountLeaks.leakId });
      return r.length > 0;
    },

    /** Leak names containing `q` (all without it), by name. */
    async leakNames(q: string | undefined, limit: number): Promise<{ id: number; name: string }[]> {
      return db
        .select({ id: leaks.id, name: leaks.name })
        .from(leaks)
        .where(q ? ilike(leaks.name, containing(q)) : undefined)
        .orderBy(asc(leaks.name))
        .limit(limit);
    },

    async leakTypeExists(id: number): Promise<boolean> {
      const [r] = await db.select({ id: leakTypes.id }).from(leakTypes).where(eq(leakTypes.id, id)).limit(1);
      return r !== undefined;
    },

    /** Whether an event of `module` has `id` in its data field `key` (a reference in use). */
    async eventRefers(module: string, key: string, id: number, tx: Db = db): Promise<boolean> {
      const [r] = await tx
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.module, module), sql`${events.data} ->> ${key} = ${String(id)}`))
        .limit(1);
      return r !== undefined;
    },

    /* Files of repository events */
    async files(eventId: number): Promise<RepoFileRow[]> {
      return db
        .select()
        .from(repositoryFiles)
        .where(eq(repositoryFiles.eventId, eventId))
        .orderBy(asc(repositoryFiles.id))
        .limit(5000);
    },

    async file(eventId: number, fileId: number, tx: Db = db): Promise<RepoFileRow | undefined> {
      const [r] = await tx
        .select()
        .from(repositoryFiles)
        .where(and(eq(repositoryFiles.id, fileId), eq(repositoryFiles.eventId, eventId)));
      return r;
    },

    async insertFile(v: NewRepoFile, tx: Db): Promise<RepoFileRow> {
      const [r] = await tx.insert(repositoryFiles).values(v).returning();
      if (!r) throw new Error('file insert returned nothing');
      return r;
    },

    async updateFile(id: number, v: Pick<NewRepoFile, 'path' | 'url' | 'matched' | 'docId'>, tx: Db): Promise<RepoFileRow> {
      const [r] = await tx
        .update(repositoryFiles)
        .set({ ...v, updatedAt: sql`now()` })
        .where(eq(repositoryFiles.id, id))
        .returning();
      if (!r) throw new Error('file update returned nothing');
      return r;
    },

    async removeFile(id: number, tx: Db): Promise<void> {
      await tx.delete(repositoryFiles).where(eq(repositoryFiles.id, id));
    },
  };
}
export type ExtrasRepo = ReturnType<typeof createExtrasRepo>;
