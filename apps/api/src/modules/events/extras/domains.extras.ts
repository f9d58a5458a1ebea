/*
 * Domains: routes of the snapshot history of an event and of the per-company allowlist; the rules
 * are in domains.service.ts. An allowlisted domain (or any subdomain of it) never raises a new event;
 * the `allowlist` action adds the event's domain.
 */

import { idParam } from '@forpost/contract/common';
import { idParams, noContent } from '@forpost/contract/events';
import {
  allowlistCreateRequest,
  allowlistItem,
  allowlistListQuery,
  allowlistListResponse,
  allowlistPatchRequest,
  snapshotCreateRequest,
  snapshotItem,
  snapshotsResponse,
} from '@forpost/contract/events-extras';
import { callerOf } from '../../../lib/caller';
import { eventsPath, tagsOf } from '../events.routes';
import { createAllowlistService, createSnapshotHistory } from './domains.service';
import type { ExtraRegistrar } from './extras';

export const snapshotsExtra: ExtraRegistrar = (app, m, ctx) => {
  const path = `${eventsPath(m)}/snapshots/:id`;
  // «Перепроверить» queues a check by the snapshot producer (a pg-boss job; see modules/snapshots).
  const { snapshots } = ctx;
  if (snapshots && m.actions?.some((a) => a.code === 'recheck'))
    ctx.actionHandlers.set(`${m.code}:recheck`, async (_c, row) => {
      const r = await snapshots.enqueue(row.id);
      return { snapshot_queued: r === 'queued', ...(r === 'throttled' ? { snapshot_throttled: true } : {}) };
    });
  const history = createSnapshotHistory(ctx, m);

  app.get(
    path,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listDomainSnapshots',
        tags: tagsOf(m),
        summary: `${m.name}: история снимков (скриншот, IP, HTTP-статус, заголовок)`,
        params: idParams,
        response: { 200: snapshotsResponse },
      },
    },
    async (req) => history.list(callerOf(req), req.params.id),
  );
  app.post(
    path,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'createDomainSnapshot',
        tags: tagsOf(m),
        summary: `${m.name}: добавить снимок (сборщик)`,
        params: idParams,
        body: snapshotCreateRequest,
        response: { 201: snapshotItem },
      },
    },
    async (req, reply) => reply.code(201).send(await history.add(callerOf(req), req.params.id, req.body)),
  );
};

export const allowlistExtra: ExtraRegistrar = (app, m, ctx) => {
  const base = `/modules/${m.code}/allowlist`;
  const tags = tagsOf(m);
  const allowlist = createAllowlistService(ctx, m);

  // Create/import of an allowlisted domain is refused.
  ctx.guards[m.code] = [
    ...(ctx.guards[m.code] ?? []),
    ({ companyId, data, tx }) => allowlist.refuseAllowlisted(companyId, data, tx),
  ];
  // The `allowlist` action adds the event's domain to its company's allowlist.
  ctx.actionHandlers.set(`${m.code}:allowlist`, (c, row, tx) => allowlist.addEventDomain(c, row, tx));

  app.get(
    base,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listDomainAllowlist',
        tags,
        summary: `${m.name}: список разрешённых доменов`,
        querystring: allowlistListQuery,
        response: { 200: allowlistListResponse },
      },
    },
    async (req) => allowlist.list(callerOf(req), req.query),
  );
  app.post(
    base,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'createDomainAllowlistEntry',
        tags,
        summary: `${m.name}: добавить разрешённый домен`,
        body: allowlistCreateRequest,
        response: { 201: allowlistItem },
      },
    },
    async (req, reply) => reply.code(201).send(await allowlist.create(callerOf(req), req.body)),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getDomainAllowlistEntry',
        tags,
        summary: `${m.name}: разрешённый домен`,
        params: idParam,
        response: { 200: allowlistItem },
      },
    },
    async (req) => allowlist.get(callerOf(req), req.params.id),
  );
  app.patch(
    `${base}/:id`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'updateDomainAllowlistEntry',
        tags,
        summary: `${m.name}: изменить разрешённый домен`,
        params: idParam,
        body: allowlistPatchRequest,
        response: { 200: allowlistItem },
      },
    },
    async (req) => allowlist.update(callerOf(req), req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'deleteDomainAllowlistEntry',
        tags,
        summary: `${m.name}: убрать разрешённый домен`,
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await allowlist.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
