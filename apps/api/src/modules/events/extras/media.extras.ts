/* /modules/media/types — media types reference list (CRUD); a type in use by events cannot be deleted. */
import { mediaTypeCreateRequest, mediaTypeItem, mediaTypePatchRequest, refListQuery } from '@forpost/contract/events-extras';
import { EVENT_MSG } from '@forpost/contract/modules';
import { mediaTypes } from '../../../db/schema/index';
import { tagsOf } from '../events.routes';
import { refListRoutes } from '../refs/reflist';
import type { ExtraRegistrar } from './extras';
import { createReferenceChecks } from './extras.service';

export const mediaTypesExtra: ExtraRegistrar = (app, m, ctx) => {
  const refField = m.fields.find((f) => f.ref === 'media_types');
  const refs = createReferenceChecks(ctx.db, m);
  refListRoutes(app, ctx.db, ctx.audit, {
    path: `/modules/${m.code}/types`,
    one: 'MediaType',
    many: 'MediaTypes',
    label: 'типы СМИ',
    tags: tagsOf(m),
    table: mediaTypes,
    entity: 'media_type',
    item: mediaTypeItem,
    query: refListQuery,
    create: mediaTypeCreateRequest,
    patch: mediaTypePatchRequest,
    read: 'events.read',
    write: 'settings.manage',
    messages: { notFound: EVENT_MSG.mediaTypeNotFound, duplicate: EVENT_MSG.mediaTypeDuplicate },
    toItem: (r) => ({ id: r.id, name: r.name }),
    beforeDelete: async (id, tx) => {
      if (refField) await refs.refuseInUse(refField.key, id, EVENT_MSG.mediaTypeInUse, tx);
    },
  });
};
