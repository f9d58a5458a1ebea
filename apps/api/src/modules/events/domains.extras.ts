/*
 * Domains: snapshot history of an event (produced by modules/snapshots on «Перепроверить», or posted
 * by an external collector), and the per-company allowlist — an allowlisted domain
 * (or any subdomain of it) never raises a new event; the `allowlist` action adds the event's domain.
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
import { punycodeToUnicode, unicodeToPunycode } from '@forpost/contract/helpers';
import { EVENT_MSG } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ApiError, conflict, notFound } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/serialize';
import { assertModule, assertOn, type Caller, callerOf, scopeFor, targetCompany } from './access';
import { textArray } from './events.query';
import { eventsPath, tagsOf } from './events.routes';
import type { ExtraRegistrar } from './extras';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const rowsOf = async <T>(db: Db, q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];

/** 'a.b.sber.ru' → ['a.b.sber.ru', 'b.sber.ru', 'sber.ru']: an entry for any of them covers the domain. */
function domainSuffixes(ascii: string): string[] {
  const labels = ascii.toLowerCase().split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

async function allowlistedEntry(
  db: Db,
  companyId: number,
  domainAscii: string,
): Promise<{ id: number; domain: string } | undefined> {
  const [r] = await rowsOf<{ id: number; domain: string }>(
    db,
    sql`SELECT id, domain FROM domain_allowlist WHERE company_id = ${companyId} AND domain_punycode = ANY(${textArray(domainSuffixes(domainAscii))}) LIMIT 1`,
  );
  return r;
}

interface AllowRow {
  id: number;
  company_id: number;
  company_name: string;
  domain: string;
  domain_punycode: string;
  comment: string | null;
  created_by: number | null;
  created_at: Date;
}
const toAllow = (r: AllowRow) => ({ ...r, created_at: iso(r.created_at) as string });
const normalise = (domain: string) => {
  const unicode = punycodeToUnicode(domain.toLowerCase());
  return { domain: unicode, ascii: unicodeToPunycode(unicode) };
};

export const snapshotsExtra: ExtraRegistrar = (app, m, ctx) => {
  const path = `${eventsPath(m)}/snapshots/:id`;
  // «Перепроверить» queues a check by the snapshot producer (a pg-boss job; see modules/snapshots).
  const { snapshots } = ctx;
  if (snapshots && m.actions?.some((a) => a.code === 'recheck'))
    ctx.actionHandlers.set(`${m.code}:recheck`, async (_c, row) => {
      const r = await snapshots.enqueue(row.id);
      return { snapshot_queued: r === 'queued', ...(r === 'throttled' ? { snapshot_throttled: true } : {}) };
    });
  const list = async (eventId: number) =>
    (
      await rowsOf<{
        id: number;
        event_id: number;
        taken_at: Date;
        screenshot_doc_id: number | null;
        ip: string | null;
        http_status: number | null;
        page_title: string | null;
        final_url: string | null;
        error: string | null;
      }>(
        ctx.db,
        sql`SELECT id, event_id, taken_at, screenshot_doc_id, ip, http_status, page_title, final_url, error FROM domain_snapshots WHERE event_id = ${eventId} ORDER BY taken_at DESC, id DESC LIMIT 500`,
      )
    ).map((r) => ({ ...r, taken_at: iso(r.taken_at) as string }));

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
    async (req) => {
      const ev = await ctx.events.load(callerOf(req), m, req.params.id, 'events.read');
      return { items: await list(ev.id) };
    },
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
    async (req, reply) => {
      const c = callerOf(req);
      const ev = await ctx.events.load(c, m, req.params.id, 'events.write');
      const b = req.body;
      if (b.screenshot_doc_id) await ctx.docs.assertUsableFor(b.screenshot_doc_id, ev.company_id);
      const [r] = await rowsOf<{ id: number }>(
        ctx.db,
        sql`INSERT INTO domain_snapshots (event_id, taken_at, screenshot_doc_id, ip, http_status, page_title, final_url, error)
            VALUES (${ev.id}, ${b.taken_at ?? new Date().toISOString()}::timestamptz, ${b.screenshot_doc_id ?? null}, ${b.ip ?? null}, ${b.http_status ?? null}, ${b.page_title ?? null}, ${b.final_url ?? null}, ${b.error ?? null})
            RETURNING id`,
      );
      const item = (await list(ev.id)).find((s) => s.id === r?.id);
      if (!item) throw notFound(EVENT_MSG.snapshotNotFound);
      return reply.code(201).send(item);
    },
  );
};

export const allowlistExtra: ExtraRegistrar = (app, m, ctx) => {
  const base = `/modules/${m.code}/allowlist`;
  const tags = tagsOf(m);
  const select = sql`SELECT a.id, a.company_id, c.name AS company_name, a.domain, a.domain_punycode, a.comment, a.created_by, a.created_at
                     FROM domain_allowlist a JOIN companies c ON c.id = a.company_id`;

  async function find(c: Caller, id: number, perm: 'events.read' | 'events.write'): Promise<AllowRow> {
    assertModule(c, m.code);
    const [r] = await rowsOf<AllowRow>(ctx.db, sql`${select} WHERE a.id = ${id}`);
    if (!r) throw notFound(EVENT_MSG.allowlistNotFound);
    assertOn(c, perm, r.company_id, EVENT_MSG.allowlistNotFound);
    return r;
  }
  const unique = async <T>(f: () => Promise<T>) => {
    try {
      return await f();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(EVENT_MSG.allowlistDuplicate, { domain: EVENT_MSG.allowlistDuplicate });
      throw e;
    }
  };

  // Create/import of an allowlisted domain is refused.
  ctx.guards[m.code] = [
    ...(ctx.guards[m.code] ?? []),
    async ({ companyId, data, tx }) => {
      const ascii = typeof data.domain_punycode === 'string' ? data.domain_punycode : undefined;
      if (!ascii) return;
      const hit = await allowlistedEntry(tx, companyId, ascii);
      if (hit) throw new ApiError(409, `${EVENT_MSG.allowlisted} (${hit.domain})`, { allowlist_id: hit.id });
    },
  ];
  // The `allowlist` action adds the event's domain to its company's allowlist.
  ctx.actionHandlers.set(`${m.code}:allowlist`, async (c, row, tx) => {
    const domain = String(row.data.domain ?? '');
    const ascii = String(row.data.domain_punycode ?? unicodeToPunycode(domain));
    const [r] = await rowsOf<{ id: number }>(
      tx,
      sql`INSERT INTO domain_allowlist (company_id, domain, domain_punycode, comment, created_by)
          VALUES (${row.company_id}, ${domain}, ${ascii}, ${`Из события №${row.id}`}, ${c.auth.user.id})
          ON CONFLICT (company_id, domain_punycode) DO UPDATE SET updated_at = domain_allowlist.updated_at RETURNING id`,
    );
    return { allowlist_id: r?.id as number };
  });

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
    async (req) => {
      const c = callerOf(req);
      assertModule(c, m.code);
      const q = req.query;
      const scope = scopeFor(c, 'events.read', q.company_id);
      if (scope !== 'all' && !scope.length) return { items: [], total: 0, page: q.page, page_size: q.page_size };
      const conds = [
        scope === 'all' ? sql`TRUE` : sql`a.company_id = ANY(${`{${scope.join(',')}}`}::int[])`,
        q.q
          ? sql`(a.domain ILIKE ${`%${q.q.replace(/[\\%_]/g, (x) => `\\${x}`)}%`} OR a.domain_punycode ILIKE ${`%${q.q.replace(/[\\%_]/g, (x) => `\\${x}`)}%`})`
          : sql`TRUE`,
      ];
      const where = sql.join(conds, sql` AND `);
      const [items, [total]] = await Promise.all([
        rowsOf<AllowRow>(
          ctx.db,
          sql`${select} WHERE ${where} ORDER BY a.domain, a.id LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
        ),
        rowsOf<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM domain_allowlist a WHERE ${where}`),
      ]);
      return { items: items.map(toAllow), total: total?.n ?? 0, page: q.page, page_size: q.page_size };
    },
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
    async (req, reply) => {
      const c = callerOf(req);
      assertModule(c, m.code);
      const companyId = targetCompany(c, 'events.write', req.body.company_id);
      const d = normalise(req.body.domain);
      const id = await unique(() =>
        ctx.db.transaction(async (tx) => {
          const [r] = await rowsOf<{ id: number }>(
            tx,
            sql`INSERT INTO domain_allowlist (company_id, domain, domain_punycode, comment, created_by)
                SELECT ${companyId}, ${d.domain}, ${d.ascii}, ${req.body.comment ?? null}, ${c.auth.user.id} WHERE EXISTS (SELECT 1 FROM companies WHERE id = ${companyId})
                RETURNING id`,
          );
          if (!r) throw notFound(EVENT_MSG.companyNotFound);
          await ctx.audit.record(
            c.actor,
            {
              action: 'domain_allowlist.create',
              entity: 'domain_allowlist',
              entityId: r.id,
              companyId,
              after: { domain: d.domain },
            },
            tx,
          );
          return r.id;
        }),
      );
      return reply.code(201).send(toAllow(await find(c, id, 'events.read')));
    },
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
    async (req) => toAllow(await find(callerOf(req), req.params.id, 'events.read')),
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
    async (req) => {
      const c = callerOf(req);
      const r = await find(c, req.params.id, 'events.write');
      const d = req.body.domain ? normalise(req.body.domain) : { domain: r.domain, ascii: r.domain_punycode };
      const comment = req.body.comment === undefined ? r.comment : req.body.comment;
      await unique(() =>
        ctx.db.transaction(async (tx) => {
          await tx.execute(
            sql`UPDATE domain_allowlist SET domain = ${d.domain}, domain_punycode = ${d.ascii}, comment = ${comment}, updated_at = now() WHERE id = ${r.id}`,
          );
          await ctx.audit.record(
            c.actor,
            {
              action: 'domain_allowlist.update',
              entity: 'domain_allowlist',
              entityId: r.id,
              companyId: r.company_id,
              before: { domain: r.domain, comment: r.comment },
              after: { domain: d.domain, comment },
            },
            tx,
          );
        }),
      );
      return toAllow(await find(c, r.id, 'events.read'));
    },
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
      const c = callerOf(req);
      const r = await find(c, req.params.id, 'events.write');
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM domain_allowlist WHERE id = ${r.id}`);
        await ctx.audit.record(
          c.actor,
          {
            action: 'domain_allowlist.delete',
            entity: 'domain_allowlist',
            entityId: r.id,
            companyId: r.company_id,
            before: { domain: r.domain },
          },
          tx,
        );
      });
      return reply.code(204).send(null);
    },
  );
};
