/* Tags beyond their reference list: how many events (of the caller's companies) carry each, and merging. */
import { TAG_MSG } from '@forpost/contract/tags';
import type { Db } from '../../db/client';
import { tags } from '../../db/schema/index';
import type { Audit } from '../../lib/audit';
import { type Caller, scopeFor } from '../../lib/caller';
import { badRequest, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { createRefListRepo } from '../events/index';
import { createTagsRepo } from './tags.repo';

export function createTagsService(deps: { db: Db; audit: Audit }) {
  const { db, audit } = deps;
  const repo = createTagsRepo(db);
  const list = createRefListRepo(db, tags);
  return {
    async usage(c: Caller) {
      const scope = scopeFor(c, 'events.read');
      if (scope !== 'all' && scope.length === 0) return { items: [] };
      const rows = await repo.usage(scope);
      return { items: rows.map((x) => ({ id: Number(x.id), events_count: Number(x.n) })) };
    },

    /** Events tagged `id` get `targetId` instead, and tag `id` is deleted — one transaction, one audit entry. */
    async merge(c: Caller, id: number, targetId: number) {
      if (id === targetId) throw badRequest(TAG_MSG.mergeSame, { target_id: TAG_MSG.mergeSame });
      return db.transaction(async (tx) => {
        const found = await repo.lock([id, targetId], tx);
        const source = found.find((r) => r.id === id);
        const target = found.find((r) => r.id === targetId);
        if (!source) throw notFound(TAG_MSG.notFound);
        if (!target) throw badRequest(TAG_MSG.mergeTarget, { target_id: TAG_MSG.mergeTarget });
        const events_updated = await repo.replaceOnEvents(id, targetId, tx);
        await list.remove(id, tx);
        await audit.record(
          c.actor,
          {
            action: 'tag.merge',
            entity: 'tag',
            entityId: id,
            before: { id, name: source.name, color: source.color },
            after: { target_id: targetId, target_name: target.name, events_updated },
          },
          tx,
        );
        return {
          target: {
            id: targetId,
            name: target.name,
            color: target.color,
            created_at: iso(target.createdAt),
            updated_at: iso(target.updatedAt),
          },
          events_updated,
        };
      });
    },

    /** Before a tag is deleted: it leaves every event it was on. */
    removeFromEvents: (id: number, tx: Db) => repo.removeFromEvents(id, tx),
  };
}
export type TagsService = ReturnType<typeof createTagsService>;
