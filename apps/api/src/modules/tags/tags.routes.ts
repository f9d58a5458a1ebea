/* /tags: global tags with a colour (settings.manage), attached to events through events.write. */
import { idParam } from '@forpost/contract/common';
import {
  TAG_MSG,
  tagCreateRequest,
  tagItem,
  tagListQuery,
  tagMergeRequest,
  tagMergeResponse,
  tagPatchRequest,
  tagUsageResponse,
} from '@forpost/contract/tags';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tags } from '../../db/schema/index';
import type { Audit } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/errors';
import type { App } from '../../lib/routes';
import { iso } from '../../lib/serialize';
import { callerOf, scopeFor } from '../events/access';
import { refListRoutes } from '../events/reflist';

export function tagsRoutes(app: App, deps: { db: Db; audit: Audit }) {
  tagUsageAndMergeRoutes(app, deps);
  return refListRoutes(app, deps.db, deps.audit, {
    path: '/tags',
    one: 'Tag',
    many: 'Tags',
    label: 'теги',
    tags: ['tags'],
    table: tags,
    entity: 'tag',
    item: tagItem,
    query: tagListQuery,
    create: tagCreateRequest,
    patch: tagPatchRequest,
    read: 'events.read',
    write: 'settings.manage',
    messages: { notFound: TAG_MSG.notFound, duplicate: TAG_MSG.duplicate },
    toItem: (r) => ({
      id: r.id,
      name: r.name,
      color: r.color,
      created_at: (r.createdAt as Date).toISOString(),
      updated_at: (r.updatedAt as Date).toISOString(),
    }),
    // A deleted tag leaves every event it was on (GIN on events.tags finds them).
    beforeDelete: async (id, tx) => {
      await tx.execute(sql`UPDATE events SET tags = array_remove(tags, ${id}) WHERE tags @> ARRAY[${id}]::int[]`);
    },
  });
}

/** Usage counts (within the caller's companies) and merging one tag into another. */
function tagUsageAndMergeRoutes(app: App, deps: { db: Db; audit: Audit }) {
  const { db, audit } = deps;
  app.get(
    '/tags/usage',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listTagUsage',
        tags: ['tags'],
        summary: 'Справочник: теги — сколько событий (доступных компаний) отмечено каждым тегом',
        response: { 200: tagUsageResponse },
      },
    },
    async (req) => {
      const scope = scopeFor(callerOf(req), 'events.read');
      if (scope !== 'all' && scope.length === 0) return { items: [] };
      const where = scope === 'all' ? sql`true` : sql`e.company_id = ANY(${`{${scope.join(',')}}`}::int[])`;
      const r = await db.execute<{ id: number; n: number }>(
        sql`SELECT t.id, count(*)::int AS n FROM events e CROSS JOIN LATERAL unnest(e.tags) AS t(id) WHERE ${where} GROUP BY t.id`,
      );
      return { items: r.rows.map((x) => ({ id: Number(x.id), events_count: Number(x.n) })) };
    },
  );
  app.post(
    '/tags/:id/merge',
    {
      config: { permission: 'settings.manage' },
      schema: {
        operationId: 'mergeTag',
        tags: ['tags'],
        summary: 'Справочник: теги — объединить: события с тегом {id} получают целевой тег, тег {id} удаляется',
        params: idParam,
        body: tagMergeRequest,
        response: { 200: tagMergeResponse },
      },
    },
    async (req) => {
      const { id } = req.params;
      const targetId = req.body.target_id;
      if (id === targetId) throw badRequest(TAG_MSG.mergeSame, { target_id: TAG_MSG.mergeSame });
      const actor = callerOf(req).actor;
      return db.transaction(async (tx) => {
        const found = await tx.execute<{ id: number; name: string; color: string; created_at: Date; updated_at: Date }>(
          sql`SELECT id, name, color, created_at, updated_at FROM tags WHERE id IN (${id}, ${targetId}) ORDER BY id FOR UPDATE`,
        );
        const source = found.rows.find((r) => Number(r.id) === id);
        const target = found.rows.find((r) => Number(r.id) === targetId);
        if (!source) throw notFound(TAG_MSG.notFound);
        if (!target) throw badRequest(TAG_MSG.mergeTarget, { target_id: TAG_MSG.mergeTarget });
        const updated = await tx.execute(
          sql`UPDATE events SET tags = CASE WHEN tags @> ARRAY[${targetId}]::int[] THEN array_remove(tags, ${id}) ELSE array_replace(tags, ${id}, ${targetId}) END
              WHERE tags @> ARRAY[${id}]::int[]`,
        );
        await tx.execute(sql`DELETE FROM tags WHERE id = ${id}`);
        const events_updated = updated.rowCount ?? 0;
        await audit.record(
          actor,
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
            created_at: iso(target.created_at),
            updated_at: iso(target.updated_at),
          },
          events_updated,
        };
      });
    },
  );
}
