/*
 * Leaks: the catalogue of known leaks (/modules/leaks, CRUD with settings.manage) and the seeded
 * leak types (/modules/leaks/events/types: list, get, rename).
 */
import {
  leakCreateRequest,
  leakItem,
  leakListQuery,
  leakPatchRequest,
  leakTypeItem,
  leakTypePatchRequest,
  refListQuery,
} from '@forpost/contract/events-extras';
import { EVENT_MSG } from '@forpost/contract/modules';
import { leaks, leakTypes } from '../../../db/schema/index';
import { badRequest } from '../../../lib/errors';
import { iso } from '../../../lib/serialize';
import { eventsPath, tagsOf } from '../events.routes';
import { refListRoutes } from '../refs/reflist';
import type { ExtraRegistrar } from './extras';
import { createReferenceChecks } from './extras.service';

export const leakCatalogueExtra: ExtraRegistrar = (app, m, ctx) => {
  const refs = createReferenceChecks(ctx.db, m);
  refListRoutes(app, ctx.db, ctx.audit, {
    path: `/modules/${m.code}`,
    one: 'Leak',
    many: 'Leaks',
    label: 'каталог утечек',
    tags: [...tagsOf(m), 'leaks'],
    table: leaks,
    entity: 'leak',
    item: leakItem,
    query: leakListQuery,
    create: leakCreateRequest,
    patch: leakPatchRequest,
    read: 'events.read',
    write: 'settings.manage',
    messages: { notFound: EVENT_MSG.leakNotFound, duplicate: EVENT_MSG.leakDuplicate },
    equal: { leak_type_id: leaks.leakTypeId },
    toItem: (r) => ({
      id: r.id,
      name: r.name,
      leak_type_id: r.leakTypeId ?? null,
      leaked_at: r.leakedAt ?? null,
      records_count: r.recordsCount ?? null,
      source_url: r.sourceUrl ?? null,
      description: r.description ?? null,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
    }),
    // The type of a leak must exist.
    validate: async (body) => {
      if (typeof body.leak_type_id !== 'number') return;
      if (!(await refs.leakTypeExists(body.leak_type_id)))
        throw badRequest(EVENT_MSG.leakTypeNotFound, { leak_type_id: EVENT_MSG.leakTypeNotFound });
    },
    // Events of the leaks module may point at a catalogue entry.
    beforeDelete: (id, tx) => refs.refuseInUse('leak_id', id, EVENT_MSG.leakInUse, tx),
  });
};

export const leakTypesExtra: ExtraRegistrar = (app, m, ctx) => {
  refListRoutes(app, ctx.db, ctx.audit, {
    path: `${eventsPath(m)}/types`,
    one: 'LeakType',
    many: 'LeakTypes',
    label: 'типы утечек',
    tags: [...tagsOf(m), 'leaks'],
    table: leakTypes,
    entity: 'leak_type',
    item: leakTypeItem,
    query: refListQuery.extend({ page_size: refListQuery.shape.page_size.default(500) }),
    patch: leakTypePatchRequest,
    paged: false,
    read: 'events.read',
    write: 'settings.manage',
    messages: { notFound: EVENT_MSG.leakTypeNotFound, duplicate: EVENT_MSG.leakTypeNotFound },
    toItem: (r) => ({ id: r.id, code: r.code, name: r.name, description: r.description ?? null }),
  });
};
