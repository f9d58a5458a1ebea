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
import type { Db } from '../../db/client';
import { tags } from '../../db/schema/index';
import type { Audit } from '../../lib/audit';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { iso } from '../../lib/serialize';
import { refListRoutes } from '../events/index';
import { createTagsService, type TagsService } from './tags.service';

export function tagsRoutes(app: App, deps: { db: Db; audit: Audit }) {
  const svc = createTagsService(deps);
  tagUsageAndMergeRoutes(app, svc);
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
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
    }),
    // A deleted tag leaves every event it was on.
    beforeDelete: svc.removeFromEvents,
  });
}

/** Usage counts (within the caller's companies) and merging one tag into another. */
function tagUsageAndMergeRoutes(app: App, svc: TagsService) {
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
    async (req) => svc.usage(callerOf(req)),
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
    async (req) => svc.merge(callerOf(req), req.params.id, req.body.target_id),
  );
}
