/* /settings/route-rules (route_rules.manage: administrators only, issue #28) and the public /route-rules/lookup (issue #16). */
import { idParam } from '@forpost/contract/common';
import { noContent } from '@forpost/contract/events';
import {
  routeRuleCreateRequest,
  routeRuleItem,
  routeRuleListQuery,
  routeRuleListResponse,
  routeRuleLookupQuery,
  routeRuleLookupResponse,
  routeRulePatchRequest,
} from '@forpost/contract/route-rules';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { RouteRulesService } from './route-rules.service';

const tags = ['settings'];

export async function routeRulesRoutes(app: App, { routeRules: svc }: { routeRules: RouteRulesService }) {
  app.get(
    '/route-rules/lookup',
    {
      // Public: the server's own fallback answers the same redirect to anyone without a session.
      config: { permission: 'public' },
      schema: {
        operationId: 'lookupRouteRule',
        tags,
        summary: 'Перенаправление для пути, который не является страницей консоли (или null)',
        querystring: routeRuleLookupQuery,
        response: { 200: routeRuleLookupResponse },
      },
    },
    async (req) => ({ redirect: await svc.lookup(req.query.path) }),
  );
  app.get(
    '/settings/route-rules',
    {
      config: { permission: 'route_rules.manage' },
      schema: {
        operationId: 'listRouteRules',
        tags,
        summary: 'Перенаправления: список',
        querystring: routeRuleListQuery,
        response: { 200: routeRuleListResponse },
      },
    },
    async (req) => svc.list(req.query),
  );
  app.get(
    '/settings/route-rules/:id',
    {
      config: { permission: 'route_rules.manage' },
      schema: {
        operationId: 'getRouteRule',
        tags,
        summary: 'Перенаправления: запись',
        params: idParam,
        response: { 200: routeRuleItem },
      },
    },
    async (req) => svc.get(req.params.id),
  );
  app.post(
    '/settings/route-rules',
    {
      config: { permission: 'route_rules.manage' },
      schema: {
        operationId: 'createRouteRule',
        tags,
        summary: 'Перенаправления: добавить',
        body: routeRuleCreateRequest,
        response: { 201: routeRuleItem },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  app.patch(
    '/settings/route-rules/:id',
    {
      config: { permission: 'route_rules.manage' },
      schema: {
        operationId: 'updateRouteRule',
        tags,
        summary: 'Перенаправления: изменить',
        params: idParam,
        body: routeRulePatchRequest,
        response: { 200: routeRuleItem },
      },
    },
    async (req) => svc.update(callerOf(req), req.params.id, req.body),
  );
  app.delete(
    '/settings/route-rules/:id',
    {
      config: { permission: 'route_rules.manage' },
      schema: {
        operationId: 'deleteRouteRule',
        tags,
        summary: 'Перенаправления: удалить',
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}
