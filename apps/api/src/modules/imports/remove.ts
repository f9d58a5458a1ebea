/*
 * Deleting an import undoes it: what it created goes (events it only updated stay as they are now),
 * with its row errors, its file and its doc. An import that ran stays in the history as «Отменён»
 * (with its counters: who imported what, and that it was undone); one never started goes entirely. A running import is stopped first: its batches in
 * progress find it no longer running and roll back, its job ends, and only then is it undone — the
 * undo never waits on a batch's row locks while the batch waits on the import (no deadlock).
 */
import { IMPORT_MSG, LEAKS_CATALOGUE } from '@forpost/contract/imports';
import { can } from '@forpost/contract/permissions';
import type { Caller } from '../../lib/caller';
import { ApiError, conflict, notFound } from '../../lib/errors';
import { loadImport } from './access';
import type { ImportsContext, TargetCode } from './context';

export async function remove(ctx: ImportsContext, c: Caller, code: TargetCode, id: number): Promise<void> {
  const r = await loadImport(ctx, c, code, id);
  const own = c.auth.keyId === null ? r.authorId === c.auth.user.id : r.authorKeyId === c.auth.keyId;
  if (code !== LEAKS_CATALOGUE && !own && r.companyId !== null && !can(c.auth.principal, 'events.delete', r.companyId)) {
    throw new ApiError(403, 'Удалить чужой импорт может только тот, кто вправе удалять события компании');
  }
  if (r.status === 'undone') throw conflict(IMPORT_MSG.alreadyUndone);
  const target = ctx.targetOf(code);
  if (r.status === 'queued' || r.status === 'running') await ctx.repo.fail(id, IMPORT_MSG.stoppedByRemoval);
  await ctx.deps.db.transaction(async (tx) => {
    await ctx.repo.waitForJob(id, tx);
    if (!(await ctx.repo.lockStatus(id, tx))) throw notFound(IMPORT_MSG.notFound);
    const removed = await target.undo(tx, id);
    if (r.status === 'uploaded') await ctx.repo.remove(id, r.docId, tx);
    else await ctx.repo.markUndone(id, r.docId, IMPORT_MSG.undone(removed), tx);
    await ctx.deps.audit.record(
      c.actor,
      {
        action: 'import.delete',
        entity: 'import',
        entityId: id,
        companyId: r.companyId,
        before: { module: code, file_name: r.fileName, status: r.status, created: r.created, updated: r.updated },
        meta: { removed },
      },
      tx,
    );
  });
  if (r.storageKey) await ctx.deps.store.delete(r.storageKey).catch(() => undefined);
}
