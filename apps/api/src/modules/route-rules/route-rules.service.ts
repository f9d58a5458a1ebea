/*
 * Route rules: CRUD (settings.manage, audited in the change's transaction) and the lookup the SPA
 * fallback and the console's «not found» page use. A rule's path is never a console route (that
 * path would never reach the lookup) and never its own target.
 */
import {
  isExternalTarget,
  normalizeRulePath,
  normalizeRuleTarget,
  ROUTE_RULE_MSG,
  type RouteRule,
} from '@forpost/contract/route-rules';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { iso, isUniqueViolation } from '../../lib/serialize';
import { createRouteRulesRepo, type RouteRuleRow } from './route-rules.repo';

export interface RouteRulesDeps {
  db: Db;
  audit: Audit;
  /** Whether a (normalised) path is a console route (the SPA's route table). */
  isConsoleRoute: (path: string) => boolean;
}

type Body = { path?: string; target?: string; permanent?: boolean; comment?: string | null };

const toItem = (r: RouteRuleRow): RouteRule => ({
  id: r.id,
  path: r.path,
  target: r.target,
  external: isExternalTarget(r.target),
  permanent: r.permanent,
  comment: r.comment,
  created_by: r.createdBy,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

export function createRouteRulesService({ db, audit, isConsoleRoute }: RouteRulesDeps) {
  const repo = createRouteRulesRepo(db);

  /** The whole rule after a change must hold: path no console route, target not the path itself. */
  function check(path: string, target: string) {
    if (isConsoleRoute(path)) throw badRequest(ROUTE_RULE_MSG.pathIsRoute, { path: ROUTE_RULE_MSG.pathIsRoute });
    if (!isExternalTarget(target) && normalizeRulePath(target.split(/[?#]/)[0] ?? '') === path) {
      throw badRequest(ROUTE_RULE_MSG.loop, { target: ROUTE_RULE_MSG.loop });
    }
  }
  const unique = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(ROUTE_RULE_MSG.duplicate, { path: ROUTE_RULE_MSG.duplicate });
      throw e;
    }
  };

  return {
    async list(q: { q?: string; page: number; page_size: number }) {
      const { rows, total } = await repo.list({ q: q.q, limit: q.page_size, offset: (q.page - 1) * q.page_size });
      return { items: rows.map(toItem), total, page: q.page, page_size: q.page_size };
    },
    async get(id: number) {
      const r = await repo.find(id);
      if (!r) throw notFound(ROUTE_RULE_MSG.notFound);
      return toItem(r);
    },
    async create(c: Caller, body: Required<Pick<Body, 'path' | 'target'>> & Body) {
      check(body.path, body.target);
      return unique(() =>
        db.transaction(async (tx) => {
          const r = await repo.insert(
            {
              path: body.path,
              target: body.target,
              permanent: body.permanent ?? false,
              comment: body.comment || null,
              createdBy: c.actor.userId ?? null,
            },
            tx,
          );
          const item = toItem(r);
          await audit.record(c.actor, { action: 'route_rule.create', entity: 'route_rule', entityId: r.id, after: item }, tx);
          return item;
        }),
      );
    },
    async update(c: Caller, id: number, body: Body) {
      return unique(() =>
        db.transaction(async (tx) => {
          const before = await repo.find(id, tx);
          if (!before) throw notFound(ROUTE_RULE_MSG.notFound);
          check(body.path ?? before.path, body.target ?? before.target);
          const r = await repo.update(
            id,
            {
              path: body.path,
              target: body.target,
              permanent: body.permanent,
              comment: body.comment === undefined ? undefined : body.comment || null,
            },
            tx,
          );
          const item = toItem(r);
          await audit.record(
            c.actor,
            { action: 'route_rule.update', entity: 'route_rule', entityId: id, before: toItem(before), after: item },
            tx,
          );
          return item;
        }),
      );
    },
    async remove(c: Caller, id: number) {
      await db.transaction(async (tx) => {
        const r = await repo.find(id, tx);
        if (!r) throw notFound(ROUTE_RULE_MSG.notFound);
        await repo.remove(id, tx);
        await audit.record(c.actor, { action: 'route_rule.delete', entity: 'route_rule', entityId: id, before: toItem(r) }, tx);
      });
    },
    /** The redirect for a path (query and hash ignored), or null; console routes never redirect. */
    async lookup(rawPath: string): Promise<{ to: string; external: boolean; permanent: boolean } | null> {
      const path = normalizeRulePath(rawPath.split(/[?#]/)[0] ?? '');
      if (!path || isConsoleRoute(path)) return null;
      const r = await repo.byPath(path);
      if (!r) return null;
      // Rules saved before targets were normalised (issue #28) are sent in the encoded form, and one
      // that can never be a valid Location is no redirect at all (never a 500 from the header check).
      const n = normalizeRuleTarget(r.target);
      if (!('target' in n)) return null;
      return { to: n.target, external: isExternalTarget(n.target), permanent: r.permanent };
    },
  };
}
export type RouteRulesService = ReturnType<typeof createRouteRulesService>;
