/*
 * Routes of STIX and TAXII (#33): an event's STIX bundle (card menu) and the TAXII 2.1 server under
 * /api/v1/taxii2/ — discovery, one API root (`forpost`), collections, objects, manifest, one object
 * and its versions. TAXII answers in `application/taxii+json;version=2.1`, errors in TAXII's error
 * message shape ({title, description, http_status}), whatever raised them (the access hook included);
 * authentication is the API's: Bearer with an API key, or HTTP Basic with the key as the password.
 */
import { idParam } from '@forpost/contract/common';
import { MODULE_LIST } from '@forpost/contract/modules';
import {
  TAXII_MEDIA_TYPE,
  TAXII_PATH,
  TAXII_ROOT_PATH,
  taxiiApiRoot,
  taxiiCollection,
  taxiiCollectionParams,
  taxiiCollections,
  taxiiDiscovery,
  taxiiEnvelope,
  taxiiManifest,
  taxiiObjectParams,
  taxiiObjectsQuery,
  taxiiVersions,
} from '@forpost/contract/taxii';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import { contentDisposition } from '../docs/index';
import { pascal } from '../events/index';
import type { StixService } from './stix.service';

const tags = ['taxii'];
const ROOT = TAXII_ROOT_PATH.slice(0, -1);

/**
 * The address clients reached us at (API roots are absolute URLs in the discovery resource): a client
 * that came to the site root's /taxii2/ (app.ts rewrites it to /api/v1/taxii2/) stays there.
 */
function baseOf(req: FastifyRequest): string {
  const proto = (req.headers['x-forwarded-proto'] as string | undefined)?.split(',')[0]?.trim() || req.protocol;
  const url = req.originalUrl;
  return `${proto}://${req.headers.host ?? 'localhost'}${url.slice(0, url.indexOf('/taxii2'))}`;
}

/** TAXII's date headers of an objects or manifest page (§3.4.1). */
function dated(reply: FastifyReply, r: { first?: string; last?: string }) {
  reply.type(TAXII_MEDIA_TYPE);
  if (r.first) reply.header('X-TAXII-Date-Added-First', r.first);
  if (r.last) reply.header('X-TAXII-Date-Added-Last', r.last);
}

export async function stixRoutes(app: App, deps: { stix: StixService }) {
  const svc = deps.stix;

  for (const m of MODULE_LIST)
    app.get(
      `/modules/${m.code}/events/:id/stix`,
      {
        config: { permission: 'events.export' },
        schema: {
          operationId: `get${pascal(m.code)}EventStix`,
          tags: ['events', `events-${m.code}`],
          summary: `${m.name}: событие как набор STIX 2.1 (bundle)`,
          params: idParam,
          response: { 200: z.unknown().describe('STIX 2.1 bundle') },
        },
      },
      async (req, reply) => {
        const r = await svc.eventBundle(callerOf(req), m.code, req.params.id);
        reply
          .header('content-type', 'application/stix+json;version=2.1')
          .header('content-disposition', contentDisposition('attachment', r.fileName));
        return reply.send(JSON.stringify(r.bundle));
      },
    );

  await app.register(async (t) => {
    const taxii = t as unknown as App;
    // Every answer in TAXII's media type; every error in its error message shape.
    taxii.addHook('onSend', async (req, reply, payload) => {
      reply.header('content-type', TAXII_MEDIA_TYPE);
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      let message = payload;
      try {
        message = (JSON.parse(payload) as { message?: string }).message ?? payload;
      } catch {
        // not JSON: the text is the title
      }
      if (reply.statusCode === 401) reply.header('WWW-Authenticate', 'Basic realm="Forpost TAXII", charset="UTF-8"');
      req.log.debug({ status: reply.statusCode }, 'taxii error');
      return JSON.stringify({ title: message, http_status: String(reply.statusCode) });
    });

    taxii.get(
      TAXII_PATH,
      {
        config: { permission: 'events.read' },
        schema: { operationId: 'taxiiDiscovery', tags, summary: 'TAXII 2.1: обнаружение', response: { 200: taxiiDiscovery } },
      },
      async (req) => svc.discovery(baseOf(req)),
    );
    taxii.get(
      TAXII_ROOT_PATH,
      {
        config: { permission: 'events.read' },
        schema: { operationId: 'taxiiApiRoot', tags, summary: 'TAXII 2.1: корень API', response: { 200: taxiiApiRoot } },
      },
      async () => svc.apiRoot(),
    );
    taxii.get(
      `${ROOT}/collections/`,
      {
        config: { permission: 'events.read' },
        schema: { operationId: 'taxiiCollections', tags, summary: 'TAXII 2.1: коллекции', response: { 200: taxiiCollections } },
      },
      async (req) => svc.collections(callerOf(req)),
    );
    taxii.get(
      `${ROOT}/collections/:collection/`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: 'taxiiCollection',
          tags,
          summary: 'TAXII 2.1: коллекция',
          params: taxiiCollectionParams,
          response: { 200: taxiiCollection },
        },
      },
      async (req) => svc.collection(callerOf(req), req.params.collection),
    );
    taxii.get(
      `${ROOT}/collections/:collection/objects/`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: 'taxiiObjects',
          tags,
          summary: 'TAXII 2.1: объекты коллекции',
          description:
            '`added_after`, `limit`, `next`, `match[type]`, `match[id]` (через запятую) — как в TAXII 2.1, §3.4 и §5.4.',
          params: taxiiCollectionParams,
          querystring: taxiiObjectsQuery,
          response: { 200: taxiiEnvelope },
        },
      },
      async (req, reply) => {
        const r = await svc.objects(callerOf(req), req.params.collection, req.query);
        dated(reply, r);
        return r.body;
      },
    );
    taxii.get(
      `${ROOT}/collections/:collection/manifest/`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: 'taxiiManifest',
          tags,
          summary: 'TAXII 2.1: опись коллекции',
          params: taxiiCollectionParams,
          querystring: taxiiObjectsQuery,
          response: { 200: taxiiManifest },
        },
      },
      async (req, reply) => {
        const r = await svc.manifest(callerOf(req), req.params.collection, req.query);
        dated(reply, r);
        return r.body;
      },
    );
    taxii.get(
      `${ROOT}/collections/:collection/objects/:object/`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: 'taxiiObject',
          tags,
          summary: 'TAXII 2.1: объект',
          params: taxiiObjectParams,
          querystring: taxiiObjectsQuery,
          response: { 200: taxiiEnvelope },
        },
      },
      async (req, reply) => {
        const r = await svc.object(callerOf(req), req.params.collection, req.params.object);
        dated(reply, r);
        return r.body;
      },
    );
    taxii.get(
      `${ROOT}/collections/:collection/objects/:object/versions/`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: 'taxiiObjectVersions',
          tags,
          summary: 'TAXII 2.1: версии объекта',
          params: taxiiObjectParams,
          querystring: taxiiObjectsQuery,
          response: { 200: taxiiVersions },
        },
      },
      async (req, reply) => {
        const r = await svc.versions(callerOf(req), req.params.collection, req.params.object);
        dated(reply, r);
        return r.body;
      },
    );
  });
}
